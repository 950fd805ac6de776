// The sectored cache, step by step against hand-traced outcomes: hits and their latency, LRU
// replacement within a set, sector misses, MSHR merging and its limits, write no-allocate,
// invalidation, the disabled cache and configuration checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/sm/sectored_cache.h"

namespace gpusoc::sm {
namespace {

using Outcome = SectoredCache::Outcome;
using Words = std::vector<uint64_t>;

// 1 KB, 2 ways of 128-byte lines: 4 sets, so lines 512 bytes apart share a set.
SectoredCacheConfig small() {
  SectoredCacheConfig c;
  c.size_bytes = 1024;
  c.ways = 2;
  c.hit_latency = 3;
  c.mshrs = 4;
  c.max_merges = 3;
  return c;
}

// Misses `line` for `sectors` and fills it at `cycle`.
void load(SectoredCache& cache, uint64_t line, uint32_t sectors, uint64_t cycle) {
  const auto r = cache.read(line, sectors, cycle, 99);
  ASSERT_EQ(r.outcome, Outcome::Miss);
  Words woken;
  cache.fill(r.mshr, cycle, woken);
}

bool hits(SectoredCache& cache, uint64_t line, uint32_t sectors = 0x1) {
  return cache.read(line, sectors, 1000, 0).outcome == Outcome::Hit;
}

TEST(SectoredCache, AFilledLineHitsAfterTheHitLatency) {
  SectoredCache cache(small());
  const auto miss = cache.read(0x1000, 0x3, 10, 7);
  EXPECT_EQ(miss.outcome, Outcome::Miss);
  EXPECT_EQ(miss.missing_mask, 0x3u);
  EXPECT_EQ(miss.ready_cycle, SectoredCache::kPending);
  EXPECT_EQ(cache.free_mshrs(), 3u);
  Words woken;
  cache.fill(miss.mshr, 50, woken);
  EXPECT_EQ(woken, Words{7});
  EXPECT_EQ(cache.free_mshrs(), 4u);

  const auto hit = cache.read(0x1000, 0x2, 60, 8);
  EXPECT_EQ(hit.outcome, Outcome::Hit);
  EXPECT_EQ(hit.ready_cycle, 63u);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.misses(), 1u);
}

TEST(SectoredCache, AHitBeforeItsFillLandsWaitsForTheFill) {
  SectoredCache cache(small());
  const auto miss = cache.read(0x1000, 0x1, 10, 7);
  Words woken;
  cache.fill(miss.mshr, 80, woken);  // the response is known early, lands at cycle 80
  EXPECT_EQ(cache.read(0x1000, 0x1, 20, 8).ready_cycle, 83u);
  EXPECT_EQ(cache.read(0x1000, 0x1, 90, 9).ready_cycle, 93u);
}

TEST(SectoredCache, TheLeastRecentlyUsedWayOfTheSetIsEvicted) {
  SectoredCache cache(small());
  load(cache, 0x0000, 0xf, 1);       // set 0, way 0
  load(cache, 0x0200, 0xf, 2);       // set 0, way 1
  load(cache, 0x0080, 0xf, 3);       // set 1: no effect on set 0
  EXPECT_TRUE(hits(cache, 0x0000));  // 0x0200 is now the least recently used
  load(cache, 0x0400, 0xf, 4);
  EXPECT_FALSE(hits(cache, 0x0200));
  EXPECT_TRUE(hits(cache, 0x0400));
  EXPECT_TRUE(hits(cache, 0x0000));
  EXPECT_TRUE(hits(cache, 0x0080));
  // 0x0000 was used last in set 0: 0x0400 goes next.
  load(cache, 0x0600, 0xf, 5);
  EXPECT_TRUE(hits(cache, 0x0000));
  EXPECT_FALSE(hits(cache, 0x0400));
}

TEST(SectoredCache, AMissingSectorOfAPresentLineIsFetchedAlone) {
  SectoredCache cache(small());
  load(cache, 0x1000, 0x1, 1);
  const auto r = cache.read(0x1000, 0x3, 2, 5);
  EXPECT_EQ(r.outcome, Outcome::Miss);
  EXPECT_EQ(r.missing_mask, 0x2u);
  Words woken;
  cache.fill(r.mshr, 9, woken);
  EXPECT_TRUE(hits(cache, 0x1000, 0x3));
  EXPECT_FALSE(hits(cache, 0x1000, 0x4));
}

TEST(SectoredCache, RequestsForSectorsInFlightMergeUpToTheLimit) {
  SectoredCache cache(small());  // max_merges 3
  const auto first = cache.read(0x1000, 0x3, 1, 10);
  const auto second = cache.read(0x1000, 0x1, 2, 11);
  const auto third = cache.read(0x1000, 0x2, 3, 12);
  EXPECT_EQ(second.outcome, Outcome::Merged);
  EXPECT_EQ(third.outcome, Outcome::Merged);
  EXPECT_EQ(second.mshr, first.mshr);
  EXPECT_EQ(second.ready_cycle, SectoredCache::kPending);
  EXPECT_EQ(cache.read(0x1000, 0x1, 4, 13).outcome, Outcome::Stall);
  EXPECT_EQ(cache.free_mshrs(), 3u);
  Words woken;
  cache.fill(first.mshr, 20, woken);
  EXPECT_EQ(woken, (Words{10, 11, 12}));
  EXPECT_EQ(cache.merges(), 2u);
  EXPECT_EQ(cache.stalls(), 1u);
  EXPECT_EQ(cache.read(0x1000, 0x1, 21, 13).outcome, Outcome::Hit);
}

TEST(SectoredCache, SectorsBesidesThoseInFlightGetASecondMshrOfTheLine) {
  SectoredCache cache(small());
  const auto a = cache.read(0x1000, 0x1, 1, 1);
  const auto b = cache.read(0x1000, 0x3, 2, 2);  // sector 0 is in flight: only sector 1 goes out
  EXPECT_EQ(b.outcome, Outcome::Miss);
  EXPECT_EQ(b.missing_mask, 0x2u);
  EXPECT_NE(b.mshr, a.mshr);
  // Sector 1 alone: the second fetch covers it.
  const auto c = cache.read(0x1000, 0x2, 3, 3);
  EXPECT_EQ(c.outcome, Outcome::Merged);
  EXPECT_EQ(c.mshr, b.mshr);
  // Sectors 0 and 1: both in flight but in two fetches; the younger one lands last.
  const auto d = cache.read(0x1000, 0x3, 4, 4);
  EXPECT_EQ(d.outcome, Outcome::Merged);
  EXPECT_EQ(d.mshr, b.mshr);
  // Sector 0 alone: the first fetch covers it.
  EXPECT_EQ(cache.read(0x1000, 0x1, 5, 5).mshr, a.mshr);
  Words woken;
  cache.fill(a.mshr, 10, woken);
  EXPECT_EQ(woken, (Words{1, 5}));
  cache.fill(b.mshr, 11, woken);
  EXPECT_EQ(woken, (Words{2, 3, 4}));
  EXPECT_TRUE(hits(cache, 0x1000, 0x3));
}

TEST(SectoredCache, AMissStallsWhenEveryMshrIsBusy) {
  SectoredCache cache(small());  // 4 MSHRs
  std::vector<SectoredCache::Result> misses;
  for (uint64_t i = 0; i < 4; ++i) misses.push_back(cache.read(0x1000 + 128 * i, 0x1, i, i));
  EXPECT_EQ(cache.free_mshrs(), 0u);
  const auto stalled = cache.read(0x2000, 0x1, 5, 5);
  EXPECT_EQ(stalled.outcome, Outcome::Stall);
  EXPECT_EQ(stalled.mshr, SectoredCache::kNoMshr);
  // Merging needs no new MSHR, and hits need none at all.
  EXPECT_EQ(cache.read(0x1000, 0x1, 6, 6).outcome, Outcome::Merged);
  Words woken;
  cache.fill(misses[2].mshr, 7, woken);
  const auto retried = cache.read(0x2000, 0x1, 8, 5);
  EXPECT_EQ(retried.outcome, Outcome::Miss);
  EXPECT_EQ(retried.mshr, misses[2].mshr);  // the lowest free MSHR
  EXPECT_EQ(cache.stalls(), 1u);
}

TEST(SectoredCache, WritesNeitherAllocateNorInvalidate) {
  SectoredCache cache(small());
  EXPECT_FALSE(cache.write(0x1000, 0xf));
  EXPECT_EQ(cache.read(0x1000, 0x1, 1, 1).outcome, Outcome::Miss);
  SectoredCache fresh(small());
  load(fresh, 0x1000, 0x1, 1);
  EXPECT_TRUE(fresh.write(0x1000, 0x3));
  EXPECT_TRUE(hits(fresh, 0x1000, 0x1));
  EXPECT_FALSE(hits(fresh, 0x1000, 0x2));  // a write brings no sector in
}

TEST(SectoredCache, WriteAllocateBringsTheWrittenSectorsIn) {
  SectoredCacheConfig config = small();
  config.write_allocate = true;
  SectoredCache cache(config);
  EXPECT_FALSE(cache.write(0x1000, 0x5, 3));  // absent: allocated with sectors 0 and 2
  EXPECT_TRUE(hits(cache, 0x1000, 0x5));
  EXPECT_FALSE(hits(cache, 0x1000, 0x2));  // sector 1 was not written
  EXPECT_TRUE(cache.write(0x1000, 0x2, 4));
  EXPECT_TRUE(hits(cache, 0x1000, 0x7));
  EXPECT_EQ(cache.misses(), 1u);  // the one lookup of sector 1 before it was written
}

TEST(SectoredCache, AWriteHitCountsAsAUseForReplacement) {
  SectoredCache cache(small());
  load(cache, 0x0000, 0x1, 1);
  load(cache, 0x0200, 0x1, 2);
  EXPECT_TRUE(cache.write(0x0000, 0x1));  // 0x0200 becomes the least recently used
  load(cache, 0x0400, 0x1, 3);
  EXPECT_TRUE(hits(cache, 0x0000));
  EXPECT_FALSE(hits(cache, 0x0200));
}

TEST(SectoredCache, AnInvalidatedLineMissesAndItsWayIsReusedFirst) {
  SectoredCache cache(small());
  load(cache, 0x0000, 0xf, 1);
  load(cache, 0x0200, 0xf, 2);
  cache.invalidate(0x0200);
  EXPECT_FALSE(hits(cache, 0x0200));
  load(cache, 0x0400, 0xf, 3);  // takes the freed way, although 0x0000 is older
  EXPECT_TRUE(hits(cache, 0x0000));
  EXPECT_TRUE(hits(cache, 0x0400));
}

TEST(SectoredCache, ADisabledCacheMissesEverythingWithoutMshrs) {
  SectoredCacheConfig c;  // size 0
  ASSERT_FALSE(c.enabled());
  SectoredCache cache(c);
  for (int i = 0; i < 3; ++i) {
    const auto r = cache.read(0x1000, 0x5, i, i);
    EXPECT_EQ(r.outcome, Outcome::Miss);
    EXPECT_EQ(r.missing_mask, 0x5u);
    EXPECT_EQ(r.mshr, SectoredCache::kNoMshr);
  }
  EXPECT_EQ(cache.misses(), 3u);
  EXPECT_EQ(cache.free_mshrs(), 0u);
  EXPECT_FALSE(cache.write(0x1000, 0x1));
  cache.invalidate(0x1000);
}

TEST(SectoredCache, FillingAnIdleMshrIsAnError) {
  SectoredCache cache(small());
  Words woken;
  EXPECT_THROW(cache.fill(0, 1, woken), ModelError);
  EXPECT_THROW(cache.fill(4, 1, woken), ModelError);
}

TEST(SectoredCache, ANonPowerOfTwoSetCountWorks) {
  SectoredCacheConfig c = small();
  c.size_bytes = 3 * 256;  // 3 sets of 2 ways: lines 384 bytes apart share a set
  SectoredCache cache(c);
  load(cache, 0, 0x1, 1);
  load(cache, 384, 0x1, 2);
  load(cache, 768, 0x1, 3);
  EXPECT_FALSE(hits(cache, 0));
  EXPECT_TRUE(hits(cache, 384));
  EXPECT_TRUE(hits(cache, 768));
}

std::string problem_with(void (*change)(SectoredCacheConfig&)) {
  SectoredCacheConfig c = small();
  change(c);
  return c.problem("sm.l1");
}

void expect_names(const std::string& problem, const std::string& key) {
  EXPECT_NE(problem.find(key), std::string::npos) << "'" << problem << "' does not name " << key;
}

TEST(SectoredCacheConfig, GoodAndDisabledConfigurationsHaveNoProblem) {
  EXPECT_EQ(SectoredCacheConfig{}.problem("sm.l1"), "");
  EXPECT_EQ(small().problem("sm.l1"), "");
  SectoredCacheConfig constant = small();
  constant.sector_bytes = 128;
  EXPECT_EQ(constant.problem("sm.constant"), "");
  SectoredCacheConfig off;
  off.ways = 0;  // irrelevant without a cache
  off.mshrs = 0;
  EXPECT_EQ(off.problem("sm.l1"), "");
}

TEST(SectoredCacheConfig, EachBadValueIsNamedByItsKey) {
  expect_names(problem_with([](SectoredCacheConfig& c) { c.line_bytes = 100; }),
               "sm.l1.line_bytes");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.sector_bytes = 24; }),
               "sm.l1.sector_bytes");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.sector_bytes = 256; }),
               "sm.l1.sector_bytes");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.sector_bytes = 2; }),
               "sm.l1.sector_bytes");  // 64 sectors a line
  expect_names(problem_with([](SectoredCacheConfig& c) { c.ways = 0; }), "sm.l1.ways");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.ways = 16; }), "sm.l1.ways");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.size_bytes = 1000; }),
               "sm.l1.size_bytes");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.hit_latency = 0; }),
               "sm.l1.hit_latency");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.mshrs = 0; }), "sm.l1.mshrs");
  expect_names(problem_with([](SectoredCacheConfig& c) { c.max_merges = 0; }), "sm.l1.max_merges");
  SectoredCacheConfig off;
  off.line_bytes = 96;  // checked even without a cache: misses still travel as lines
  expect_names(off.problem("sm.l1"), "sm.l1.line_bytes");
}

