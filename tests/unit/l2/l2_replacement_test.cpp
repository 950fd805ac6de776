// The replacement policies on their own, against hand traces of one set of four ways.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/l2/l2_slice.h"

namespace gpusoc::l2 {
namespace {

constexpr uint64_t kAll = 0b1111;  // candidates: a bit per way

TEST(L2Replacement, LruEvictsTheLeastRecentlyUsedCandidate) {
  auto lru = replacement_policies().make("lru", 2, 4);
  EXPECT_EQ(lru->victim(0, kAll), 0u);  // never used: the lowest way
  for (uint32_t w = 0; w < 4; ++w) lru->inserted(0, w);
  lru->touched(0, 1);
  lru->touched(0, 0);
  EXPECT_EQ(lru->victim(0, kAll), 2u);  // order now 2, 3, 1, 0
  EXPECT_EQ(lru->victim(0, 0b1011), 3u);
  EXPECT_EQ(lru->victim(0, 0b0011), 1u);
  EXPECT_EQ(lru->victim(1, kAll), 0u);  // the other set is untouched
  lru->touched(1, 0);
  EXPECT_EQ(lru->victim(1, kAll), 1u);
}

TEST(L2Replacement, SixtyFourWaysAreOneWordOfCandidates) {
  auto lru = replacement_policies().make("lru", 1, 64);
  const uint64_t all = ~uint64_t(0);
  EXPECT_EQ(lru->victim(0, uint64_t(1) << 63), 63u);
  lru->inserted(0, 63);  // the oldest once every other way is used after it
  for (uint32_t w = 0; w < 63; ++w) lru->inserted(0, w);
  EXPECT_EQ(lru->victim(0, all), 63u);
  lru->touched(0, 63);
  EXPECT_EQ(lru->victim(0, all), 0u);
  EXPECT_EQ(lru->victim(0, all & ~uint64_t(1)), 1u);
}

TEST(L2Replacement, FifoEvictsTheOldestInsertionWhateverTheHits) {
  auto fifo = replacement_policies().make("fifo", 1, 4);
  for (uint32_t w : {2u, 0u, 3u, 1u}) fifo->inserted(0, w);
  fifo->touched(0, 2);
  fifo->touched(0, 0);
  EXPECT_EQ(fifo->victim(0, kAll), 2u);
  fifo->inserted(0, 2);
  EXPECT_EQ(fifo->victim(0, kAll), 0u);
  EXPECT_EQ(fifo->victim(0, 0b1110), 3u);
}

TEST(L2Replacement, RandomPicksOnlyCandidatesReproduciblyAndReachesEach) {
  auto a = replacement_policies().make("random", 1, 4);
  auto b = replacement_policies().make("random", 1, 4);
  constexpr uint64_t some = 0b1101;
  std::vector<int> picked(4, 0);
  for (int i = 0; i < 200; ++i) {
    const uint32_t v = a->victim(0, some);
    EXPECT_EQ(v, b->victim(0, some));
    ASSERT_LT(v, 4u);
    ++picked[v];
  }
  EXPECT_EQ(picked[1], 0);
  EXPECT_GT(picked[0], 0);
  EXPECT_GT(picked[2], 0);
  EXPECT_GT(picked[3], 0);
}

TEST(L2Replacement, AnUnknownNameIsAConfigErrorListingTheKnownOnes) {
  EXPECT_EQ(replacement_policies().names(), (std::vector<std::string>{"lru", "fifo", "random"}));
  for (const std::string& name : replacement_policies().names()) {
    EXPECT_EQ(replacement_policies().make(name, 1, 2)->name(), name);
  }
  try {
    replacement_policies().make("mru", 1, 2);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mru"), std::string::npos) << what;
    EXPECT_NE(what.find("lru, fifo, random"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gpusoc::l2
