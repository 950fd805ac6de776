// Golden statistics: `gpusoc memtrace` reports for a few representative configurations, committed
// in tests/golden/memtrace/ and compared field by field. The memory system is deterministic, so
// every count must match exactly; derived real numbers (bandwidth, rates, latencies in ns) may
// differ by a relative 1e-9, for compilers that round differently. A change that moves a figure
// on purpose regenerates the files (scripts/update-golden) and says why in its commit.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <ostream>

#include "tests/platform/gpusoc_process.h"

namespace gpusoc::platform {
namespace {

struct GoldenRun {
  const char* name;  // tests/golden/memtrace/<name>.json
  const char* args;  // after `memtrace`; --config paths are relative to configs/
};
void PrintTo(const GoldenRun& run, std::ostream* os) {  // stable test names for ctest
  *os << run.name;
}

// Each exercises a different part: a large crossbar and L2 under random misses, the partitions
// alone with per-bank refresh and closed pages under mixed traffic, the 8800 GTX's pass-through
// L2 with whole lines, and GDDR6 with FCFS, iSLIP and a small cache under strided traffic.
const GoldenRun kRuns[] = {
    {"v100_random_crossbar", "--config volta-v100.json --pattern random --requests 20000"},
    {"v100_mix_partitions",
     "--config volta-v100.json --into partitions --pattern mix:0.6 --requests 20000 --set "
     "memory.controller.refresh=per_bank --set memory.controller.page_policy=closed"},
    {"gtx_stream_crossbar",
     "--config tesla-8800gtx.json --pattern stream --size 128 --requests 20000"},
    {"small_gddr6_stride_crossbar",
     "--config small.json --pattern stride:4096 --size 64 --requests 20000 --set "
     "memory.type=GDDR6 --set "
     "memory.bus_width_bits=32 --set memory.controller.scheduler=fcfs --set xbar.arbiter=islip "
     "--set l2.size_bytes=65536 --set l2.ways=4"},
};

// Differences between `got` and `want` under `path`, one line each.
void compare(const nlohmann::json& got, const nlohmann::json& want, const std::string& path,
             std::string& report) {
  if (got.is_number() && want.is_number()) {
    if (got.is_number_integer() && want.is_number_integer()) {
      if (got != want) report += path + ": " + got.dump() + ", golden " + want.dump() + "\n";
      return;
    }
    const double g = got.get<double>(), w = want.get<double>();
    if (std::abs(g - w) > 1e-9 * std::max(std::abs(g), std::abs(w)))
      report += path + ": " + got.dump() + ", golden " + want.dump() + "\n";
    return;
  }
  if (got.type() != want.type()) {
    report += path + ": " + got.dump() + ", golden " + want.dump() + "\n";
    return;
  }
  if (got.is_object()) {
    for (const auto& [key, value] : want.items()) {
      if (!got.contains(key))
        report += path + "." + key + ": missing\n";
      else
        compare(got[key], value, path + "." + key, report);
    }
    for (const auto& [key, value] : got.items()) {
      if (!want.contains(key)) report += path + "." + key + ": not in the golden file\n";
    }
  } else if (got.is_array()) {
    if (got.size() != want.size()) {
      report += path + ": " + std::to_string(got.size()) + " entries, golden " +
                std::to_string(want.size()) + "\n";
      return;
    }
    for (size_t i = 0; i < got.size(); ++i)
      compare(got[i], want[i], path + "[" + std::to_string(i) + "]", report);
  } else if (got != want) {
    report += path + ": " + got.dump() + ", golden " + want.dump() + "\n";
  }
}

class GoldenMemtrace : public GpusocProcessTest, public ::testing::WithParamInterface<GoldenRun> {};

TEST_P(GoldenMemtrace, ReportMatchesTheCommittedOne) {
  const GoldenRun& run = GetParam();
  std::string args = std::string("memtrace ") + run.args;
  const std::string config = "--config ";
  args.replace(args.find(config), config.size(), config + GPUSOC_CONFIG_DIR + "/");
  const std::string json = dir.file("report.json");
  const Outcome o = gpusoc(args + " --stats-out " + json);
  ASSERT_EQ(o.status, 0) << o.err;
  std::ifstream in(json);
  nlohmann::json got = nlohmann::json::parse(in);
  // What produced the report (the commit, this test's file names) is not part of the result.
  ASSERT_TRUE(got.contains("provenance"));
  got.erase("provenance");

  const std::string golden =
      std::string(GPUSOC_SOURCE_DIR) + "/tests/golden/memtrace/" + run.name + ".json";
  if (std::getenv("GPUSOC_UPDATE_GOLDEN")) {
    std::ofstream(golden) << got.dump(1) << "\n";
    GTEST_SKIP() << "wrote " << golden;
  }
  std::ifstream want_file(golden);
  ASSERT_TRUE(want_file) << golden << " is missing (scripts/update-golden writes it)";
  std::string report;
  compare(got, nlohmann::json::parse(want_file), run.name, report);
  EXPECT_TRUE(report.empty()) << "the report differs from " << golden << ":\n" << report;
}

INSTANTIATE_TEST_SUITE_P(Runs, GoldenMemtrace, ::testing::ValuesIn(kRuns),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace gpusoc::platform