TEST(SectoredCacheConfig, TheCacheRefusesAConfigurationWithAProblem) {
  SectoredCacheConfig c = small();
  c.ways = 16;
  EXPECT_THROW(SectoredCache{c}, ConfigError);
}

}  // namespace
}  // namespace gpusoc::sm

namespace gpusoc::sm {
namespace {

// Rows of a row-major matrix 4 KB apart, walked twice, in a V100-sized L1 (64 KB, 4 ways of
// 128-byte lines: 128 sets). Modulo indexing puts the 32 rows' lines in 4 sets, 16 ways in all,
// so the second walk finds only the 16 the first left last; the xor fold spreads them over 32
// sets and the second walk hits every one.
uint64_t second_walk_hits(const std::string& set_index) {
  SectoredCacheConfig c;
  c.size_bytes = 64 * 1024;
  c.ways = 4;
  c.mshrs = 64;
  c.set_index = set_index;
  SectoredCache cache(c);
  for (uint64_t row = 0; row < 32; ++row) load(cache, row * 4096, 0x1, row);
  uint64_t n = 0;
  for (uint64_t row = 0; row < 32; ++row) n += hits(cache, row * 4096);
  return n;
}

TEST(SectoredCacheSetIndex, TheXorFoldSpreadsAPowerOfTwoStrideThatModuloCrowds) {
  EXPECT_EQ(second_walk_hits("modulo"), 16u);
  EXPECT_EQ(second_walk_hits("xor"), 32u);
}

TEST(SectoredCacheSetIndex, ConsecutiveLinesStillTakeConsecutiveSetsAndUnknownNamesAreRefused) {
  const SetIndexFunction x = find_set_index("xor");
  ASSERT_NE(x, nullptr);
  for (uint64_t line = 0; line < 128; ++line) EXPECT_EQ(x(line, 128), line);  // below one fold
  EXPECT_EQ(x(128, 128), 1u);             // 128 = 1 << 7: its fold lands on set 1
  EXPECT_LT(x(~uint64_t(0), 192), 192u);  // any set count
  SectoredCacheConfig c;
  c.size_bytes = 1024;
  c.set_index = "hash";
  EXPECT_EQ(c.problem("sm.l1"), "sm.l1.set_index: 'hash' is not a set-index policy (modulo, xor)");
}

}  // namespace
}  // namespace gpusoc::sm
