// `gpusoc ptx check` and `gpusoc run`, through the built program.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "tests/platform/gpusoc_process.h"

namespace gpusoc::platform {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using CommandsTest = GpusocProcessTest;

const std::string kKernels = GPUSOC_KERNEL_DIR;
const std::string kConfigs = GPUSOC_CONFIG_DIR;

TEST_F(CommandsTest, PtxCheckAcceptsTheSuite) {
  const Outcome r = gpusoc("ptx check " + kKernels + "/sgemm.ptx " + kKernels + "/printf.ptx");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("sgemm.ptx: ok (2 kernels: sgemm_naive, sgemm_tiled)"));
  EXPECT_THAT(r.out, HasSubstr("printf.ptx: ok (1 kernel: printf_values)"));
}

TEST_F(CommandsTest, PtxCheckReportsEveryProblemWithItsPlace) {
  const std::string bad = dir.write("bad.ptx", R"(.version 8.5
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<3>;
  cp.async.ca.shared.global [%r1], [%r2], 4;
  add.s32 %r1, %r2, %nowhere;
  bra $L_missing;
  ret;
}
)");
  const Outcome r = gpusoc("ptx check " + bad + " " + kKernels + "/saxpy.ptx");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr(bad + ":7:3: error: unsupported instruction 'cp'"));
  EXPECT_THAT(r.err, HasSubstr(bad + ":8:21: error: undefined register '%nowhere'"));
  EXPECT_THAT(r.err, HasSubstr(bad + ":9:7: error: undefined label '$L_missing'"));
  EXPECT_THAT(r.err, HasSubstr(bad + ": 3 problems"));
  EXPECT_THAT(r.out, HasSubstr("saxpy.ptx: ok"));  // later files are still checked
}

// The 8800 GTX's SM (8192 registers allocated per CTA in units of 256, 768 threads, 8 CTAs,
// 16 KiB of shared memory), worked out here from each kernel's reported needs.
uint32_t tesla_ctas(uint32_t registers, uint32_t threads, uint32_t shared) {
  const uint32_t warps = (threads + 31) / 32;
  const uint32_t cta_registers = (registers * 32 * warps + 255) / 256 * 256;
  uint32_t fit = std::min(8u, 768 / (warps * 32));
  fit = std::min(fit, 8192 / cta_registers);
  if (shared) fit = std::min(fit, 16384 / shared);
  return fit;
}

TEST_F(CommandsTest, PtxInfoGivesEachKernelsNeedsAndOccupancy) {
  const Outcome r = gpusoc("ptx info " + kKernels + "/sgemm.ptx --json --config " + kConfigs +
                           "/tesla-8800gtx.json");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 2u);
  for (const auto& k : j["kernels"]) {
    SCOPED_TRACE(k["name"].get<std::string>());
    EXPECT_EQ(k["register_source"], "estimate");
    EXPECT_EQ(k["block"], nlohmann::json({256, 1, 1}));
    EXPECT_EQ(k["param_bytes"], 48);  // M, N, K, alpha, A, B, beta, C
    EXPECT_EQ(k["ctas_per_sm"], tesla_ctas(k["registers"], 256, k["static_shared_bytes"]));
    EXPECT_EQ(k["warps_per_sm"], k["ctas_per_sm"].get<int>() * 8);
    EXPECT_EQ(k["max_warps_per_sm"], 24);
  }
  EXPECT_EQ(j["kernels"][1]["name"], "sgemm_tiled");
  EXPECT_EQ(j["kernels"][1]["static_shared_bytes"], 2 * 16 * 16 * 4);  // two 16x16 tiles
}

