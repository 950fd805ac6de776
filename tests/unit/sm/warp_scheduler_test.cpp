// The warp scheduling policies: exact orders over scripted issue sequences, worked out by hand
// from each policy's definition (lrr: slot order after the last issuer; gto: the last issuer,
// then oldest first; two_level: round-robin over an active set refilled by age).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/sm/cycle_sm_config.h"
#include "models/sm/warp_scheduler.h"

namespace gpusoc::sm {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Order = std::vector<uint32_t>;

// The two-level scheduler's active set; the other policies take no parameter.
PolicyChoice with_active_set(const std::string& policy, uint32_t active) {
  PolicyChoice choice(policy);
  if (policy == "two_level") choice.settings.set("sm.two_level_active_warps", active);
  return choice;
}

// One processing block's warps as the SM would keep them: the live slots in slot order.
class Block {
 public:
  explicit Block(const std::string& policy, uint32_t active = 8)
      : scheduler_(warp_schedulers().make(with_active_set(policy, active))) {}
  void add(uint32_t slot, uint64_t age) {
    live_.insert(std::lower_bound(live_.begin(), live_.end(), slot), slot);
    scheduler_->warp_added(slot, age);
  }
  void remove(uint32_t slot) {
    live_.erase(std::find(live_.begin(), live_.end(), slot));
    scheduler_->warp_removed(slot);
  }
  const Order& order() {
    scheduler_->order(live_, out_);
    return out_;
  }
  WarpScheduler& scheduler() { return *scheduler_; }
  const Order& live() const { return live_; }

