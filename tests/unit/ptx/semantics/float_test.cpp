// f32/f64 arithmetic against the host's IEEE arithmetic run under fesetround in the test, and
// hand-computed special cases.
#include <cfenv>
#include <cmath>
#include <limits>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;
constexpr Rounding kModes[] = {Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp};
constexpr int kHostModes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

enum class Arith { Add, Sub, Mul, Div, Fma };

/// The reference: host arithmetic in host rounding mode `mode`. Volatile operands keep the
/// compiler from moving the arithmetic out of the fesetround bracket.
template <class F>
F reference(Arith op, F a, F b, F c, int mode) {
  volatile F va = a, vb = b, vc = c;
  std::fesetround(mode);
  volatile F r;
  switch (op) {
    case Arith::Add:
      r = va + vb;
      break;
    case Arith::Sub:
      r = va - vb;
      break;
    case Arith::Mul:
      r = va * vb;
      break;
    case Arith::Div:
      r = va / vb;
      break;
    case Arith::Fma:
      r = std::fma(F(va), F(vb), F(vc));
      break;
  }
  std::fesetround(FE_TONEAREST);
  return r;
}

template <class F>
uint64_t bits(F x) {
  return sizeof(F) == 4 ? f32(float(x)) : f64(double(x));
}

/// Random values spread over many binades, with some specials mixed in.
template <class F>
F random_value(Rng& rng) {
  const uint64_t r = rng.next();
  switch (r % 16) {
    case 0:
      return F(0) * (r & 16 ? -1 : 1);
    case 1:
      return std::numeric_limits<F>::infinity();
    case 2:
      return std::numeric_limits<F>::denorm_min() * F(r >> 40);
    case 3:
      return std::numeric_limits<F>::max();
    default: {
      const F m = F(1) + F((r >> 12) & 0xffffff) / F(1 << 24) + F(r >> 50) * F(1e-12);
      return std::ldexp(m, int((r >> 4) % 80) - 40) * ((r >> 11) & 1 ? F(-1) : F(1));
    }
  }
}

template <class F>
void check_rounding_sweep(T type) {
  Rng rng(sizeof(F));
  const std::pair<Arith, Op> ops[] = {{Arith::Add, Op::Add},
                                      {Arith::Sub, Op::Sub},
                                      {Arith::Mul, Op::Mul},
                                      {Arith::Div, Op::Div},
                                      {Arith::Fma, Op::Fma}};
  for (int iter = 0; iter < 300; ++iter) {
    const F a = random_value<F>(rng), b = random_value<F>(rng), c = random_value<F>(rng);
    for (auto [arith, op] : ops) {
      for (int m = 0; m < 4; ++m) {
        const unsigned n = op == Op::Fma ? 3 : 2;
        const Inst in = I(op, type).rnd(kModes[m]).dsts(1).srcs(n);
        const uint64_t got = eval(in, {bits(a), bits(b), bits(c)});
        const F want = reference(arith, a, b, c, kHostModes[m]);
        if (want != want) {
          EXPECT_EQ(got, sizeof(F) == 4 ? kCanonNaN32 : 0x7fffffffffffffffull);
        } else {
          EXPECT_EQ(got, bits(want))
              << "op " << int(arith) << " mode " << m << " a=" << a << " b=" << b << " c=" << c;
        }
      }
    }
  }
}

TEST(Float, F32RoundingModesMatchIeee) {
  check_rounding_sweep<float>(T::F32);
}
TEST(Float, F64RoundingModesMatchIeee) {
  check_rounding_sweep<double>(T::F64);
}

TEST(Float, DirectedRoundingOfASmallAddend) {
  const auto add = [](Rounding r, float a, float b) {
    return as_f32(eval(I(Op::Add, T::F32).rnd(r).dsts(1).srcs(2), {f32(a), f32(b)}));
  };
  EXPECT_EQ(add(Rounding::Rp, 1, 0x1p-30f), 1 + 0x1p-23f);
  EXPECT_EQ(add(Rounding::Rn, 1, 0x1p-30f), 1);
  EXPECT_EQ(add(Rounding::Rz, -1, -0x1p-30f), -1);
  EXPECT_EQ(add(Rounding::Rm, -1, -0x1p-30f), -1 - 0x1p-23f);
  EXPECT_EQ(add(Rounding::Rm, 1, -1), -0.0f);  // exact zero sum is -0 when rounding down
  const double d = as_f64(eval(I(Op::Mul, T::F64).rnd(Rounding::Rp).dsts(1).srcs(2),
                               {f64(1 + 0x1p-52), f64(1 + 0x1p-52)}));
  EXPECT_EQ(d, 1 + 0x1p-51 + 0x1p-52);  // 1 + 2^-51 + 2^-104 rounded up
}

