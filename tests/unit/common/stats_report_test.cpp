// The exact JSON, CSV and summary produced for a small statistics tree.
#include <string>

#include <gtest/gtest.h>

#include "models/common/counter_vector.h"
#include "models/common/error.h"
#include "models/common/histogram.h"
#include "models/common/stat.h"
#include "models/common/stats_report.h"
#include "tests/unit/common/temp_dir.h"

namespace gpusoc {
namespace {

// A module the way models declare stats: a group with typed members.
struct L1Stats : StatGroup {
  explicit L1Stats(StatGroup& parent) : StatGroup(parent, "l1d") {}
  Counter hits{*this, "hits", "accesses", "accesses that hit"};
  Counter misses{*this, "misses", "accesses", "accesses that \"missed\""};
  Formula miss_rate{*this, "miss_rate", "ratio", "misses per access", [this] {
                      return static_cast<double>(misses.value()) /
                             static_cast<double>(hits.value() + misses.value());
                    }};
  Histogram latency{*this, "latency", "cycles", "miss latency", 0, 10, 2};
};

class StatsReportTest : public ::testing::Test {
 protected:
  StatsReportTest() {
    cycles += 1000;
    l1d.hits += 3;
    ++l1d.misses;
    for (const int sample : {4, 12, 12, 25}) l1d.latency.sample(sample);
  }

  StatGroup root;
  StatGroup gpu{root, "gpu"};
  Counter cycles{gpu, "cycles", "cycles", "core clock cycles simulated"};
  StatGroup sm0{gpu, "sm0"};
  L1Stats l1d{sm0};
  // Declared after the sm0 group, yet listed before it: a group's stats come first.
  Formula ipc{gpu, "ipc", "instructions/cycle", "instructions issued, per cycle",
              [this] { return 500.0 / static_cast<double>(cycles.value()); }};
  testing::TempDir dir;
};

constexpr const char* kJson = R"({
  "gpu": {
    "cycles": {
      "value": 1000,
      "unit": "cycles",
      "description": "core clock cycles simulated"
    },
    "ipc": {
      "value": 0.5,
      "unit": "instructions/cycle",
      "description": "instructions issued, per cycle"
    },
    "sm0": {
      "l1d": {
        "hits": {
          "value": 3,
          "unit": "accesses",
          "description": "accesses that hit"
        },
        "misses": {
          "value": 1,
          "unit": "accesses",
          "description": "accesses that \"missed\""
        },
        "miss_rate": {
          "value": 0.25,
          "unit": "ratio",
          "description": "misses per access"
        },
        "latency": {
          "value": {
            "count": 4,
            "min": 4,
            "max": 25,
            "mean": 13.25,
            "underflow": 0,
            "overflow": 1,
            "low": 0,
            "bucket_width": 10,
            "buckets": [
              1,
              2
            ]
          },
          "unit": "cycles",
          "description": "miss latency"
        }
      }
    }
  }
})";

constexpr const char* kCsv =
    "name,value,unit,description\n"
    "gpu.cycles,1000,cycles,core clock cycles simulated\n"
    "gpu.ipc,0.5,instructions/cycle,\"instructions issued, per cycle\"\n"
    "gpu.sm0.l1d.hits,3,accesses,accesses that hit\n"
    "gpu.sm0.l1d.misses,1,accesses,\"accesses that \"\"missed\"\"\"\n"
    "gpu.sm0.l1d.miss_rate,0.25,ratio,misses per access\n"
    "gpu.sm0.l1d.latency.count,4,cycles,miss latency\n"
    "gpu.sm0.l1d.latency.min,4,cycles,miss latency\n"
    "gpu.sm0.l1d.latency.max,25,cycles,miss latency\n"
    "gpu.sm0.l1d.latency.mean,13.25,cycles,miss latency\n"
    "gpu.sm0.l1d.latency.underflow,0,cycles,miss latency\n"
    "gpu.sm0.l1d.latency.overflow,1,cycles,miss latency\n"
    "gpu.sm0.l1d.latency.bucket[0:10),1,cycles,miss latency\n"
    "gpu.sm0.l1d.latency.bucket[10:20),2,cycles,miss latency\n";

