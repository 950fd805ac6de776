// Runs the built gpusoc program: output, exit status and the one-line errors.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/platform/gpusoc_process.h"

namespace gpusoc::platform {
namespace {

using ::testing::HasSubstr;
using ::testing::IsSupersetOf;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

const std::string kConfigDir = GPUSOC_CONFIG_DIR;

// The parameters the GPU structure and clocks are described by (platform/gpu_spec.cpp).
const std::set<std::string> kGpuSpecParameters{"gpu.gpcs",
                                               "gpu.tpcs_per_gpc",
                                               "gpu.sms_per_tpc",
                                               "sm.sp_cores",
                                               "sm.sfus",
                                               "sm.warp_size",
                                               "sm.max_threads",
                                               "sm.max_ctas",
                                               "sm.registers",
                                               "sm.shared_memory_bytes",
                                               "sm.max_threads_per_cta",
                                               "sm.max_shared_per_cta",
                                               "sm.stack_bytes_per_thread",
                                               "clock.shader_mhz",
                                               "clock.core_mhz",
                                               "memory.partitions",
                                               "memory.bus_width_bits",
                                               "memory.type",
                                               "memory.capacity_bytes"};

using CliTest = GpusocProcessTest;

// "a.b.c" for every leaf of a nested JSON object.
void collect_names(const nlohmann::json& node, const std::string& prefix,
                   std::set<std::string>& out) {
  for (const auto& [key, value] : node.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object()) {
      collect_names(value, name, out);
    } else {
      out.insert(name);
    }
  }
}

TEST_F(CliTest, ConfigDumpPrintsTheEffectiveConfiguration) {
  const Outcome result =
      gpusoc("config dump --config " + kConfigDir + "/small.json --set sm.warp_size=32");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const nlohmann::json dump = nlohmann::json::parse(result.out);
  EXPECT_EQ(dump["gpu"]["gpcs"], 1);
  EXPECT_EQ(dump["gpu"]["tpcs_per_gpc"], 1);
  EXPECT_EQ(dump["gpu"]["sms_per_tpc"], 2);
  EXPECT_EQ(dump["memory"]["partitions"], 2);
  EXPECT_EQ(dump["memory"]["type"], "GDDR3");  // from the included tesla-8800gtx.json
  EXPECT_EQ(dump["clock"]["shader_mhz"], 1350.0);
  EXPECT_EQ(dump["sm"]["warp_size"], 32);
}

TEST_F(CliTest, SetOverridesTheConfigFile) {
  const Outcome result =
      gpusoc("config dump --config " + kConfigDir + "/small.json --set sm.warp_size=16");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["sm"]["warp_size"], 16);
}

TEST_F(CliTest, DumpLoadsBackToTheSameConfiguration) {
  const Outcome first = gpusoc("config dump --config " + kConfigDir + "/tesla-8800gtx.json");
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string saved = dir.write("saved.json", first.out);
  const Outcome second = gpusoc("config dump --config " + saved);
  EXPECT_EQ(second.out, first.out);
}

TEST_F(CliTest, AnUnknownKeyIsOneErrorLineWithASuggestion) {
  const Outcome result = gpusoc("config dump --set sm.warpsize=32");
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(
      result.err,
      "gpusoc: error: --set: unknown parameter 'sm.warpsize' (did you mean 'sm.warp_size'?)\n");
}

TEST_F(CliTest, AnUnknownKeyInAFileNamesTheFile) {
  const std::string file = dir.write(
      "typo.json", R"({"include": ")" + kConfigDir + R"(/small.json", "sm": {"sfu": 4}})");
  const Outcome result = gpusoc("config dump --config " + file);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err,
            "gpusoc: error: " + file + ": unknown parameter 'sm.sfu' (did you mean 'sm.sfus'?)\n");
}

TEST_F(CliTest, ABadValueIsOneErrorLine) {
  const Outcome result = gpusoc("config dump --set sm.warp_size=24");
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err, "gpusoc: error: --set: sm.warp_size = 24 is not a power of two\n");
}

TEST_F(CliTest, UsageErrorsExitWithTwo) {
  for (const char* args : {"config dump --frmat x", "config dupm", "config dump --log-level loud",
                           "config dump --stats-out stats.xml", "config doc --format html"}) {
    const Outcome result = gpusoc(args);
    EXPECT_EQ(result.status, 2) << args;
    EXPECT_THAT(result.err, MatchesRegex("gpusoc: error: [^\n]+\n")) << args;
    EXPECT_EQ(result.out, "") << args;
  }
}