TEST(Float, RoundingScopeRestoresNearest) {
  eval(I(Op::Add, T::F32).rnd(Rounding::Rp).dsts(1).srcs(2), {f32(1), f32(1e-30f)});
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(Float, CanonicalNaNAndDivisionByZero) {
  const Inst add = I(Op::Add, T::F32).dsts(1).srcs(2);
  const Inst div = I(Op::Div, T::F32).rnd(Rounding::Rn).dsts(1).srcs(2);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(eval(add, {f32(inf), f32(-inf)}), kCanonNaN32);
  EXPECT_EQ(eval(add, {0xffc12345u, f32(1)}), kCanonNaN32);  // payload and sign dropped
  EXPECT_EQ(eval(div, {f32(1), f32(0)}), f32(inf));
  EXPECT_EQ(eval(div, {f32(-1), f32(0)}), f32(-inf));
  EXPECT_EQ(eval(div, {f32(1), f32(-0.0f)}), f32(-inf));
  EXPECT_EQ(eval(div, {f32(0), f32(0)}), kCanonNaN32);
  EXPECT_EQ(eval(I(Op::Div, T::F64).rnd(Rounding::Rn).dsts(1).srcs(2), {f64(0), f64(0)}),
            0x7fffffffffffffffull);
}

TEST(Float, FlushToZeroAndSaturation) {
  const float sub = std::numeric_limits<float>::denorm_min() * 5;
  const Inst ftz = I(Op::Add, T::F32).flags(kFtz).dsts(1).srcs(2);
  EXPECT_EQ(eval(ftz, {f32(sub), f32(0)}), f32(0));
  EXPECT_EQ(eval(ftz, {f32(-sub), f32(-0.0f)}), f32(-0.0f));  // sign-preserving
  EXPECT_EQ(eval(I(Op::Add, T::F32).dsts(1).srcs(2), {f32(sub), f32(0)}), f32(sub));
  // A subnormal result is flushed too.
  EXPECT_EQ(eval(I(Op::Mul, T::F32).flags(kFtz).dsts(1).srcs(2), {f32(1e-20f), f32(1e-20f)}),
            f32(0));
  const Inst sat = I(Op::Add, T::F32).flags(kSat).dsts(1).srcs(2);
  EXPECT_EQ(eval(sat, {f32(0.7f), f32(0.7f)}), f32(1));
  EXPECT_EQ(eval(sat, {f32(-3), f32(1)}), f32(0));
  EXPECT_EQ(eval(sat, {f32(0.25f), f32(0.25f)}), f32(0.5f));
  EXPECT_EQ(eval(sat, {0x7fc00000u, f32(1)}), f32(0));  // NaN -> 0
  EXPECT_EQ(eval(I(Op::Fma, T::F32).rnd(Rounding::Rn).flags(kSat | kFtz).dsts(1).srcs(3),
                 {f32(2), f32(3), f32(-5.5f)}),
            f32(0.5f));
}

TEST(Float, MadIsFused) {
  const float a = 1 + 0x1p-23f, c = -(1 + 0x1p-22f);
  EXPECT_EQ(eval(I(Op::Mad, T::F32).rnd(Rounding::Rn).dsts(1).srcs(3), {f32(a), f32(a), f32(c)}),
            f32(0x1p-46f));
}

// 641 * 6700417 = 2^32 + 1, so a * b + 1 = 1 + 2^-24 + 2^-56: just above the midpoint between
// 1 and 1 + 2^-23, and a double holding the sum rounds onto that midpoint.
TEST(Float, FmaBreaksDoubleRoundingTiesTowardTheExactValue) {
  const Inst fma = I(Op::Fma, T::F32).rnd(Rounding::Rn).dsts(1).srcs(3);
  const float a = 641 * 0x1p-28f, b = 6700417 * 0x1p-28f;
  EXPECT_EQ(eval(fma, {f32(a), f32(b), f32(1)}), f32(1 + 0x1p-23f));
  EXPECT_EQ(eval(fma, {f32(-a), f32(b), f32(-1)}), f32(-1 - 0x1p-23f));
  EXPECT_EQ(eval(fma, {f32(a), f32(-b), f32(1 + 0x1p-22f)}), f32(1 + 0x1p-23f));
  // The same at the overflow threshold max + 2^103 (65535 * 65537 = 2^32 - 1).
  const float max = std::numeric_limits<float>::max();
  EXPECT_EQ(eval(fma, {f32(65535 * 0x1p35f), f32(65537 * 0x1p36f), f32(max)}), f32(max));
  EXPECT_EQ(eval(fma, {f32(641 * 0x1p35f), f32(6700417 * 0x1p36f), f32(max)}), f32(INFINITY));
}

TEST(Float, ApproximateAndFullDivision) {
  const Inst approx = I(Op::Div, T::F32).flags(kApprox).dsts(1).srcs(2);
  const Inst full = I(Op::Div, T::F32).flags(kFull).dsts(1).srcs(2);
  // Documented: for 2^126 < |b| < 2^128 the result is 0, or NaN for infinite a.
  EXPECT_EQ(eval(approx, {f32(1), f32(0x1p127f)}), f32(0));
  EXPECT_EQ(eval(approx, {f32(INFINITY), f32(0x1p127f)}), kCanonNaN32);
  Rng rng(3);
  for (int i = 0; i < 1000; ++i) {
    const float a = random_value<float>(rng), b = std::ldexp(1.0f + float(i) / 1000, i % 200 - 100);
    const float want = a / b;
    if (!std::isfinite(want) || std::fpclassify(want) == FP_SUBNORMAL || want == 0) continue;
    const float got = as_f32(eval(approx, {f32(a), f32(b)}));
    EXPECT_LE(std::fabs(got - want),
              2 * (std::nextafter(std::fabs(want), INFINITY) - std::fabs(want)))
        << a << " / " << b;
    EXPECT_EQ(as_f32(eval(full, {f32(a), f32(b)})), want);
  }
}

TEST(Float, MinMaxNaNAndSignedZero) {
  const Inst min = I(Op::Min, T::F32).dsts(1).srcs(2), max = I(Op::Max, T::F32).dsts(1).srcs(2);
  const uint64_t nan = 0x7fc00001u;
  EXPECT_EQ(eval(min, {nan, f32(2)}), f32(2));
  EXPECT_EQ(eval(max, {f32(2), nan}), f32(2));
  EXPECT_EQ(eval(min, {nan, nan}), kCanonNaN32);
  EXPECT_EQ(eval(I(Op::Min, T::F32).flags(kNaN).dsts(1).srcs(2), {nan, f32(2)}), kCanonNaN32);
  EXPECT_EQ(eval(min, {f32(0), f32(-0.0f)}), f32(-0.0f));
  EXPECT_EQ(eval(min, {f32(-0.0f), f32(0)}), f32(-0.0f));
  EXPECT_EQ(eval(max, {f32(-0.0f), f32(0)}), f32(0));
  EXPECT_EQ(eval(max, {f32(0), f32(-0.0f)}), f32(0));
  EXPECT_EQ(eval(min, {f32(-1), f32(-2)}), f32(-2));
  EXPECT_EQ(eval(I(Op::Max, T::F64).dsts(1).srcs(2), {f64(-1), f64(NAN)}), f64(-1));
  // xorsign.abs: |min| with the XOR of the signs.
  const Inst xs = I(Op::Min, T::F32).flags(kXorSign | kAbsInput).dsts(1).srcs(2);
  EXPECT_EQ(eval(xs, {f32(-3), f32(2)}), f32(-2));
  EXPECT_EQ(eval(xs, {f32(-3), f32(-5)}), f32(3));
  EXPECT_EQ(eval(I(Op::Max, T::F32).flags(kAbsInput).dsts(1).srcs(3), {f32(-7), f32(2), f32(5)}),
            f32(7));
  EXPECT_EQ(eval(I(Op::Min, T::F32).dsts(1).srcs(3), {f32(4), nan, f32(-1)}), f32(-1));
  // ftz flushes the inputs: min(subnormal, +0) compares equal zeros.
  const float sub = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(eval(I(Op::Min, T::F32).flags(kFtz).dsts(1).srcs(2), {f32(-sub), f32(0)}), f32(-0.0f));
}

TEST(Float, AbsNegTouchOnlyTheSign) {
  EXPECT_EQ(eval(I(Op::Neg, T::F32).dsts(1).srcs(1), {f32(0)}), f32(-0.0f));
  EXPECT_EQ(eval(I(Op::Abs, T::F32).dsts(1).srcs(1), {0xffc12345u}), 0x7fc12345u);
  EXPECT_EQ(eval(I(Op::Neg, T::F64).dsts(1).srcs(1), {f64(2.5)}), f64(-2.5));
  const float sub = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(eval(I(Op::Abs, T::F32).flags(kFtz).dsts(1).srcs(1), {f32(-sub)}), f32(0));
}

}  // namespace
}  // namespace gpusoc::ptx::test
