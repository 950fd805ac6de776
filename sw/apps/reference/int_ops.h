// Host reference for sw/kernels/int_ops.cu (tests/kernels/int_ops_test.cpp, the int_ops app):
// the inputs of int_bits, int_mul64 and int_divrem and every result. All exact.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

inline uint32_t brev32(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline uint64_t brev64(uint64_t x) {
  return (uint64_t(brev32(uint32_t(x))) << 32) | brev32(uint32_t(x >> 32));
}

// __byte_perm: bytes 0-3 from x, 4-7 from y; each result byte picks by the low 3 bits of its
// selector nibble (CUDA masks the selector with 0x7777 before the prmt instruction).
inline uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t bytes = (uint64_t(y) << 32) | x;
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n)
    r |= uint32_t((bytes >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return r;
}

inline uint32_t funnel_l(uint32_t lo, uint32_t hi, uint32_t sh) {
  return uint32_t(((uint64_t(hi) << 32 | lo) << sh) >> 32);
}
inline uint32_t funnel_r(uint32_t lo, uint32_t hi, uint32_t sh) {
  return uint32_t((uint64_t(hi) << 32 | lo) >> sh);
}

inline uint32_t vabsdiffu4(uint32_t x, uint32_t y) {
  uint32_t r = 0;
  for (int b = 0; b < 4; ++b) {
    int xb = (x >> (8 * b)) & 0xff, yb = (y >> (8 * b)) & 0xff;
    r |= uint32_t(std::abs(xb - yb)) << (8 * b);
  }
  return r;
}
inline uint32_t vabsdiffs2(uint32_t x, uint32_t y) {
  uint32_t r = 0;
  for (int h = 0; h < 2; ++h) {
    int xh = int16_t(x >> (16 * h)), yh = int16_t(y >> (16 * h));
    r |= (uint32_t(std::abs(xh - yh)) & 0xffff) << (16 * h);
  }
  return r;
}

inline int32_t sext24(uint32_t x) {
  return int32_t(x << 8) >> 8;
}

// ---- int_bits ----------------------------------------------------------------------------------

/// Special bit patterns, then n random words.
inline std::vector<uint32_t> bit_patterns(int n, uint64_t seed) {
  std::vector<uint32_t> v = {0u,          1u,          0x80000000u, 0xFFFFFFFFu, 0x7FFFFFFFu,
                             0x00010000u, 0x12345678u, 0xF0F0F0F0u, 0x0000FFFFu, 0x80808080u};
  auto r = random_u32(n, seed);
  v.insert(v.end(), r.begin(), r.end());
  return v;
}

struct WordPairs {
  std::vector<uint32_t> a, b;
};
/// int_bits inputs: two sets of bit patterns, the second rotated so that different specials
/// meet.
inline WordPairs int_bits_inputs(int random_count, uint64_t seed_a, uint64_t seed_b) {
  WordPairs in{bit_patterns(random_count, seed_a), bit_patterns(random_count, seed_b)};
  std::rotate(in.b.begin(), in.b.begin() + 3, in.b.end());
  return in;
}

inline constexpr const char* kIntBitsNames[20] = {"popc",
                                                  "clz",
                                                  "brev",
                                                  "ffs",
                                                  "popcll",
                                                  "clzll",
                                                  "brevll",
                                                  "byte_perm",
                                                  "byte_perm (high selector)",
                                                  "funnelshift_l",
                                                  "funnelshift_r",
                                                  "funnelshift_lc",
                                                  "funnelshift_rc",
                                                  "bfe.u",
                                                  "bfe.s",
                                                  "variable field",
                                                  "vabsdiff",
                                                  "umulhi",
                                                  "mulhi",
                                                  "sad ^ mul24 ^ umul24"};

inline std::array<uint32_t, 20> int_bits_expected(uint32_t x, uint32_t y) {
  const uint64_t xy = (uint64_t(x) << 32) | y;
  const uint32_t pos = y & 31, len = (y >> 5) & 31;
  return {
      uint32_t(__builtin_popcount(x)),
      x ? uint32_t(__builtin_clz(x)) : 32u,
      brev32(x),
      x ? uint32_t(__builtin_ctz(x)) + 1 : 0u,
      uint32_t(__builtin_popcountll(xy)),
      xy ? uint32_t(__builtin_clzll(xy)) : 64u,
      uint32_t(brev64(xy) >> 16),
      byte_perm(x, y, y & 0x7777),
      byte_perm(x, y, y >> 16),
      funnel_l(x, y, (y >> 3) & 31),
      funnel_r(x, y, (y >> 3) & 31),
      funnel_l(x, y, std::min<uint32_t>((y >> 3) & 63, 32)),
      funnel_r(x, y, std::min<uint32_t>((y >> 3) & 63, 32)),
      (x >> 7) & 0x3ffu,
      uint32_t(int32_t(x << 9) >> 20),
      (x >> pos) & (len ? (0xffffffffu >> (32 - len)) : 0u),
      vabsdiffu4(x, y) ^ (vabsdiffs2(x, y) << 1),
      uint32_t((uint64_t(x) * y) >> 32),
      uint32_t(uint64_t(int64_t(int32_t(x)) * int32_t(y)) >> 32),
      (uint32_t(std::llabs(int64_t(int32_t(x)) - int32_t(y))) + 17u) ^
          uint32_t(int64_t(sext24(x)) * sext24(y)) ^ (((x & 0xffffff) * (y & 0xffffff)) << 1),
  };
}

// ---- int_mul64 ---------------------------------------------------------------------------------

struct U64Pairs {
  std::vector<uint64_t> a, b;
};
inline U64Pairs int_mul64_inputs(int random_count, uint64_t seed) {
  Rng rng(seed);
  U64Pairs in;
  in.a = {0, 1, ~0ull, 1ull << 63, 0x7FFFFFFFFFFFFFFFull, 0x123456789ABCDEFull};
  in.b = {~0ull, 0, 3, 1ull << 63, 64 + 5, 0xFEDCBA9876543210ull};
  for (int i = 0; i < random_count; ++i) {
    in.a.push_back(rng.next64());
    in.b.push_back(rng.next64());
  }
  return in;
}

inline std::array<uint64_t, 6> int_mul64_expected(uint64_t x, uint64_t y) {
  const unsigned sh = y & 63;
  return {
      uint64_t((unsigned __int128)x * y >> 64),
      uint64_t((__int128)int64_t(x) * int64_t(y) >> 64),
      x * y,
      uint64_t(int64_t(x) >> sh),
      sh ? (x >> sh) | (x << (64 - sh)) : x,
      uint64_t(std::max(int64_t(x), int64_t(y))) ^ std::min(x, y),
  };
}

// ---- int_divrem --------------------------------------------------------------------------------

// C++ (and PTX div/rem) truncate toward zero; the remainder takes the dividend's sign. Divisors
// are never 0 and (INT_MIN, -1) never occurs (undefined in C++).
struct DivremInputs {
  std::vector<int> a, b;
  std::vector<long long> c, d;
};
inline DivremInputs int_divrem_inputs(int random_count, uint64_t seed) {
  Rng rng(seed);
  DivremInputs in;
  in.a = {7, -7, 7, -7, 0, 1, -1, INT32_MAX, INT32_MIN + 1, 100, -100, 5};
  in.b = {2, 2, -2, -2, 5, INT32_MAX, 3, -1, -1, 7, 7, INT32_MIN};
  in.c = {7, -7, INT64_MAX, INT64_MIN + 1, 0, -1000000000000LL, 3, 1, 2, 99, -99, 6};
  in.d = {-2, 2, -1, 3, 9, 7, INT64_MIN, 1, -1, -10, 10, 3};
  for (int i = 0; i < random_count; ++i) {
    int x = static_cast<int>(rng.next32());
    if (x == INT32_MIN) x = 0;
    int y = i % 3 ? static_cast<int>(rng.integer(-1000, 1000)) : static_cast<int>(rng.next32());
    if (y == 0) y = 1;
    long long X = static_cast<long long>(rng.next64());
    if (X == INT64_MIN) X = 0;
    long long Y =
        i % 2 ? rng.integer(-100000, 100000) : static_cast<long long>(rng.next64() >> (i % 40));
    if (Y == 0) Y = -3;
    in.a.push_back(x);
    in.b.push_back(y);
    in.c.push_back(X);
    in.d.push_back(Y);
  }
  return in;
}

inline std::array<long long, 14> int_divrem_expected(int x, int y, long long X, long long Y) {
  const uint32_t wrapped =
      uint32_t(std::abs(x)) + uint32_t(std::min(x, y)) * 2u - uint32_t(std::max(x, y));
  return {x / y,
          x % y,
          (long long)(unsigned(x) / unsigned(y)),
          (long long)(unsigned(x) % unsigned(y)),
          X / Y,
          X % Y,
          (long long)((unsigned long long)X / (unsigned long long)Y),
          (long long)((unsigned long long)X % (unsigned long long)Y),
          x / 7,
          x % 7,
          x / -3,
          (long long)(unsigned(x) / 10u),
          int32_t(wrapped),
          std::llabs(X) / 1000003LL};
}

}  // namespace gpusoc::apps::reference