// The 8800 GTX addresses memory with 32 bits: nvcc's 64-bit pointer registers count one register
// each there. STREAM's kernels hold little besides pointers and 64-bit indices, so they need
// fewer registers than with 64-bit addresses (the same SM otherwise), and more CTAs fit.
TEST_F(CommandsTest, ThirtyTwoBitAddressesLowerTheRegisterEstimate) {
  const std::string command =
      "ptx info " + kKernels + "/stream.ptx --json --config " + kConfigs + "/tesla-8800gtx.json";
  const Outcome narrow = gpusoc(command), wide = gpusoc(command + " --set sm.address_bits=64");
  ASSERT_EQ(narrow.status, 0) << narrow.err;
  ASSERT_EQ(wide.status, 0) << wide.err;
  const nlohmann::json n = nlohmann::json::parse(narrow.out), w = nlohmann::json::parse(wide.out);
  ASSERT_EQ(n["kernels"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(n["kernels"][i]["name"].get<std::string>());
    EXPECT_LT(n["kernels"][i]["registers"].get<int>() + 5, w["kernels"][i]["registers"].get<int>());
    EXPECT_EQ(n["kernels"][i]["ctas_per_sm"], tesla_ctas(n["kernels"][i]["registers"], 256, 0));
    EXPECT_GT(n["kernels"][i]["ctas_per_sm"], w["kernels"][i]["ctas_per_sm"]);
  }
  const Outcome bad = gpusoc(command + " --set sm.address_bits=48");
  EXPECT_EQ(bad.status, 1);
  EXPECT_THAT(bad.err, HasSubstr("sm.address_bits"));
}

TEST_F(CommandsTest, PtxInfoTakesExactCountsFromAPtxasReport) {
  const std::string corpus = std::string(GPUSOC_SOURCE_DIR) + "/tests/kernels/ptxas_corpus/";
  const Outcome r = gpusoc("ptx info " + corpus + "matmul.ptx --resources " + corpus +
                           "matmul.sm_80.ptxas --block 16,16 --shared 1024");
  ASSERT_EQ(r.status, 0) << r.err;
  // The report's "Used N registers" for the register-tiled SGEMM, and its demangled name.
  EXPECT_THAT(r.out, HasSubstr("void sgemm_regtile<128, 128, 8, 8, 8>"));
  EXPECT_THAT(r.out, HasSubstr("registers      119 per thread (ptxas report)"));
  EXPECT_THAT(r.out, HasSubstr("CTAs of 16x16x1 threads with 1024 bytes of dynamic shared memory"));
}

TEST_F(CommandsTest, PtxInfoRefusesBadBlocksAndNamesTheOption) {
  Outcome r = gpusoc("ptx info " + kKernels + "/saxpy.ptx --block 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--block '0': expected X[,Y,Z]"));
  r = gpusoc("ptx info " + kKernels + "/saxpy.ptx --block 1,2,3,4");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--block '1,2,3,4'"));
  r = gpusoc("ptx info " + kKernels + "/saxpy.ptx --shared -5");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("--shared '-5': expected an integer from 0 to"));
  r = gpusoc("ptx info " + kKernels + "/saxpy.ptx --block 600");  // the 8800 GTX allows 512
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("refused        a block of 600 threads exceeds"));
  r = gpusoc("ptx info /nonexistent.ptx");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent.ptx"));
}