TEST_F(CliTest, HelpListsTheCommands) {
  const Outcome result = gpusoc("--help");
  EXPECT_EQ(result.status, 0);
  EXPECT_THAT(result.out, StartsWith("usage: gpusoc <command> [options] [args]\n"));
  EXPECT_THAT(result.out, HasSubstr("\n  config dump "));
  EXPECT_THAT(result.out, HasSubstr("\n  config doc "));
  EXPECT_THAT(result.out, HasSubstr("--stats-out FILE"));
  EXPECT_EQ(gpusoc("help").out, result.out);
  EXPECT_THAT(gpusoc("help config doc").out, StartsWith("usage: gpusoc config doc [options]\n"));
}

TEST_F(CliTest, ConfigDocListsEveryRegisteredParameter) {
  const Outcome dump = gpusoc("config dump");
  const Outcome doc = gpusoc("config doc");
  ASSERT_EQ(doc.status, 0) << doc.err;
  std::set<std::string> dumped;
  collect_names(nlohmann::json::parse(dump.out), "", dumped);
  std::set<std::string> documented;
  std::istringstream lines(doc.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_THAT(line, StartsWith("NAME "));
  while (std::getline(lines, line)) documented.insert(line.substr(0, line.find(' ')));
  EXPECT_EQ(documented, dumped);
  EXPECT_THAT(documented, IsSupersetOf(kGpuSpecParameters));
}

TEST_F(CliTest, CommittedParameterReferenceIsCurrent) {
  const Outcome doc = gpusoc("config doc --format markdown");
  ASSERT_EQ(doc.status, 0) << doc.err;
  EXPECT_EQ(testing::read_file(std::string(GPUSOC_SOURCE_DIR) + "/docs/parameters.md"), doc.out)
      << "docs/parameters.md is stale; regenerate it with\n"
         "  build/platform/gpusoc config doc --format markdown > docs/parameters.md";
}

// Independent arithmetic from the data sheets: 128 SP cores x 2 flops x 1.35 GHz; six 64-bit
// GDDR3 channels at 1.8 GT/s; PCIe 1.0 x16 = 16 lanes x 2.5 GT/s x 8/10 = 4 GB/s, of which 2%
// DLLPs and 128-byte payloads in 128 + 12 (header) + 2 (sequence) + 4 (LCRC) + 2 (framing).
TEST_F(CliTest, InfoDerivesPeaksAndOccupancyLimits) {
  const Outcome info = gpusoc("info --format json --config " + kConfigDir + "/tesla-8800gtx.json");
  ASSERT_EQ(info.status, 0) << info.err;
  const nlohmann::json j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["sms"], 16);
  EXPECT_NEAR(j["peak_fp32_gflops"].get<double>(), 128 * 2 * 1.35, 1e-9);
  EXPECT_EQ(j["peak_fp64_gflops"].get<double>(), 0.0);
  EXPECT_NEAR(j["peak_dram_gbps"].get<double>(), 6 * 8 * 1.8, 1e-9);
  EXPECT_NEAR(j["pcie_raw_gbps"].get<double>(), 16 * 2.5 * 0.8 / 8, 1e-9);
  EXPECT_NEAR(j["pcie_h2d_payload_gbps"].get<double>(), 4.0 * 0.98 * 128 / 148, 1e-9);
  EXPECT_NEAR(j["pcie_d2h_payload_gbps"].get<double>(), 4.0 * 0.98 * 128 / 152, 1e-9);
  EXPECT_EQ(j["sm_max_warps"], 24);
  EXPECT_EQ(j["sm_max_ctas"], 8);
  EXPECT_EQ(j["sm_registers"], 8192);
  const Outcome text = gpusoc("info --config " + kConfigDir + "/tesla-8800gtx.json");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("345.6 GFLOP/s"), std::string::npos) << text.out;
  EXPECT_NE(gpusoc("info --format yaml").status, 0);
}