// One table row per source line.
// clang-format off
constexpr const char* kSummary =
    "STATISTIC              VALUE                            UNIT                DESCRIPTION\n"
    "gpu.cycles             1000                             cycles              core clock cycles simulated\n"
    "gpu.ipc                0.5                              instructions/cycle  instructions issued, per cycle\n"
    "gpu.sm0.l1d.hits       3                                accesses            accesses that hit\n"
    "gpu.sm0.l1d.misses     1                                accesses            accesses that \"missed\"\n"
    "gpu.sm0.l1d.miss_rate  0.25                             ratio               misses per access\n"
    "gpu.sm0.l1d.latency    count=4 mean=13.25 min=4 max=25  cycles              miss latency\n";
// clang-format on

TEST_F(StatsReportTest, JsonIsNestedByGroupInDeclarationOrder) {
  EXPECT_EQ(stats_to_json(root).dump(2), kJson);
}

TEST_F(StatsReportTest, CsvHasOneRowPerNumber) {
  EXPECT_EQ(stats_to_csv(root), kCsv);
}

TEST_F(StatsReportTest, SummaryIsAnAlignedTable) {
  EXPECT_EQ(stats_summary(root), kSummary);
}

TEST_F(StatsReportTest, UndefinedValuesAreNullInJsonAndEmptyInCsv) {
  StatGroup empty_root;
  StatGroup cache{empty_root, "cache"};
  L1Stats idle{cache};
  const nlohmann::ordered_json json = stats_to_json(empty_root);
  EXPECT_TRUE(json["cache"]["l1d"]["miss_rate"]["value"].is_null());
  EXPECT_TRUE(json["cache"]["l1d"]["latency"]["value"]["mean"].is_null());
  const std::string csv = stats_to_csv(empty_root);
  EXPECT_NE(csv.find("\ncache.l1d.miss_rate,,ratio,misses per access\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\ncache.l1d.latency.min,,cycles,miss latency\n"), std::string::npos) << csv;
}

TEST_F(StatsReportTest, AnEmptyRegistryDumpsAnEmptyObject) {
  EXPECT_EQ(stats_to_json(StatGroup()).dump(), "{}");
  EXPECT_EQ(stats_to_csv(StatGroup()), "name,value,unit,description\n");
}

TEST_F(StatsReportTest, FileFormatFollowsTheExtension) {
  write_stats_file(root, dir.file("stats.json"));
  write_stats_file(root, dir.file("stats.csv"));
  write_stats_file(root, dir.file("stats.txt"));
  EXPECT_EQ(testing::read_file(dir.file("stats.json")), std::string(kJson) + "\n");
  EXPECT_EQ(testing::read_file(dir.file("stats.csv")), kCsv);
  EXPECT_EQ(testing::read_file(dir.file("stats.txt")), kSummary);
  EXPECT_FALSE(stats_format_of("stats.xml").has_value());
  EXPECT_THROW(write_stats_file(root, dir.file("stats.xml")), Error);
  EXPECT_THROW(write_stats_file(root, dir.file("missing/dir/stats.json")), Error);
}

TEST_F(StatsReportTest, TextIsAStringInJsonAFieldInCsvAndItselfInTheSummary) {
  StatGroup top;
  StatGroup launch(top, "grid1");
  Text kernel(launch, "kernel", "", "the kernel");
  kernel.set("scale<float, 2>");
  EXPECT_EQ(
      stats_to_json(top).dump(),
      R"({"grid1":{"kernel":{"value":"scale<float, 2>","unit":"","description":"the kernel"}}})");
  EXPECT_EQ(stats_to_csv(top),
            "name,value,unit,description\ngrid1.kernel,\"scale<float, 2>\",,the kernel\n");
  EXPECT_NE(stats_summary(top).find("grid1.kernel  scale<float, 2>"), std::string::npos)
      << stats_summary(top);
}