TEST_F(CommandsTest, PtxCheckOfAMissingFileFails) {
  const Outcome r = gpusoc("ptx check /nonexistent.ptx");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent.ptx"));
  EXPECT_THAT(r.err, HasSubstr("cannot open file"));
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST_F(CommandsTest, RunVerifiesAndWritesIdenticalStatisticsEachTime) {
  const std::string first = dir.file("first.json"), second = dir.file("second.json");
  const std::string args =
      "run sgemm_tiled --size 40 --config " + kConfigs + "/small.json --stats-out ";
  const Outcome a = gpusoc(args + first);
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_THAT(a.out, HasSubstr("sgemm_tiled on the SoC; SMs loosely timed (sm.model=lt)"));
  EXPECT_THAT(a.out, HasSubstr("PASSED: sgemm_tiled"));
  ASSERT_EQ(gpusoc(args + second).status, 0);
  nlohmann::json stats = read_json(first), again = read_json(second);
  // Only the command lines differ (each names its own file).
  EXPECT_EQ(stats["provenance"]["configuration"], again["provenance"]["configuration"]);
  stats.erase("provenance");
  again.erase("provenance");
  // 3x3 CTAs of 16x16 threads for a 40x40 matrix, over the two SMs of small.json.
  EXPECT_EQ(stats["gpu"]["cta_dispatcher"]["ctas"]["value"], 9);
  EXPECT_EQ(stats["gpu"]["sm0"]["ctas"]["value"].get<int>() +
                stats["gpu"]["sm1"]["ctas"]["value"].get<int>(),
            9);
  EXPECT_GT(stats["gpu"]["sm0"]["warp_instructions"]["value"].get<uint64_t>(), 0u);
  EXPECT_EQ(stats, again);
}

// The memory side's blocks publish their counts in the run's statistics: a cycle-level vecadd of
// N floats on small.json (two partitions of two GDDR3 channels, 32-byte bursts, a pass-through
// L2) reads 2 x 4N bytes and writes 4N, each warp's access one 128-byte line.
TEST_F(CommandsTest, RunStatisticsHoldTheCrossbarPartitionsAndControllersCounts) {
  constexpr uint64_t kN = 65536, kBurst = 32;
  const std::string file = dir.file("vecadd.json");
  const Outcome o =
      gpusoc("run vecadd --config " + kConfigs + "/small.json --set sm.model=cycle --stats-out " +
             file + " -- --size " + std::to_string(kN));
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json stats = read_json(file);
  const nlohmann::json& m = stats["gpu"]["memory_system"];
  const auto value = [](const nlohmann::json& stat) { return stat["value"].get<uint64_t>(); };
  EXPECT_EQ(value(m["dram_reads"]), 2 * kN * 4 / kBurst);
  // Writes are posted: a few may still wait below a controller's drain watermark at the end.
  EXPECT_LE(value(m["dram_writes"]), kN * 4 / kBurst);
  EXPECT_GE(value(m["dram_writes"]), kN * 4 / kBurst - 2 * 2 * 24);
  EXPECT_EQ(value(m["requests"]), 3 * kN / 32);
  EXPECT_EQ(m["xbar"]["requests"]["packets"]["value"]["total"], value(m["requests"]));
  EXPECT_EQ(m["xbar"]["replies"]["delivered_packets"]["value"]["total"], value(m["requests"]));
  uint64_t reads = 0, activates = 0, turnarounds = 0;
  for (const char* part : {"partition0", "partition1"}) {
    for (const char* channel : {"channel0", "channel1"}) {
      const nlohmann::json& c = m[part][channel];
      reads += value(c["reads"]);
      activates += value(c["activates"]);
      turnarounds += value(c["read_write_turnarounds"]);
      EXPECT_EQ(c["activates"]["unit"], "commands");
    }
    EXPECT_EQ(value(m[part]["l2"]["read_misses"]), value(m[part]["read_packets"]));
    EXPECT_TRUE(m[part]["l2"].contains("mshr_stall_cycles"));
  }
  EXPECT_EQ(reads, value(m["dram_reads"]));
  EXPECT_EQ(activates, value(m["dram_activates"]));
  EXPECT_EQ(turnarounds, value(m["dram_read_write_turnarounds"]));
  EXPECT_GT(activates, 0u);
  EXPECT_GT(turnarounds, 0u) << "reads and writes share the channels";
}

TEST_F(CommandsTest, RunRejectsUnknownAppsAndBadSizes) {
  Outcome r = gpusoc("run no_such_app");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown app 'no_such_app' (apps: vecadd"));
  r = gpusoc("run saxpy --size 12x");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("saxpy --size '12x': expected an integer from 1 to 67108864"));
  // Signs, zero and sizes past the app's range are refused by name and range, never wrapped.
  for (const char* size : {"0", "-5", "+5", "99999999999", "18446744073709551616"}) {
    r = gpusoc(std::string("run saxpy -- --size ") + size);
    EXPECT_EQ(r.status, 2) << size;
    EXPECT_THAT(r.err, HasSubstr(std::string("saxpy --size '") + size +
                                 "': expected an integer from 1 to 67108864"));
  }
  r = gpusoc("run saxpy -- --bogus");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown app argument '--bogus'"));
}

// The SIMT deadlock example (sw/kernels/spin_wait.cu) on cycle-level SMs: it completes under
// independent thread scheduling; under the reconvergence stack the watchdog names the kernel,
// warp, PC and PTX line, and the run exits non-zero instead of hanging.
TEST_F(CommandsTest, SpinWaitNeedsIndependentThreadScheduling) {
  const std::string args =
      "run spin_wait --config " + kConfigs +
      "/small.json --set sm.model=cycle --set sm.simt_deadlock_instructions=20000 "
      "--set sm.simt_model=";
  const Outcome its = gpusoc(args + "independent");
  EXPECT_EQ(its.status, 0) << its.err;
  EXPECT_THAT(its.out, HasSubstr("SMs cycle-level (sm.model=cycle)"));
  EXPECT_THAT(its.out, HasSubstr("PASSED: spin_wait"));
  const Outcome stack = gpusoc(args + "stack");
  EXPECT_EQ(stack.status, 1) << stack.out;
  EXPECT_THAT(stack.err, HasSubstr("SIMT deadlock"));
  EXPECT_THAT(stack.err, HasSubstr("kernel 'spin_wait'"));
  EXPECT_THAT(stack.err, HasSubstr("warp 0"));
  EXPECT_THAT(stack.err, MatchesRegex(".*SIMT deadlock at pc [0-9]+ \\(.*:[0-9]+\\).*"));
  // The bare functional core runs the same SIMT models.
  EXPECT_EQ(gpusoc(args + "independent --functional").status, 0);
  EXPECT_EQ(gpusoc(args + "stack --functional").status, 1);
}

// An app's figures come out on stdout and under app.figures in the statistics, with units: the
// pointer chase over 16 KB, all of it in the V100's L1 after the first pass, measures the L1's
// configured 28-cycle hit (plus at most a few cycles of issue per step).
TEST_F(CommandsTest, RunReportsTheAppsFiguresInTheStatistics) {
  const std::string stats = dir.file("stats.json");
  const Outcome r =
      gpusoc("run latency --config " + kConfigs +
             "/volta-v100.json --set sm.model=cycle --stats-out " + stats + " -- --size 16384");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("figure latency_warm"));
  std::ifstream in(stats);
  const nlohmann::json figures = nlohmann::json::parse(in).at("app").at("figures");
  EXPECT_EQ(figures.at("latency_warm").at("unit"), "cycles");
  const double warm = figures.at("latency_warm").at("value");
  EXPECT_GE(warm, 28.0);
  EXPECT_LE(warm, 31.0);
  EXPECT_GT(double(figures.at("latency_cold").at("value")), 200.0) << "the first touch is DRAM";
}