// V100 from its whitepaper: 80 SMs x 64 FP32 lanes x 2 flops x 1.53 GHz = 15.67 TFLOP/s, half
// that in FP64; 4096-bit HBM2 at 1.754 GT/s = 898 GB/s; as cycle-level SMs, 4 blocks.
TEST_F(CliTest, InfoDescribesTheVoltaConfiguration) {
  const Outcome info =
      gpusoc("info --format json --config " + kConfigDir + "/volta-v100.json --set sm.model=cycle");
  ASSERT_EQ(info.status, 0) << info.err;
  const nlohmann::json j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["sms"], 80);
  EXPECT_NEAR(j["peak_fp32_gflops"].get<double>(), 80 * 64 * 2 * 1.53, 1e-6);
  EXPECT_NEAR(j["peak_fp64_gflops"].get<double>(), 80 * 32 * 2 * 1.53, 1e-6);
  EXPECT_NEAR(j["peak_dram_gbps"].get<double>(), 4096 / 8 * 1.754, 1e-6);
  EXPECT_NEAR(j["pcie_raw_gbps"].get<double>(), 16 * 8.0 * 128 / 130 / 8, 1e-9);
  EXPECT_EQ(j["sm_max_warps"], 64);
  EXPECT_EQ(j["sm_model"], "cycle");
  EXPECT_EQ(j["sm_summary"],
            "cycle-level (sm.model=cycle), 4 processing blocks, gto scheduler, 64 KiB L1, "
            "32 shared banks, SIMT independent");
}

TEST_F(CliTest, CommittedRegisterMapIsCurrent) {
  const Outcome doc = gpusoc("registers");
  ASSERT_EQ(doc.status, 0) << doc.err;
  EXPECT_NE(doc.out.find("CH_DOORBELL"), std::string::npos);
  EXPECT_EQ(testing::read_file(std::string(GPUSOC_SOURCE_DIR) + "/docs/registers.md"), doc.out)
      << "docs/registers.md is stale; regenerate it with\n"
         "  build/platform/gpusoc registers > docs/registers.md";
}

// The host interface's identification registers report the configuration: 16 GiB of V100 HBM2
// less the firmware heap asked for, the channels asked for, VRAM from 0x2'0000'0000.
TEST_F(CliTest, RegisterResetValuesAreTheConfigurations) {
  const Outcome doc = gpusoc("registers --config " + kConfigDir +
                             "/volta-v100.json --set gigathread.channels=5 "
                             "--set gpu.firmware_heap_bytes=33554432");
  ASSERT_EQ(doc.status, 0) << doc.err;
  const auto reset_of = [&](const std::string& name) {
    const size_t at = doc.out.find("| `" + name + "` |");
    if (at == std::string::npos) return std::string("missing");
    const size_t tick = doc.out.find("| `0x", at + name.size() + 4);
    return doc.out.substr(tick + 3, 10);
  };
  // 16 GiB - 32 MiB = 0x3'fe00'0000.
  EXPECT_EQ(reset_of("VRAM_SIZE_LO"), "0xfe000000");
  EXPECT_EQ(reset_of("VRAM_SIZE_HI"), "0x00000003");
  EXPECT_EQ(reset_of("VRAM_BASE_HI"), "0x00000002");
  EXPECT_EQ(reset_of("NUM_CHANNELS"), "0x00000005");
  EXPECT_EQ(reset_of("ID"), "0x50554753");
}

TEST_F(CliTest, StatisticsAreWrittenWhereAsked) {
  const std::string stats = dir.file("stats.json");
  const Outcome result = gpusoc("config dump --set sm.model=cycle --stats-out " + stats);
  ASSERT_EQ(result.status, 0) << result.err;
  // No statistics, and what would reproduce them: the configuration is the one dumped.
  const nlohmann::json json = nlohmann::json::parse(testing::read_file(stats));
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json["provenance"]["configuration"], nlohmann::json::parse(result.out));
  EXPECT_EQ(json["provenance"]["command_line"],
            "gpusoc config dump --set sm.model=cycle --stats-out " + stats);
  EXPECT_THAT(json["provenance"]["commit"].get<std::string>(),
              MatchesRegex("(.*-g)?[0-9a-f]{12}(-dirty)?|unknown"));
}

