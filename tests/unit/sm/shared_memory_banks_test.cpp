// Shared-memory bank conflicts against hand-computed degrees, the gcd law of strided access and
// a byte-by-byte brute-force reference on random addresses.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "models/common/error.h"
#include "models/sm/shared_memory_banks.h"

namespace gpusoc::sm {
namespace {

using Addresses = std::array<uint64_t, 32>;

Addresses strided(uint64_t base, uint64_t stride_bytes) {
  Addresses a{};
  for (unsigned lane = 0; lane < 32; ++lane) a[lane] = base + lane * stride_bytes;
  return a;
}

// Independent reference: the distinct words each bank must deliver, from every byte accessed.
uint32_t brute_force(const SharedMemoryBanks& b, const Addresses& a, ptx::LaneMask lanes,
                     unsigned bytes) {
  std::map<uint64_t, std::set<uint64_t>> words_of_bank;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (!(lanes >> lane & 1)) continue;
    for (uint64_t byte = a[lane]; byte < a[lane] + bytes; ++byte) {
      const uint64_t word = byte / b.bank_bytes;
      words_of_bank[word % b.banks].insert(word);
    }
  }
  uint32_t degree = 0;
  for (const auto& [bank, words] : words_of_bank) degree = std::max(degree, uint32_t(words.size()));
  return degree;
}

TEST(SharedMemoryBanks, StrideOfKWordsIsAKWayConflict) {
  const SharedMemoryBanks banks;  // 32 banks of 4 bytes
  for (unsigned k : {1u, 2u, 4u, 8u, 16u, 32u}) {
    EXPECT_EQ(banks.conflict_degree(strided(0, 4 * k).data(), ptx::kFullMask, 4), k)
        << "stride " << k;
  }
}

TEST(SharedMemoryBanks, AnyStrideConflictsAsItsGcdWithTheBankCount) {
  // Lane i reads word i*k, in bank i*k mod 32: gcd(k, 32) lanes share each bank used.
  const SharedMemoryBanks banks;
  for (unsigned k = 1; k <= 96; ++k) {
    EXPECT_EQ(banks.conflict_degree(strided(0x400, 4 * k).data(), ptx::kFullMask, 4),
              std::gcd(k, 32u))
        << "stride " << k;
  }
}

TEST(SharedMemoryBanks, LanesReadingOneWordAreOneBroadcast) {
  const SharedMemoryBanks banks;
  EXPECT_EQ(banks.conflict_degree(strided(0x84, 0).data(), ptx::kFullMask, 4), 1u);
  // Two words of bank 0, each read by 16 lanes: two cycles, not 32.
  Addresses a{};
  for (unsigned lane = 0; lane < 32; ++lane) a[lane] = lane % 2 ? 0 : 128;
  EXPECT_EQ(banks.conflict_degree(a.data(), ptx::kFullMask, 4), 2u);
  // Bytes of one word are one word.
  EXPECT_EQ(banks.conflict_degree(strided(0x100, 1).data(), 0xf, 1), 1u);
}

TEST(SharedMemoryBanks, WideAccessesTouchConsecutiveWords) {
  const SharedMemoryBanks banks;
  // 32 lanes x 8 bytes = 64 words on 32 banks: two half-warp passes.
  EXPECT_EQ(banks.conflict_degree(strided(0, 8).data(), ptx::kFullMask, 8), 2u);
  EXPECT_EQ(banks.conflict_degree(strided(0, 8).data(), 0x0000ffffu, 8), 1u);
  // 32 lanes x 16 bytes = 128 words: four quarter-warp passes.
  EXPECT_EQ(banks.conflict_degree(strided(0, 16).data(), ptx::kFullMask, 16), 4u);
  // 8 bytes at a 16-byte stride: words 4i and 4i+1, so banks 0,1,4,5,... each get 4 words.
  EXPECT_EQ(banks.conflict_degree(strided(0, 16).data(), ptx::kFullMask, 8), 4u);
  // A misaligned 4-byte access touches two words, in two banks: no conflict by itself.
  Addresses a{};
  a[0] = 2;
  EXPECT_EQ(banks.conflict_degree(a.data(), 0x1, 4), 1u);
  a[1] = 130;  // words 32 and 33: banks 0 and 1 again
  EXPECT_EQ(banks.conflict_degree(a.data(), 0x3, 4), 2u);
}

TEST(SharedMemoryBanks, OtherGeometriesCountTheirOwnBanks) {
  SharedMemoryBanks tesla;
  tesla.banks = 16;  // a whole warp of consecutive words wraps the 16 banks twice
  EXPECT_EQ(tesla.conflict_degree(strided(0, 4).data(), ptx::kFullMask, 4), 2u);
  EXPECT_EQ(tesla.conflict_degree(strided(0, 4).data(), 0xffff, 4), 1u);
  SharedMemoryBanks wide;
  wide.bank_bytes = 8;  // two lanes' 4-byte words share one 8-byte bank word
  EXPECT_EQ(wide.conflict_degree(strided(0, 4).data(), ptx::kFullMask, 4), 1u);
  EXPECT_EQ(wide.conflict_degree(strided(0, 8).data(), ptx::kFullMask, 8), 1u);
  SharedMemoryBanks many;
  many.banks = 128;  // more banks than chains: words 64 apart share a chain, not a bank
  EXPECT_EQ(many.conflict_degree(strided(0, 4 * 64).data(), ptx::kFullMask, 4), 16u);
  EXPECT_EQ(many.conflict_degree(strided(0, 4 * 64).data(), 0x3, 4), 1u);
}

TEST(SharedMemoryBanks, NoLaneOrNoByteTakesNoCycle) {
  const SharedMemoryBanks banks;
  EXPECT_EQ(banks.conflict_degree(strided(0, 4).data(), 0, 4), 0u);
  EXPECT_EQ(banks.conflict_degree(strided(0, 4).data(), ptx::kFullMask, 0), 0u);
}

TEST(SharedMemoryBanks, AnAccessWiderThanThirtyTwoWordsIsAnError) {
  const SharedMemoryBanks banks;
  try {
    banks.conflict_degree(strided(0, 256).data(), 0x1, 256);
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("256-byte access"), std::string::npos) << e.what();
  }
}

TEST(SharedMemoryBanks, RandomAccessesMatchTheBruteForceReference) {
  std::mt19937_64 rng(777);
  const SharedMemoryBanks geometries[] = {{32, 4}, {16, 4}, {32, 8}, {128, 4}, {8, 2}};
  const unsigned widths[] = {1, 2, 4, 8, 16};
  for (int trial = 0; trial < 5000; ++trial) {
    const SharedMemoryBanks& b = geometries[trial % 5];
    const unsigned bytes = widths[rng() % 5];
    const uint64_t region = trial % 2 ? 512 : 48 * 1024;  // small regions repeat words
    Addresses a{};
    for (uint64_t& x : a) {
      x = rng() % region;
      if (trial % 3 != 0) x &= ~uint64_t(bytes - 1);
    }
    const ptx::LaneMask lanes = trial % 4 == 0 ? ptx::kFullMask : ptx::LaneMask(rng());
    EXPECT_EQ(b.conflict_degree(a.data(), lanes, bytes), brute_force(b, a, lanes, bytes))
        << "trial " << trial;
  }
}

}  // namespace
}  // namespace gpusoc::sm
