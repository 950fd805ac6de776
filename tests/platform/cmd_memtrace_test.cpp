// `gpusoc memtrace`, through the built program: the report's keys and figures against the DRAM
// preset's datasheet timing and peak, trace files and their errors, and determinism.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "models/mempart/dram_timing.h"
#include "tests/platform/gpusoc_process.h"

namespace gpusoc::platform {
namespace {

using ::testing::HasSubstr;
using MemtraceTest = GpusocProcessTest;

const std::string kConfigs = GPUSOC_CONFIG_DIR;

nlohmann::json load_json(const std::string& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

void write(const std::string& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
}

// One 32-byte read into idle partitions: the controller opens the row at once (ACT), reads
// tRCD later, and the data's last beat leaves CL + burst after that. Nothing else is in the way.
TEST_F(MemtraceTest, OneReadTakesActivateReadAndBurstOfThePreset) {
  const std::string trace = dir.file("one.trace");
  const std::string json = dir.file("one.json");
  write(trace, "# one read\n0 R 0x1000 32\n");
  const Outcome o = gpusoc("memtrace --config " + kConfigs +
                           "/tesla-8800gtx.json --into partitions --set "
                           "memory.fixed_latency_ns=0 --trace " +
                           trace + " --stats-out " + json);
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json r = load_json(json);
  const mempart::DramTiming& t = mempart::dram_preset("GDDR3");
  const double expected_ns = (t.tRCD + t.CL + t.burst_cycles()) * t.tck_ns;
  EXPECT_EQ(r["requests"], 1);
  EXPECT_NEAR(r["latency_ns"]["avg"].get<double>(), expected_ns, 1e-6);
  EXPECT_NEAR(r["latency_ns"]["p50"].get<double>(), expected_ns, 1e-6);
  EXPECT_NEAR(r["latency_ns"]["p99"].get<double>(), expected_ns, 1e-6);
  EXPECT_EQ(r["row_hit_rate"], 0.0);  // the one column command needed an ACT
  EXPECT_THAT(o.out, HasSubstr("1 requests"));
}

// A long sequential stream of 128-byte reads reaches at least 90% of the 8800 GTX's 86.4 GB/s
// (six 64-bit GDDR3 partitions at 1.8 GT/s), and never more than the peak.
TEST_F(MemtraceTest, StreamReachesNinetyPercentOfThePeakIntoThePartitions) {
  const std::string json = dir.file("stream.json");
  const Outcome o = gpusoc("memtrace --config " + kConfigs +
                           "/tesla-8800gtx.json --into partitions --pattern stream --requests "
                           "100000 --size 128 --stats-out " +
                           json);
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json r = load_json(json);
  EXPECT_DOUBLE_EQ(r["peak_bandwidth_gbps"].get<double>(), 6 * 8 * 1.8);
  EXPECT_GE(r["bandwidth_gbps"].get<double>(), 0.90 * 86.4);
  EXPECT_LE(r["bandwidth_gbps"].get<double>(), 86.4);
  EXPECT_EQ(r["requests"], 100000);
  EXPECT_GT(r["row_hit_rate"].get<double>(), 0.9);
  for (const char* key : {"avg", "p50", "p99"}) EXPECT_GT(r["latency_ns"][key].get<double>(), 0);
  EXPECT_LE(r["latency_ns"]["p50"].get<double>(), r["latency_ns"]["p99"].get<double>());
  // Each of the six partitions has its statistics, and its channels' controllers theirs, summed
  // in the totals.
  EXPECT_EQ(r["partition_utilization"].size(), 6u);
  const nlohmann::json& stats = r["stats"];
  EXPECT_FALSE(stats.contains("partition6"));
  EXPECT_FALSE(stats.contains("xbar")) << "partition mode has no crossbar";
  uint64_t reads = 0, activates = 0;
  for (int p = 0; p < 6; ++p) {
    const nlohmann::json& part = stats["partition" + std::to_string(p)];
    EXPECT_EQ(part["packets"], part["read_packets"]);
    for (const auto& [name, channel] : part.items()) {
      if (name.rfind("channel", 0) != 0) continue;
      reads += channel["reads"].get<uint64_t>();
      activates += channel["activates"].get<uint64_t>();
      EXPECT_EQ(channel["bank_columns"]["total"], channel["reads"]);
    }
  }
  EXPECT_EQ(reads * 32, 100000u * 128) << "every 128-byte request is four 32-byte bursts";
  EXPECT_EQ(stats["dram_reads"], reads);
  EXPECT_EQ(stats["dram_activates"], activates);
  EXPECT_GT(activates, 0u);
}

// An offered load far below the peak (4 GB/s of the 8800 GTX's 86.4) is delivered in full: the
// last of N requests is offered at (N - 1) * size / rate and answered within a microsecond, so the
// bandwidth is N * size over that, less than rate * N / (N - 1). Twice the peak offered gets what
// the same requests unpaced get (random reads sustain about a third of the peak), with longer
// latency (the sweep of scripts/memsweep, tests/platform, goes further).
TEST_F(MemtraceTest, ARateFarBelowThePeakIsDeliveredAndOnePastSaturationGetsWhatIsSustained) {
  constexpr uint64_t kRequests = 4000;
  const std::string light = dir.file("light.json"), heavy = dir.file("heavy.json");
  const std::string unpaced = dir.file("unpaced.json");
  const std::string args = "memtrace --config " + kConfigs +
                           "/tesla-8800gtx.json --pattern random --requests " +
                           std::to_string(kRequests) + " --stats-out ";
  const Outcome o = gpusoc(args + light + " --rate 4");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("offered    4.00 GB/s"));
  ASSERT_EQ(gpusoc(args + heavy + " --rate 172.8").status, 0);
  ASSERT_EQ(gpusoc(args + unpaced).status, 0);
  const nlohmann::json l = load_json(light), h = load_json(heavy), u = load_json(unpaced);
  EXPECT_EQ(l["offered_gbps"].get<double>(), 4.0);
  const double interval_ns = 32 / 4.0;
  EXPECT_GE(l["elapsed_ns"].get<double>(), (kRequests - 1) * interval_ns);
  EXPECT_LE(l["elapsed_ns"].get<double>(), (kRequests - 1) * interval_ns + 1000);
  EXPECT_LE(l["bandwidth_gbps"].get<double>(), 4.0 * kRequests / (kRequests - 1));
  EXPECT_GT(l["bandwidth_gbps"].get<double>(), 0.97 * 4.0);
  const double sustained = u["bandwidth_gbps"].get<double>();
  EXPECT_LT(sustained, 0.5 * h["peak_bandwidth_gbps"].get<double>());
  EXPECT_NEAR(h["bandwidth_gbps"].get<double>(), sustained, 0.02 * sustained);
  EXPECT_GT(h["latency_ns"]["avg"].get<double>(), 1.2 * l["latency_ns"]["avg"].get<double>());
}

TEST_F(MemtraceTest, SameRunTwiceGivesIdenticalReports) {
  const std::string a = dir.file("a.json"), b = dir.file("b.json");
  const std::string args = "memtrace --config " + kConfigs +
                           "/volta-v100.json --pattern mix:0.7 --requests 20000 --stats-out ";
  ASSERT_EQ(gpusoc(args + a).status, 0);
  ASSERT_EQ(gpusoc(args + b).status, 0);
  nlohmann::json first = load_json(a), second = load_json(b);
  // Only the command lines differ (each names its own file).
  EXPECT_EQ(first["provenance"]["configuration"], second["provenance"]["configuration"]);
  first.erase("provenance");
  second.erase("provenance");
  EXPECT_EQ(first, second);
  EXPECT_EQ(first["mode"], "crossbar");
}

TEST_F(MemtraceTest, BadTraceLinesAndOptionsFailNamingThePlace) {
  const std::string trace = dir.file("bad.trace");
  write(trace, "0 R 0x1000 32\n5 X 0x2000 32\n");
  Outcome o = gpusoc("memtrace --trace " + trace);
  EXPECT_NE(o.status, 0);
  EXPECT_THAT(o.err, HasSubstr(trace + ":2"));
  o = gpusoc("memtrace --trace " + trace + " --pattern stream");
  EXPECT_NE(o.status, 0);
  EXPECT_THAT(o.err, HasSubstr("--trace and --pattern"));
  o = gpusoc("memtrace --into nowhere --requests 10");
  EXPECT_NE(o.status, 0);
  EXPECT_THAT(o.err, HasSubstr("--into 'nowhere'"));
  o = gpusoc("memtrace --pattern zigzag");
  EXPECT_NE(o.status, 0);
  EXPECT_THAT(o.err, HasSubstr("--pattern"));
  o = gpusoc("memtrace --trace " + trace + " --rate 10");
  EXPECT_NE(o.status, 0);
  EXPECT_THAT(o.err, HasSubstr("--rate: a trace file gives each request's time itself"));
  for (const char* rate : {"0", "-5", "fast", "nan", "inf"}) {
    o = gpusoc(std::string("memtrace --requests 10 --rate ") + rate);
    EXPECT_NE(o.status, 0) << rate;
    EXPECT_THAT(o.err, HasSubstr(std::string("--rate '") + rate + "': expected a number above 0"));
  }
  // A DRAM field overridden into an inconsistent standard: named, with the standard.
  o = gpusoc("memtrace --requests 10 --set memory.dram.tRC=1");
  EXPECT_NE(o.status, 0);
  EXPECT_THAT(o.err, HasSubstr("tRC 1 is less than tRAS + tRP"));
  EXPECT_THAT(o.err, HasSubstr("'GDDR3' (memory.type"));
}

}  // namespace
}  // namespace gpusoc::platform