// A statistics file alone reproduces its run: its configuration, given back as a file, gives
// the same statistics.
TEST_F(CliTest, AStatisticsFileCarriesWhatReproducesIt) {
  const std::string first = dir.file("first.json"), config = dir.file("config.json"),
                    second = dir.file("second.json");
  const std::string run = "memtrace --pattern random --requests 3000 --stats-out ";
  ASSERT_EQ(gpusoc(run + first + " --config " + kConfigDir +
                   "/volta-v100.json --set memory.controller.read_queue=16")
                .status,
            0);
  nlohmann::json a = nlohmann::json::parse(testing::read_file(first));
  { std::ofstream(config) << a["provenance"]["configuration"].dump(); }
  ASSERT_EQ(gpusoc(run + second + " --config " + config).status, 0);
  nlohmann::json b = nlohmann::json::parse(testing::read_file(second));
  EXPECT_EQ(a["provenance"]["configuration"], b["provenance"]["configuration"]);
  a.erase("provenance");
  b.erase("provenance");
  EXPECT_EQ(a, b);
  EXPECT_GT(a["bandwidth_gbps"].get<double>(), 0);
}

// The summary's DRAM bandwidth is the app's own figure (the input bytes over the kernels' time,
// which a reduction reads once from DRAM), and its per-kernel IPC the statistics file's.
TEST_F(CliTest, RunSummaryAgreesWithTheAppAndTheStatisticsFile) {
  const std::string stats = dir.file("stats.json");
  const Outcome result = gpusoc("run reduce_shared --config " + kConfigDir +
                                "/small.json --set sm.model=cycle --stats-out " + stats);
  ASSERT_EQ(result.status, 0) << result.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(result.out, m, std::regex(R"(dram .*: ([\d.]+) GB/s)")))
      << result.out;
  const double summary_gbps = std::stod(m[1]);
  ASSERT_TRUE(std::regex_search(result.out, m, std::regex(R"(figure bw +([\d.]+) GB/s)")));
  EXPECT_NEAR(summary_gbps, std::stod(m[1]), 0.05);
  const nlohmann::json json = nlohmann::json::parse(testing::read_file(stats));
  for (const char* kernel : {"reduce_shared", "reduce_final"}) {
    ASSERT_TRUE(
        std::regex_search(result.out, m, std::regex(std::string(kernel) + R"( +IPC ([\d.]+),)")))
        << kernel;
    EXPECT_NEAR(std::stod(m[1]), json["gpu"]["kernels"][kernel]["ipc"]["value"].get<double>(),
                0.0005)
        << kernel;
  }
  EXPECT_THAT(result.out, HasSubstr("stalls (of the slots that issued nothing): "));
}

// Per-launch statistics add up to the run's totals the summary prints, each stream's launches
// follow one another in time, and the record count is capped as configured.
TEST_F(CliTest, EachLaunchHasItsOwnStatistics) {
  const std::string stats = dir.file("stats.json");
  const Outcome result =
      gpusoc("run two_streams --config " + kConfigDir +
             "/small.json --set gigathread.launch_records=3 --stats-out " + stats);
  ASSERT_EQ(result.status, 0) << result.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(result.out, m,
                                std::regex(R"(kernels +(\d+) launches, (\d+) CTAs, (\d+) warp)")));
  const int launches = std::stoi(m[1]);
  ASSERT_EQ(launches, 4);
  const nlohmann::json json = nlohmann::json::parse(testing::read_file(stats));
  const nlohmann::json& records = json["gpu"]["cta_dispatcher"]["launches"];
  EXPECT_EQ(records["unrecorded"]["value"], launches - 3);
  uint64_t ctas = 0, instructions = 0;
  std::map<uint64_t, double> stream_end;  // channel -> end of its last launch so far
  for (int id = 1; id <= 3; ++id) {
    const nlohmann::json& r = records["grid" + std::to_string(id)];
    EXPECT_EQ(r["grid_id"]["value"], id);
    EXPECT_EQ(r["kernel"]["value"], "vector_add");
    EXPECT_EQ(r["status"]["value"], "None");
    const double start = r["start_ns"]["value"], end = r["end_ns"]["value"];
    EXPECT_LT(start, end);
    const uint64_t channel = r["channel"]["value"];
    EXPECT_LE(stream_end[channel], start) << "grid " << id << " overlaps its stream's last one";
    stream_end[channel] = end;
    ctas += r["ctas"]["value"].get<uint64_t>();
    instructions += r["warp_instructions"]["value"].get<uint64_t>();
  }
  EXPECT_EQ(stream_end.size(), 2u);  // the app's two streams
  // Loosely timed SMs keep no cycle counts: the records have none to add.
  EXPECT_FALSE(records["grid1"].contains("cycles"));
  // The four launches are alike: three are three quarters of the totals.
  EXPECT_EQ(ctas * 4, 3 * std::stoull(m[2]));
  EXPECT_EQ(instructions * 4, 3 * std::stoull(m[3]));
}

