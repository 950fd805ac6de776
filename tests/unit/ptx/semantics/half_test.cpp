// f16/bf16 arithmetic against the host's _Float16 (libgcc's conversions) and a bit-level bf16
// rounding reference.
#include <cmath>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;

uint16_t h_bits(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
_Float16 h_value(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
/// Round-to-nearest-even of an f32 to bf16 by the classic bit trick; NaN becomes 0x7fff.
uint16_t bf16_rn(float x) {
  const uint32_t b = uint32_t(f32(x));
  if (x != x) return 0x7fff;
  return uint16_t((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}
float bf16_value(uint16_t b) {
  return as_f32(uint64_t(b) << 16);
}

uint16_t expect_nan_canonical(uint16_t ref) {
  return (ref & 0x7c00) == 0x7c00 && (ref & 0x3ff) ? 0x7fff : ref;
}

TEST(Half, F16ArithmeticMatchesHost) {
  Rng rng(16);
  for (int i = 0; i < 20000; ++i) {
    const uint16_t a = uint16_t(rng.next()), b = uint16_t(rng.next()), c = uint16_t(rng.next());
    const float fa = float(h_value(a)), fb = float(h_value(b));
    EXPECT_EQ(eval(I(Op::Add, T::F16).dsts(1).srcs(2), {a, b}),
              expect_nan_canonical(h_bits(_Float16(fa + fb))));
    EXPECT_EQ(eval(I(Op::Sub, T::F16).dsts(1).srcs(2), {a, b}),
              expect_nan_canonical(h_bits(_Float16(fa - fb))));
    EXPECT_EQ(eval(I(Op::Mul, T::F16).dsts(1).srcs(2), {a, b}),
              expect_nan_canonical(h_bits(_Float16(fa * fb))));
    const long double fma =
        std::fma((long double)fa, (long double)fb, (long double)float(h_value(c)));
    EXPECT_EQ(eval(I(Op::Fma, T::F16).rnd(Rounding::Rn).dsts(1).srcs(3), {a, b, c}),
              expect_nan_canonical(h_bits(_Float16(fma))));
  }
}

TEST(Half, BF16ArithmeticMatchesBitReference) {
  Rng rng(17);
  for (int i = 0; i < 20000; ++i) {
    const uint16_t a = uint16_t(rng.next()), b = uint16_t(rng.next());
    const float fa = bf16_value(a), fb = bf16_value(b);
    EXPECT_EQ(eval(I(Op::Add, T::BF16).dsts(1).srcs(2), {a, b}), bf16_rn(fa + fb));
    EXPECT_EQ(eval(I(Op::Mul, T::BF16).dsts(1).srcs(2), {a, b}), bf16_rn(fa * fb));
  }
}

TEST(Half, PackedX2OperatesOnEachHalf) {
  // {hi, lo} = {1.5, -2} + {0.25, 3} = {1.75, 1}
  EXPECT_EQ(eval(I(Op::Add, T::F16x2).dsts(1).srcs(2), {0x3e00c000u, 0x34004200u}), 0x3f003c00u);
  EXPECT_EQ(eval(I(Op::Mul, T::BF16x2).dsts(1).srcs(2), {0x3fc04000u, 0x40004040u}),
            0x404040c0u);  // {1.5 * 2, 2 * 3} = {3, 6}
}

TEST(Half, SaturationReluAndFlushToZero) {
  EXPECT_EQ(eval(I(Op::Add, T::F16).flags(kSat).dsts(1).srcs(2), {0x3c00, 0x3c00}), 0x3c00u);
  EXPECT_EQ(eval(I(Op::Add, T::F16).flags(kSat).dsts(1).srcs(2), {0x7e00, 0x3c00}), 0u);
  const Inst relu = I(Op::Fma, T::F16).rnd(Rounding::Rn).flags(kRelu).dsts(1).srcs(3);
  EXPECT_EQ(eval(relu, {0x3c00, 0xc000, 0x3c00}), 0u);       // 1 * -2 + 1 = -1 -> 0
  EXPECT_EQ(eval(relu, {0x7e00, 0x3c00, 0x3c00}), 0x7fffu);  // NaN stays (canonical) NaN
  EXPECT_EQ(eval(relu, {0x3c00, 0x4000, 0x3c00}), 0x4200u);  // 3
  EXPECT_EQ(eval(I(Op::Add, T::F16).dsts(1).srcs(2), {0x0001, 0x0000}), 0x0001u);
  EXPECT_EQ(eval(I(Op::Add, T::F16).flags(kFtz).dsts(1).srcs(2), {0x8001, 0x8000}), 0x8000u);
  // 2^-14 * 0.5 is subnormal: flushed with .ftz.
  EXPECT_EQ(eval(I(Op::Mul, T::F16).flags(kFtz).dsts(1).srcs(2), {0x0400, 0x3800}), 0u);
}

TEST(Half, MinMaxNegAbs) {
  EXPECT_EQ(eval(I(Op::Min, T::F16).dsts(1).srcs(2), {0x7e00, 0xc000}), 0xc000u);
  EXPECT_EQ(eval(I(Op::Min, T::F16).flags(kNaN).dsts(1).srcs(2), {0x7e00, 0xc000}), 0x7fffu);
  EXPECT_EQ(eval(I(Op::Max, T::F16).dsts(1).srcs(2), {0x8000, 0x0000}), 0x0000u);
  EXPECT_EQ(eval(I(Op::Min, T::BF16x2).dsts(1).srcs(2), {0x3f80c000u, 0x40000000u}),
            0x3f80c000u);  // {min(1, 2), min(-2, +0)} = {1, -2}
  EXPECT_EQ(eval(I(Op::Max, T::F16).flags(kXorSign | kAbsInput).dsts(1).srcs(2), {0xc200, 0x3c00}),
            0xc200u);  // |max| = 3, signs differ
  EXPECT_EQ(eval(I(Op::Neg, T::F16x2).dsts(1).srcs(1), {0x3c00bc00u}), 0xbc003c00u);
  EXPECT_EQ(eval(I(Op::Abs, T::BF16).dsts(1).srcs(1), {0xbf80}), 0x3f80u);
}

}  // namespace
}  // namespace gpusoc::ptx::test
