// The coalescer against hand-computed sector sets, the analytic stride-N sector count and a
// byte-by-byte brute-force reference on random addresses.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "models/sm/coalescer.h"

namespace gpusoc::sm {
namespace {

using Addresses = std::array<uint64_t, 32>;

Addresses strided(uint64_t base, uint64_t stride_bytes) {
  Addresses a{};
  for (unsigned lane = 0; lane < 32; ++lane) a[lane] = base + lane * stride_bytes;
  return a;
}

std::vector<LineRequest> run(const Addresses& a, ptx::LaneMask lanes, unsigned bytes,
                             CoalescerGeometry g = {}) {
  std::vector<LineRequest> out;
  coalesce(a.data(), lanes, bytes, g, out);
  return out;
}

unsigned total_sectors(const std::vector<LineRequest>& lines) {
  unsigned n = 0;
  for (const LineRequest& r : lines) n += sector_count(r.sector_mask);
  return n;
}

// Independent reference: walk every byte of every lane's access, in lane order, and record the
// (line, sector) it falls in; lines are listed when first met.
std::vector<LineRequest> brute_force(const Addresses& a, ptx::LaneMask lanes, unsigned bytes,
                                     const CoalescerGeometry& g) {
  std::vector<LineRequest> out;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(lanes >> lane & 1)) continue;
    for (uint64_t byte = a[lane]; byte < a[lane] + bytes; ++byte) {
      const uint64_t line = byte / g.line_bytes * g.line_bytes;
      const unsigned sector = unsigned(byte % g.line_bytes / g.sector_bytes);
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const LineRequest& r) { return r.line_address == line; });
      if (it == out.end()) it = out.insert(out.end(), LineRequest{line, 0, 0});
      it->sector_mask |= 1u << sector;
      it->lanes |= 1u << lane;
    }
  }
  return out;
}

void expect_same(const std::vector<LineRequest>& got, const std::vector<LineRequest>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].line_address, want[i].line_address) << "line " << i;
    EXPECT_EQ(got[i].sector_mask, want[i].sector_mask) << "line " << i;
    EXPECT_EQ(got[i].lanes, want[i].lanes) << "line " << i;
  }
}

TEST(Coalescer, UnitStrideFourBytesIsOneLineOfFourSectors) {
  const auto lines = run(strided(0x1000, 4), ptx::kFullMask, 4);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].line_address, 0x1000u);
  EXPECT_EQ(lines[0].sector_mask, 0xfu);
  EXPECT_EQ(lines[0].lanes, ptx::kFullMask);
}

TEST(Coalescer, StrideOfNWordsGivesTheAnalyticSectorAndLineCounts) {
  // Lanes i*N*4: neighbours are at most 128 bytes apart for N <= 32, so no line between the
  // first and last is skipped, and for N <= 8 no sector either.
  for (unsigned n = 1; n <= 32; ++n) {
    const auto lines = run(strided(0x10000, 4 * n), ptx::kFullMask, 4);
    const unsigned sectors = std::min(32u, 31 * n / 8 + 1);
    EXPECT_EQ(total_sectors(lines), sectors) << "stride " << n;
    EXPECT_EQ(lines.size(), 31 * n / 32 + 1) << "stride " << n;
  }
}

TEST(Coalescer, MisalignedUnitStrideSpillsOneSectorIntoTheNextLine) {
  const auto lines = run(strided(0x2004, 4), ptx::kFullMask, 4);  // bytes 0x2004..0x2083
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].line_address, 0x2000u);
  EXPECT_EQ(lines[0].sector_mask, 0xfu);
  EXPECT_EQ(lines[0].lanes, 0x7fffffffu);
  EXPECT_EQ(lines[1].line_address, 0x2080u);
  EXPECT_EQ(lines[1].sector_mask, 0x1u);
  EXPECT_EQ(lines[1].lanes, 0x80000000u);
}

TEST(Coalescer, AnAccessStraddlingASectorOrLineTouchesBoth) {
  Addresses a{};
  a[0] = 0x3000 + 28;   // 8 bytes over sectors 0 and 1
  a[1] = 0x3000 + 124;  // 8 bytes over line 0x3000 sector 3 and line 0x3080 sector 0
  const auto lines = run(a, 0x3, 8);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].line_address, 0x3000u);
  EXPECT_EQ(lines[0].sector_mask, 0b1011u);
  EXPECT_EQ(lines[0].lanes, 0x3u);
  EXPECT_EQ(lines[1].line_address, 0x3080u);
  EXPECT_EQ(lines[1].sector_mask, 0x1u);
  EXPECT_EQ(lines[1].lanes, 0x2u);
}