// With cycle-level SMs each launch's record has the cycles, issue slots, stalls and hit counts
// it added: launches of one kernel that follow one another add up to the kernel's totals.
TEST_F(CliTest, EachLaunchRecordsItsCycleLevelCounts) {
  const std::string stats = dir.file("stats.json");
  const Outcome result = gpusoc("run two_streams --config " + kConfigDir +
                                "/small.json --set sm.model=cycle --stats-out " + stats);
  ASSERT_EQ(result.status, 0) << result.err;
  const nlohmann::json gpu = nlohmann::json::parse(testing::read_file(stats))["gpu"];
  const nlohmann::json& kernel = gpu["kernels"]["vector_add"];
  std::map<std::string, uint64_t> sums;
  std::vector<std::pair<double, double>> spans;
  for (const auto& [name, r] : gpu["cta_dispatcher"]["launches"].items()) {
    if (name.rfind("grid", 0) != 0) continue;
    spans.emplace_back(r["start_ns"]["value"].get<double>(), r["end_ns"]["value"].get<double>());
    for (const char* c : {"cycles", "issue_slots", "stall_memory", "stall_pipeline",
                          "stall_dependency", "resident_warp_cycles"})
      sums[c] += r[c]["value"].get<uint64_t>();
    EXPECT_GT(r["cycles"]["value"].get<uint64_t>(), 0u) << name;
  }
  ASSERT_EQ(spans.size(), 4u);
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) ASSERT_LE(spans[i - 1].second, spans[i].first);
  for (const auto& [c, sum] : sums) EXPECT_EQ(sum, kernel[c]["value"].get<uint64_t>()) << c;
  EXPECT_THAT(result.out, HasSubstr("           IPC "));
}

// --mem-trace writes the requests the memory system counted, and memtrace replays them: the same
// requests and bytes, reads and writes.
TEST_F(CliTest, AKernelsMemoryTraceReplaysInMemtrace) {
  const std::string trace = dir.file("k.trace"), stats = dir.file("stats.json"),
                    replay = dir.file("replay.json");
  const std::string config = " --config " + kConfigDir + "/small.json";
  const Outcome run = gpusoc("run reduce_shared --size 65536 --set sm.model=cycle --mem-trace " +
                             trace + " --stats-out " + stats + config);
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json memory =
      nlohmann::json::parse(testing::read_file(stats))["gpu"]["memory_system"];
  uint64_t requests = 0, bytes = 0, writes = 0;
  double last = 0;
  std::istringstream lines(testing::read_file(trace));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    double time_ns;
    std::string op, address;
    uint64_t size;
    fields >> time_ns >> op >> address >> size;
    EXPECT_GE(time_ns, last) << line;
    last = time_ns;
    ++requests;
    bytes += size;
    writes += op == "W";
  }
  EXPECT_EQ(requests, memory["requests"]["value"].get<uint64_t>());
  EXPECT_EQ(bytes, memory["bytes"]["value"].get<uint64_t>());
  EXPECT_THAT(run.out, HasSubstr(std::to_string(requests) + " requests written to " + trace));

  ASSERT_EQ(gpusoc("memtrace --trace " + trace + " --stats-out " + replay + config).status, 0);
  const nlohmann::json report = nlohmann::json::parse(testing::read_file(replay));
  EXPECT_EQ(report["requests"], requests);
  EXPECT_EQ(report["bytes"], bytes);
  EXPECT_EQ(report["writes"], writes);
  EXPECT_GT(writes, 0u);
}

TEST_F(CliTest, AMemoryTraceNeedsCycleLevelSms) {
  const Outcome o = gpusoc("run vecadd --mem-trace " + dir.file("k.trace"));
  EXPECT_EQ(o.status, 2);
  EXPECT_THAT(o.err, HasSubstr("--mem-trace records the memory requests of cycle-level SMs"));
}

}  // namespace
}  // namespace gpusoc::platform