// The SMs' temporal decoupling (sm.cycle.quantum_ns) must not change timing: an L2 re-read whose
// requests fill the memory's port queues (END_REQ held back) takes the same simulated time with
// a 1 us quantum as with 10 ns. Held back, an SM ahead of SystemC learnt of room a quantum late:
// 7.83 us against 7.17 before it kept (within a 64th of the quantum) in step while waiting for
// END_REQ. The buffers' addresses move such a launch by a few percent: the same run compares.
TEST_F(CommandsTest, TheSmQuantumDoesNotChangeTimingUnderBackpressure) {
  const auto simulated_us = [&](int quantum_ns) {
    const Outcome r =
        gpusoc("launch " + kKernels +
               "/microbench.ptx read_bw zero:2097152 i32:512 i32:256 i32:2 i32:1 "
               "zero:4 --grid 512 --block 128 --config " +
               kConfigs + "/volta-v100.json --set sm.model=cycle --set sm.cycle.quantum_ns=" +
               std::to_string(quantum_ns));
    EXPECT_EQ(r.status, 0) << r.err;
    const size_t at = r.out.find(" us simulated");
    EXPECT_NE(at, std::string::npos) << r.out;
    return std::stod(r.out.substr(r.out.rfind(' ', at - 1) + 1));
  };
  const double coarse = simulated_us(1000), fine = simulated_us(10);
  EXPECT_NEAR(coarse / fine, 1.0, 0.02) << coarse << " us against " << fine << " us";
}

TEST_F(CommandsTest, RunNeeds32ThreadWarps) {
  const Outcome r = gpusoc("run saxpy --set sm.warp_size=16 --set sm.max_threads=768");
  EXPECT_EQ(r.status, 1);
  EXPECT_THAT(r.err, HasSubstr("sm.warp_size = 16: the SMs run 32-thread warps"));
}

}  // namespace
}  // namespace gpusoc::platform