TEST(Coalescer, EveryLaneStraddlingALineGivesSixtyFourLines) {
  const auto lines = run(strided(0x40000 + 124, 256), ptx::kFullMask, 8);
  ASSERT_EQ(lines.size(), 64u);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(lines[2 * lane].line_address, 0x40000u + 256 * lane);
    EXPECT_EQ(lines[2 * lane].sector_mask, 0x8u);
    EXPECT_EQ(lines[2 * lane + 1].sector_mask, 0x1u);
    EXPECT_EQ(lines[2 * lane + 1].lanes, 1u << lane);
  }
}

TEST(Coalescer, EightAndSixteenBytesPerLaneFillTwoAndFourLines) {
  const auto eight = run(strided(0x5000, 8), ptx::kFullMask, 8);
  ASSERT_EQ(eight.size(), 2u);
  EXPECT_EQ(eight[0].sector_mask, 0xfu);
  EXPECT_EQ(eight[0].lanes, 0x0000ffffu);
  EXPECT_EQ(eight[1].line_address, 0x5080u);
  EXPECT_EQ(eight[1].lanes, 0xffff0000u);

  const auto sixteen = run(strided(0x5000, 16), ptx::kFullMask, 16);
  ASSERT_EQ(sixteen.size(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(sixteen[i].line_address, 0x5000u + 128 * i);
    EXPECT_EQ(sixteen[i].sector_mask, 0xfu);
    EXPECT_EQ(sixteen[i].lanes, 0xffu << (8 * i));
  }
}

TEST(Coalescer, LinesComeInTheOrderOfTheirLowestLaneAndInactiveLanesAreIgnored) {
  Addresses a{};
  a[0] = 0x9000;  // inactive
  a[1] = 0x8280;
  a[2] = 0x8100;
  a[3] = 0x8284;
  a[4] = 0x8000;
  const auto lines = run(a, 0b11110, 4);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].line_address, 0x8280u);
  EXPECT_EQ(lines[0].lanes, 0b1010u);
  EXPECT_EQ(lines[1].line_address, 0x8100u);
  EXPECT_EQ(lines[2].line_address, 0x8000u);
}

TEST(Coalescer, NoActiveLaneClearsTheOutput) {
  std::vector<LineRequest> out{{0x100, 1, 1}};
  const Addresses a = strided(0, 4);
  coalesce(a.data(), 0, 4, {}, out);
  EXPECT_TRUE(out.empty());
}

TEST(Coalescer, BroadcastOfOneWordIsOneSector) {
  const auto lines = run(strided(0x7008, 0), ptx::kFullMask, 4);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].sector_mask, 0x1u);
  EXPECT_EQ(lines[0].lanes, ptx::kFullMask);
}

TEST(Coalescer, ThirtyTwoSectorsOfOneByteInALineSetTheTopBit) {
  CoalescerGeometry g;
  g.line_bytes = 128;
  g.sector_bytes = 4;
  const auto lines = run(strided(0x100, 4), ptx::kFullMask, 4, g);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].sector_mask, 0xffffffffu);
}

TEST(Coalescer, RandomAccessesMatchTheByteByByteReference) {
  std::mt19937_64 rng(12345);
  const CoalescerGeometry geometries[] = {{128, 32}, {64, 16}, {32, 32}, {128, 4}};
  const unsigned widths[] = {1, 2, 4, 8, 16};
  std::vector<LineRequest> out;
  for (int trial = 0; trial < 4000; ++trial) {
    const CoalescerGeometry& g = geometries[trial % 4];
    const unsigned bytes = widths[rng() % 5];
    // Small regions repeat lines and sectors; large ones scatter them.
    const uint64_t region = trial % 3 == 0 ? 256 : trial % 3 == 1 ? 4096 : (uint64_t(1) << 40);
    const bool aligned = trial % 2 == 0;
    Addresses a{};
    for (uint64_t& x : a) {
      x = 0x100000 + rng() % region;
      if (aligned) x &= ~uint64_t(bytes - 1);
    }
    const ptx::LaneMask lanes = trial % 5 == 0 ? ptx::kFullMask : ptx::LaneMask(rng());
    coalesce(a.data(), lanes, bytes, g, out);
    SCOPED_TRACE(trial);
    expect_same(out, brute_force(a, lanes, bytes, g));
  }
}

}  // namespace
}  // namespace gpusoc::sm