 private:
  std::unique_ptr<WarpScheduler> scheduler_;
  Order live_;
  Order out_;
};

TEST(WarpSchedulerRegistry, MakesEveryNamedPolicy) {
  EXPECT_THAT(warp_schedulers().names(), ElementsAre("lrr", "gto", "two_level"));
  for (const std::string& name : warp_schedulers().names())
    EXPECT_EQ(warp_schedulers().make(name)->name(), name);
}

TEST(WarpSchedulerRegistry, UnknownNameIsAConfigErrorNamingTheKeyAndTheChoices) {
  try {
    warp_schedulers().make("fifo");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("sm.scheduler"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("'fifo'"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("lrr, gto, two_level"));
  }
}

TEST(WarpSchedulerRegistry, EmptyTwoLevelActiveSetIsAConfigError) {
  EXPECT_THROW(with_active_set("two_level", 0), ConfigError);
  Config config;
  EXPECT_THROW(config.apply_set("sm.two_level_active_warps=0"), ConfigError);
}

// The two_level policy declares its own parameter: the SM's configuration reads it without
// naming it.
TEST(WarpSchedulerRegistry, APolicyReadsItsOwnParameterFromTheConfig) {
  Config config;
  config.apply_set("sm.scheduler=two_level");
  config.apply_set("sm.two_level_active_warps=2");
  auto two_level = warp_schedulers().make(warp_schedulers().choose(config));
  for (uint32_t s = 0; s < 4; ++s) two_level->warp_added(s, s);
  Order out;
  two_level->order({0, 1, 2, 3}, out);
  EXPECT_THAT(out, ElementsAre(0, 1));  // an active set of two
  // A policy chosen from the config carries only its own parameters; others read as defaults.
  EXPECT_EQ(CycleSmConfig::from_config(config).scheduler.name, "two_level");
}

TEST(LrrScheduler, StartsAfterTheWarpThatIssuedLast) {
  Block b("lrr");
  for (uint32_t s = 0; s < 4; ++s) b.add(s, s);
  EXPECT_THAT(b.order(), ElementsAre(0, 1, 2, 3));
  b.scheduler().issued(2);
  EXPECT_THAT(b.order(), ElementsAre(3, 0, 1, 2));
  b.scheduler().issued(3);
  EXPECT_THAT(b.order(), ElementsAre(0, 1, 2, 3));
  b.scheduler().issued(1);
  EXPECT_THAT(b.order(), ElementsAre(2, 3, 0, 1));
  // A cycle without an issue keeps the order.
  EXPECT_THAT(b.order(), ElementsAre(2, 3, 0, 1));
  b.remove(2);
  EXPECT_THAT(b.order(), ElementsAre(3, 0, 1));
  b.add(5, 10);
  EXPECT_THAT(b.order(), ElementsAre(3, 5, 0, 1));
  b.scheduler().issued(5);
  EXPECT_THAT(b.order(), ElementsAre(0, 1, 3, 5));
}

TEST(LrrScheduler, WorksOnSparseSlotNumbers) {
  Block b("lrr");
  for (uint32_t s : {1, 5, 9, 13}) b.add(s, s);
  b.scheduler().issued(5);
  EXPECT_THAT(b.order(), ElementsAre(9, 13, 1, 5));
  b.scheduler().issued(13);
  EXPECT_THAT(b.order(), ElementsAre(1, 5, 9, 13));
}

TEST(GtoScheduler, LastIssuerFirstThenOldest) {
  Block b("gto");
  const uint64_t ages[] = {5, 2, 7, 3};  // oldest first: slots 1, 3, 0, 2
  for (uint32_t s = 0; s < 4; ++s) b.add(s, ages[s]);
  EXPECT_THAT(b.order(), ElementsAre(1, 3, 0, 2));
  b.scheduler().issued(2);
  EXPECT_THAT(b.order(), ElementsAre(2, 1, 3, 0));
  b.scheduler().issued(0);
  EXPECT_THAT(b.order(), ElementsAre(0, 1, 3, 2));
  // The greedy warp leaves: back to oldest first.
  b.remove(0);
  EXPECT_THAT(b.order(), ElementsAre(1, 3, 2));
  // A new warp in its slot is the youngest and does not inherit the greed.
  b.add(0, 9);
  EXPECT_THAT(b.order(), ElementsAre(1, 3, 2, 0));
  b.scheduler().issued(3);
  EXPECT_THAT(b.order(), ElementsAre(3, 1, 2, 0));
}

TEST(GtoScheduler, StaysWithTheGreedyWarpWhileItIssues) {
  Block b("gto");
  for (uint32_t s = 0; s < 8; ++s) b.add(s, 100 - s);  // slot 7 is the oldest
  EXPECT_THAT(b.order(), ElementsAre(7, 6, 5, 4, 3, 2, 1, 0));
  for (int cycle = 0; cycle < 50; ++cycle) {
    b.scheduler().issued(4);
    EXPECT_THAT(b.order(), ElementsAre(4, 7, 6, 5, 3, 2, 1, 0));
  }
}

TEST(TwoLevelScheduler, SwapsWaitingWarpsForTheOldestReadyPendingOne) {
  Block b("two_level", 2);
  for (uint32_t s = 0; s < 5; ++s) b.add(s, s);  // active {0, 1}, pending {2, 3, 4}
  EXPECT_THAT(b.order(), ElementsAre(0, 1));
  b.scheduler().issued(0);
  EXPECT_THAT(b.order(), ElementsAre(1, 0));
  b.scheduler().long_latency_wait(0, true);  // 2 takes 0's place
  EXPECT_THAT(b.order(), ElementsAre(1, 2));
  b.scheduler().issued(1);
  EXPECT_THAT(b.order(), ElementsAre(2, 1));
  b.scheduler().long_latency_wait(1, true);  // 3 takes 1's place
  EXPECT_THAT(b.order(), ElementsAre(2, 3));
  b.scheduler().long_latency_wait(0, false);  // ready again, but the active set is full
  EXPECT_THAT(b.order(), ElementsAre(2, 3));
  b.scheduler().long_latency_wait(2, true);  // 0 (age 0) beats 4 (age 4)
  EXPECT_THAT(b.order(), ElementsAre(3, 0));
  b.remove(3);  // 4 is the only ready pending warp
  EXPECT_THAT(b.order(), ElementsAre(4, 0));
  b.add(3, 5);  // no room: pending
  EXPECT_THAT(b.order(), ElementsAre(4, 0));
  b.scheduler().long_latency_wait(0, true);  // 1 and 2 still wait: 3 comes in
  EXPECT_THAT(b.order(), ElementsAre(3, 4));
}

TEST(TwoLevelScheduler, NewWarpsFillTheActiveSetWhileThereIsRoom) {
  Block b("two_level", 3);
  b.add(4, 0);
  EXPECT_THAT(b.order(), ElementsAre(4));
  b.add(2, 1);
  b.add(7, 2);
  b.add(0, 3);  // the fourth goes pending
  EXPECT_THAT(b.order(), ElementsAre(2, 4, 7));
  b.remove(4);  // room again: the pending warp comes in
  EXPECT_THAT(b.order(), ElementsAre(0, 2, 7));
}

TEST(TwoLevelScheduler, RefillsAnEmptyActiveSetSoTheSmNeverStarves) {
  Block b("two_level", 2);
  for (uint32_t s = 0; s < 3; ++s) b.add(s, s);
  for (uint32_t s = 0; s < 3; ++s) b.scheduler().long_latency_wait(s, true);
  // Everyone waits; the oldest two are tried rather than nobody.
  EXPECT_THAT(b.order(), ElementsAre(0, 1));
  // When 2 is ready it displaces a waiting warp from the active set.
  b.scheduler().long_latency_wait(2, false);
  EXPECT_THAT(b.order(), ElementsAre(1, 2));
  b.remove(1);
  b.remove(2);
  EXPECT_THAT(b.order(), ElementsAre(0));
  b.remove(0);
  EXPECT_THAT(b.order(), IsEmpty());
}

TEST(WarpSchedulers, AreDeterministicAndOrderOnlyLiveWarps) {
  for (const std::string& name : warp_schedulers().names()) {
    SCOPED_TRACE(name);
    Block a(name, 3), b(name, 3);
    uint32_t rng = 12345;
    auto next = [&rng] { return (rng = rng * 1103515245u + 12345u) >> 16; };
    uint64_t age = 0;
    for (int step = 0; step < 2000; ++step) {
      const uint32_t slot = next() % 12;
      const bool present = std::count(a.live().begin(), a.live().end(), slot) != 0;
      const uint32_t action = next() % 8;
      for (Block* x : {&a, &b}) {
        if (!present && action < 3)
          x->add(slot, age);
        else if (present && action == 3)
          x->remove(slot);
        else if (present && action < 6)
          x->scheduler().long_latency_wait(slot, action == 4);
      }
      age += !present && action < 3;
      const Order oa = a.order();
      ASSERT_EQ(oa, b.order());
      Order sorted = oa;
      std::sort(sorted.begin(), sorted.end());
      ASSERT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
      ASSERT_TRUE(std::includes(a.live().begin(), a.live().end(), sorted.begin(), sorted.end()));
      if (name != "two_level") {
        ASSERT_EQ(sorted, a.live());
      }
      // two_level: at most its active set, and never nothing while warps live.
      ASSERT_LE(sorted.size(), name == "two_level" ? 3 : a.live().size());
      ASSERT_EQ(sorted.empty(), a.live().empty());
      if (!oa.empty() && action % 2 == 0) {
        a.scheduler().issued(oa[0]);
        b.scheduler().issued(oa[0]);
      }
    }
  }
}

TEST(WarpSchedulers, ReuseTheCallersVector) {
  for (const std::string& name : warp_schedulers().names()) {
    SCOPED_TRACE(name);
    auto scheduler = warp_schedulers().make(name);
    const Order live = {0, 1, 2, 3, 4, 5};
    for (uint32_t s : live) scheduler->warp_added(s, 10 - s);
    Order out;
    scheduler->order(live, out);
    const uint32_t* storage = out.data();
    for (int cycle = 0; cycle < 100; ++cycle) {
      scheduler->issued(live[cycle % live.size()]);
      scheduler->order(live, out);
      ASSERT_EQ(out.data(), storage);
    }
  }
}

}  // namespace
}  // namespace gpusoc::sm
