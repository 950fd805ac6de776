// Statistics: counters, scalars, formulas, histograms and the group tree.
#include <cmath>
#include <memory>
#include <stdexcept>

#include <gtest/gtest.h>

#include "models/common/histogram.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"

namespace gpusoc {
namespace {

TEST(StatsTest, CounterCountsEventsAndAmounts) {
  StatGroup root;
  Counter accesses{root, "accesses", "accesses", "all accesses"};
  ++accesses;
  ++accesses;
  accesses += 40;
  EXPECT_EQ(accesses.value(), 42u);
  EXPECT_EQ(accesses.to_json(), 42);
}

TEST(StatsTest, ScalarHoldsWhatTheModelSets) {
  StatGroup root;
  Scalar seconds{root, "sim_seconds", "s", "simulated time"};
  EXPECT_EQ(seconds.to_json(), 0.0);
  seconds.set(1.5e-3);
  EXPECT_EQ(seconds.value(), 1.5e-3);
  EXPECT_EQ(seconds.to_json().dump(), "0.0015");
}

TEST(StatsTest, FormulaIsComputedWhenRead) {
  StatGroup root;
  Counter hits{root, "hits", "accesses", ""};
  Counter misses{root, "misses", "accesses", ""};
  Formula miss_rate{root, "miss_rate", "ratio", "", [&] {
                      return static_cast<double>(misses.value()) /
                             static_cast<double>(hits.value() + misses.value());
                    }};
  EXPECT_TRUE(miss_rate.to_json().is_null()) << "0/0 is undefined, not 0";
  hits += 3;
  ++misses;
  EXPECT_EQ(miss_rate.value(), 0.25);
  EXPECT_EQ(miss_rate.to_json(), 0.25);
}

TEST(StatsTest, TotalSumsCountsWhenReadAndDumpsAnInteger) {
  StatGroup root;
  Counter a{root, "a", "bursts", ""};
  Counter b{root, "b", "bursts", ""};
  Total sum{root, "sum", "bursts", "", [&] { return a.value() + b.value(); }};
  a += 2;
  b += 3;
  EXPECT_EQ(sum.value(), 5u);
  EXPECT_EQ(sum.to_json().dump(), "5") << "a count, not 5.0";
}

TEST(StatsTest, HistogramBucketsCountsAndExtremes) {
  StatGroup root;
  Histogram latency{root, "latency", "cycles", "", 0, 10, 3};
  EXPECT_TRUE(std::isnan(latency.mean()));
  for (const std::int64_t sample : {-1, 0, 5, 9, 10, 25, 30}) latency.sample(sample);
  latency.sample(40, 2);
  latency.sample(7, 0);
  EXPECT_EQ(latency.count(), 9u);
  EXPECT_EQ(latency.min(), -1);
  EXPECT_EQ(latency.max(), 40);
  EXPECT_DOUBLE_EQ(latency.mean(), 158 / 9.0);  // -1+0+5+9+10+25+30+2*40
  EXPECT_EQ(latency.underflow(), 1u);
  EXPECT_EQ(latency.buckets(), (std::vector<std::uint64_t>{3, 1, 1}));
  EXPECT_EQ(latency.overflow(), 3u);
  EXPECT_EQ(latency.summary(),
            "count=9 mean=" + nlohmann::json(158 / 9.0).dump() + " min=-1 max=40");
}

TEST(StatsTest, HistogramNeedsBuckets) {
  StatGroup root;
  EXPECT_THROW((Histogram{root, "h", "", "", 0, 0, 4}), std::invalid_argument);
  EXPECT_THROW((Histogram{root, "g", "", "", 0, 4, 0}), std::invalid_argument);
}

TEST(StatsTest, PathsFollowTheGroupTree) {
  StatGroup root;
  StatGroup gpu{root, "gpu"};
  StatGroup sm{gpu, "sm3"};
  StatGroup l1d{sm, "l1d"};
  Counter misses{l1d, "misses", "accesses", ""};
  Counter top{root, "runs", "runs", ""};
  EXPECT_EQ(root.path(), "");
  EXPECT_EQ(l1d.path(), "gpu.sm3.l1d");
  EXPECT_EQ(misses.path(), "gpu.sm3.l1d.misses");
  EXPECT_EQ(top.path(), "runs");
}

TEST(StatsTest, NamesAreUniqueWithinAGroupAndWellFormed) {
  StatGroup root;
  StatGroup gpu{root, "gpu"};
  Counter cycles{gpu, "cycles", "cycles", ""};
  EXPECT_THROW((Counter{gpu, "cycles", "", ""}), std::invalid_argument);
  EXPECT_THROW((StatGroup{gpu, "cycles"}), std::invalid_argument);
  EXPECT_THROW((StatGroup{root, "gpu"}), std::invalid_argument);
  EXPECT_THROW((Counter{gpu, "a.b", "", ""}), std::invalid_argument);
  EXPECT_THROW((Counter{gpu, "", "", ""}), std::invalid_argument);
  EXPECT_EQ(gpu.stats().size(), 1u);
}

TEST(StatsTest, DestroyedMembersLeaveTheirGroup) {
  StatGroup root;
  {
    StatGroup sm{root, "sm0"};
    Counter issued{sm, "issued", "instructions", ""};
    EXPECT_EQ(root.children().size(), 1u);
    EXPECT_EQ(sm.stats().size(), 1u);
  }
  EXPECT_TRUE(root.children().empty());
  StatGroup again{root, "sm0"};  // the name is free again
}

TEST(StatsTest, LossesAreRecordedUpTheTree) {
  StatGroup root;
  StatGroup gpu{root, "gpu"};
  Counter cycles{gpu, "cycles", "cycles", ""};
  EXPECT_FALSE(root.lost_members());
  {
    StatGroup sm0{gpu, "sm0"};
    Counter issued{sm0, "issued", "instructions", ""};
  }
  EXPECT_TRUE(gpu.lost_members());
  EXPECT_TRUE(root.lost_members());
  StatGroup other{root, "other"};
  EXPECT_FALSE(other.lost_members());
}

TEST(StatsTest, AStatOutlivingItsGroupIsDetached) {
  auto group = std::make_unique<StatGroup>();
  Counter survivor{*group, "survivor", "", ""};
  group.reset();
  ++survivor;
  EXPECT_EQ(survivor.path(), "survivor");
}

}  // namespace
}  // namespace gpusoc