TEST_F(StatsReportTest, ProvenanceGoesBesideTheStatisticsInEveryFormat) {
  const nlohmann::ordered_json provenance{{"gpusoc", "0.1.0"},
                                          {"command_line", "gpusoc run a,b"},
                                          {"configuration", {{"sm", {{"model", "cycle"}}}}}};
  write_stats_file(root, dir.file("p.json"), provenance);
  write_stats_file(root, dir.file("p.csv"), provenance);
  write_stats_file(root, dir.file("p.txt"), provenance);
  const auto json = nlohmann::ordered_json::parse(testing::read_file(dir.file("p.json")));
  EXPECT_EQ(json.begin().key(), "provenance");
  EXPECT_EQ(json["provenance"], provenance);
  EXPECT_EQ(json["gpu"], stats_to_json(root)["gpu"]);
  EXPECT_EQ(testing::read_file(dir.file("p.csv")),
            std::string(kCsv) +
                "provenance.gpusoc,0.1.0,,\nprovenance.command_line,\"gpusoc run a,b\",,\n"
                "provenance.configuration.sm.model,cycle,,\n");
  const std::string text = testing::read_file(dir.file("p.txt"));
  EXPECT_EQ(text.rfind(kSummary, 0), 0u);
  EXPECT_NE(text.find("configuration.sm.model  cycle"), std::string::npos) << text;
}

TEST_F(StatsReportTest, VectorsDumpTheirTotalAndEachElementByLabel) {
  StatGroup top;
  StatGroup rop(top, "rop");
  CounterVector ops(rop, "operations", "sectors", "per op", {"add", "cas"});
  ops[0] += 3;
  ++ops[1];
  EXPECT_EQ(stats_to_json(top).dump(),
            R"({"rop":{"operations":{"value":{"total":4,"add":3,"cas":1},"unit":"sectors",)"
            R"("description":"per op"}}})");
  EXPECT_EQ(stats_to_csv(top),
            "name,value,unit,description\n"
            "rop.operations.total,4,sectors,per op\n"
            "rop.operations.add,3,sectors,per op\n"
            "rop.operations.cas,1,sectors,per op\n");
  EXPECT_NE(stats_summary(top).find("total=4 (2 elements)"), std::string::npos);
  EXPECT_EQ(stats_values_json(top).dump(), R"({"rop":{"operations":{"total":4,"add":3,"cas":1}}})");
}

TEST_F(StatsReportTest, EveryFormatRefreshesAGroupBeforeReadingIt) {
  // A lazily counting block (the crossbar) settles its counts in the group's refresh hook.
  StatGroup top;
  StatGroup lazy(top, "lazy");
  Counter waited(lazy, "waited", "cycles", "");
  uint64_t pending = 5;
  lazy.set_refresh([&] {
    waited += pending;
    pending = 0;
  });
  EXPECT_EQ(stats_to_json(top)["lazy"]["waited"]["value"], 5);
  pending = 2;
  EXPECT_NE(stats_to_csv(top).find("lazy.waited,7,"), std::string::npos);
  pending = 1;
  EXPECT_NE(stats_summary(top).find("8"), std::string::npos);
  EXPECT_EQ(waited.value(), 8u);
}

TEST(CounterVectorTest, ElementsCountApartAndLabelsDefaultToIndices) {
  StatGroup root;
  CounterVector banks(root, "activates", "commands", "", 3);
  ++banks[2];
  banks[0] += 4;
  EXPECT_EQ(banks.size(), 3u);
  EXPECT_EQ(banks.total(), 5u);
  EXPECT_EQ(banks.labels(), (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(banks.to_json().dump(), R"({"total":5,"0":4,"1":0,"2":1})");
  EXPECT_THROW(CounterVector(root, "bad", "", "", {"total"}), std::invalid_argument);
  EXPECT_THROW(CounterVector(root, "bad2", "", "", {"a.b"}), std::invalid_argument);
}

}  // namespace
}  // namespace gpusoc
