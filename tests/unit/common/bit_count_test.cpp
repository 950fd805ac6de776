#include "models/common/bit_count.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace gpusoc {
namespace {

// The reference: one bit at a time.
uint32_t bits_one_by_one(uint32_t x) {
  uint32_t n = 0;
  for (; x != 0; x >>= 1) n += x & 1;
  return n;
}

TEST(BitCount, MatchesCountingOneBitAtATime) {
  static_assert(count_bits(0) == 0 && count_bits(~0u) == 32 && count_bits(0x80000001u) == 2);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(count_bits(1u << i), 1u);
    EXPECT_EQ(count_bits(~(1u << i)), 31u);
    EXPECT_EQ(count_bits((1u << i) - 1), i);  // the low i bits
  }
  uint64_t state = 0x9E3779B97F4A7C15ull;  // xorshift64: patterns of every density
  for (int k = 0; k < 100000; ++k) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    const uint32_t x = (uint32_t(state) & uint32_t(state >> 32)) | uint32_t(state >> 48);
    ASSERT_EQ(count_bits(x), bits_one_by_one(x)) << std::hex << x;
  }
}

}  // namespace
}  // namespace gpusoc
