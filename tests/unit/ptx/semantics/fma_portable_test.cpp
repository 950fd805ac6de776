// The portable f32 fma (used where the host CPU has no FMA instruction) against the C library's
// correctly rounded fmaf, including sums that double rounding would get wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "models/ptx/semantics/fp.h"

namespace gpusoc::ptx::sem {
namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

TEST(PortableFma, BreaksDoubleRoundingTiesTowardTheExactSum) {
  const float a = 1.0f + std::ldexp(1.0f, -12);  // a*a = 1 + 2^-11 + 2^-24: an f32 midpoint
  for (float c : {std::ldexp(1.0f, -60), -std::ldexp(1.0f, -60), 0.0f}) {
    EXPECT_EQ(bits(fma_f32(a, a, c, true)), bits(std::fma(a, a, c))) << "c = " << c;
  }
  // The naive double-then-float rounding gets the first case wrong, so this case matters.
  EXPECT_NE(bits(float(double(a) * a + double(std::ldexp(1.0f, -60)))),
            bits(std::fma(a, a, std::ldexp(1.0f, -60))));
}

TEST(PortableFma, MatchesTheCLibraryOnRandomOperands) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 200000; ++i) {
    float v[3];
    for (float& x : v) {
      const uint32_t b = any(rng);
      std::memcpy(&x, &b, 4);
    }
    const float want = std::fma(v[0], v[1], v[2]);
    const float got = fma_f32(v[0], v[1], v[2], true);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got));
    } else {
      ASSERT_EQ(bits(got), bits(want)) << v[0] << " * " << v[1] << " + " << v[2];
    }
  }
}

}  // namespace
}  // namespace gpusoc::ptx::sem
