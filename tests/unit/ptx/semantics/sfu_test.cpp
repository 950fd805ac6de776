// rcp, sqrt, rsqrt and the transcendentals: IEEE forms against host arithmetic under
// fesetround, .approx forms against double-precision references and the PTX ISA's error bounds.
#include <cfenv>
#include <cmath>
#include <limits>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;
constexpr Rounding kModes[] = {Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp};
constexpr int kHostModes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

template <class F>
F host_under(int mode, F x, bool is_sqrt) {
  volatile F v = x;
  std::fesetround(mode);
  volatile F r = is_sqrt ? std::sqrt(F(v)) : F(1) / v;
  std::fesetround(FE_TONEAREST);
  return r;
}

template <class F>
uint64_t bits(F x) {
  return sizeof(F) == 4 ? f32(float(x)) : f64(double(x));
}

template <class F>
void check_ieee_rcp_sqrt(T type) {
  Rng rng(5);
  for (int i = 0; i < 2000; ++i) {
    const F x =
        std::ldexp(F(1) + F(rng.next() % 1000000) / F(1000000), int(rng.next() % 200) - 100);
    for (int m = 0; m < 4; ++m) {
      for (Op op : {Op::Rcp, Op::Sqrt}) {
        const uint64_t got = eval(I(op, type).rnd(kModes[m]).dsts(1).srcs(1), {bits(x)});
        EXPECT_EQ(got, bits(host_under(kHostModes[m], x, op == Op::Sqrt))) << x << " mode " << m;
      }
    }
  }
}

TEST(Sfu, IeeeRcpAndSqrtInAllRoundingModes) {
  check_ieee_rcp_sqrt<float>(T::F32);
  check_ieee_rcp_sqrt<double>(T::F64);
}

TEST(Sfu, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const auto f = [](Op op, uint16_t flags, float x) {
    return eval(I(op, T::F32).flags(flags).dsts(1).srcs(1), {f32(x)});
  };
  EXPECT_EQ(f(Op::Sqrt, 0, -0.0f), f32(-0.0f));
  EXPECT_EQ(f(Op::Sqrt, 0, -1), kCanonNaN32);
  EXPECT_EQ(f(Op::Rcp, kApprox, -0.0f), f32(-inf));
  EXPECT_EQ(f(Op::Rcp, kApprox, inf), f32(0));
  EXPECT_EQ(f(Op::Rsqrt, kApprox, 0), f32(inf));
  EXPECT_EQ(f(Op::Rsqrt, kApprox, -0.0f), f32(-inf));
  EXPECT_EQ(f(Op::Rsqrt, kApprox, -4), kCanonNaN32);
  EXPECT_EQ(f(Op::Rsqrt, kApprox, 4), f32(0.5f));
  EXPECT_EQ(f(Op::Sin, kApprox, inf), kCanonNaN32);
  EXPECT_EQ(f(Op::Sin, kApprox, -0.0f), f32(-0.0f));
  EXPECT_EQ(f(Op::Cos, kApprox, 0), f32(1));
  EXPECT_EQ(f(Op::Ex2, kApprox, -inf), f32(0));
  EXPECT_EQ(f(Op::Ex2, kApprox, inf), f32(inf));
  EXPECT_EQ(f(Op::Ex2, kApprox, 10), f32(1024));
  EXPECT_EQ(f(Op::Lg2, kApprox, 0), f32(-inf));
  EXPECT_EQ(f(Op::Lg2, kApprox, -1), kCanonNaN32);
  EXPECT_EQ(f(Op::Lg2, kApprox, inf), f32(inf));
  EXPECT_EQ(f(Op::Tanh, kApprox, -inf), f32(-1));
  // .ftz: a subnormal input is zero, a subnormal result is flushed.
  const float sub = std::numeric_limits<float>::denorm_min() * 8;
  EXPECT_EQ(f(Op::Lg2, kApprox | kFtz, sub), f32(-inf));
  EXPECT_EQ(f(Op::Lg2, kApprox, sub), f32(-146));
  EXPECT_EQ(f(Op::Ex2, kApprox | kFtz, -140), f32(0));
  EXPECT_EQ(f(Op::Rcp, kApprox | kFtz, sub), f32(inf));
  EXPECT_EQ(eval(I(Op::Rcp, T::F64).flags(kApprox | kFtz).dsts(1).srcs(1), {f64(4)}), f64(0.25));
  EXPECT_EQ(eval(I(Op::Rsqrt, T::F64).flags(kApprox).dsts(1).srcs(1), {f64(16)}), f64(0.25));
}

/// The largest error of an approximate op over a sweep, in units of `scale(reference)`.
template <class Ref, class Scale>
double max_error(Op op, uint16_t flags, double lo, double hi, int steps, Ref ref, Scale scale) {
  double worst = 0;
  Warp w;
  for (int base = 0; base < steps; base += int(kWarpSize)) {
    w.set(1, [&](unsigned l) { return f32(float(lo + (hi - lo) * (base + int(l)) / steps)); });
    run(I(op, T::F32).flags(kApprox | flags).dsts(1).srcs(1), w);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const double x = as_f32(w.at(1, l)), want = ref(x);
      const double err = std::fabs(double(as_f32(w.at(kDst, l))) - want) / scale(want);
      worst = std::max(worst, err);
    }
  }
  return worst;
}

TEST(Sfu, ApproximationsAreWithinDocumentedBounds) {
  const auto absolute = [](double) { return 1.0; };
  const auto relative = [](double r) { return std::fabs(r); };
  const double pi = 3.14159265358979323846;
  // sin/cos: maximum absolute error 2^-20.9 over -100 pi .. 100 pi.
  EXPECT_LE(
      max_error(
          Op::Sin, 0, -100 * pi, 100 * pi, 200000, [](double x) { return std::sin(x); }, absolute),
      std::exp2(-20.9));
  EXPECT_LE(
      max_error(
          Op::Cos, 0, -100 * pi, 100 * pi, 200000, [](double x) { return std::cos(x); }, absolute),
      std::exp2(-20.9));
  // ex2: 2 ulp relative; lg2: 2^-22.6 absolute near 1, relative elsewhere; rsqrt 2^-22.9
  // relative; rcp 1 ulp; tanh 2^-11 relative.
  EXPECT_LE(max_error(
                Op::Ex2, 0, -120, 120, 100000, [](double x) { return std::exp2(x); }, relative),
            std::exp2(-22));
  EXPECT_LE(max_error(
                Op::Lg2, 0, 0.5, 2, 100000, [](double x) { return std::log2(x); }, absolute),
            std::exp2(-22.6));
  EXPECT_LE(max_error(
                Op::Lg2, 0, 2, 1e30, 100000, [](double x) { return std::log2(x); }, relative),
            std::exp2(-22));
  EXPECT_LE(
      max_error(
          Op::Rsqrt, 0, 1e-30, 1e30, 100000, [](double x) { return 1 / std::sqrt(x); }, relative),
      std::exp2(-22.9));
  EXPECT_LE(max_error(
                Op::Rcp, 0, -1e30, 1e30, 100000, [](double x) { return 1 / x; }, relative),
            std::exp2(-23));
  EXPECT_LE(max_error(
                Op::Sqrt, 0, 0, 1e30, 100000, [](double x) { return std::sqrt(x); },
                [](double r) { return r == 0 ? 1 : r; }),
            std::exp2(-23));
  EXPECT_LE(max_error(
                Op::Tanh, 0, -10, 10, 100000, [](double x) { return std::tanh(x); },
                [](double r) { return r == 0 ? 1 : std::fabs(r); }),
            std::exp2(-11));
}

TEST(Sfu, HalfPrecisionEx2AndTanh) {
  for (uint32_t h = 0; h < 0x10000; h += 7) {
    _Float16 x;
    const uint16_t hb = uint16_t(h);
    std::memcpy(&x, &hb, 2);
    const _Float16 want = _Float16(std::exp2(double(float(x))));
    uint16_t wb;
    std::memcpy(&wb, &want, 2);
    if (want != want) wb = 0x7fff;
    EXPECT_EQ(eval(I(Op::Ex2, T::F16).flags(kApprox).dsts(1).srcs(1), {h}), wb) << std::hex << h;
  }
  EXPECT_EQ(eval(I(Op::Tanh, T::BF16x2).flags(kApprox).dsts(1).srcs(1), {0x7f800000u}),
            0x3f800000u);  // {tanh(inf), tanh(0)} = {1, 0}
}

TEST(Sfu, CopysignTakesTheSignOfA) {
  const Inst cs = I(Op::Copysign, T::F32).dsts(1).srcs(2);
  EXPECT_EQ(eval(cs, {f32(-1), f32(2.5f)}), f32(-2.5f));
  EXPECT_EQ(eval(cs, {f32(1), f32(-2.5f)}), f32(2.5f));
  EXPECT_EQ(eval(cs, {f32(-0.0f), 0x7fc00001u}), 0xffc00001u);
  EXPECT_EQ(eval(I(Op::Copysign, T::F64).dsts(1).srcs(2), {f64(-3), f64(4)}), f64(-4));
}

TEST(Sfu, Testp) {
  const float inf = std::numeric_limits<float>::infinity();
  const float sub = std::numeric_limits<float>::denorm_min();
  const float values[] = {0.0f, -1.5f, inf, -inf, NAN, sub};
  // finite, infinite, number, notanumber, normal, subnormal for each value.
  const bool expected[6][6] = {{1, 0, 1, 0, 0, 0}, {1, 0, 1, 0, 1, 0}, {0, 1, 1, 0, 0, 0},
                               {0, 1, 1, 0, 0, 0}, {0, 0, 0, 1, 0, 0}, {1, 0, 1, 0, 0, 1}};
  for (int v = 0; v < 6; ++v) {
    for (int m = 0; m < 6; ++m) {
      EXPECT_EQ(eval(I(Op::Testp, T::F32).sub(uint8_t(m)).dsts(1).srcs(1), {f32(values[v])}),
                uint64_t(expected[v][m]))
          << "value " << v << " mode " << m;
      EXPECT_EQ(eval(I(Op::Testp, T::F64).sub(uint8_t(m)).dsts(1).srcs(1),
                     {f64(v == 5 ? std::numeric_limits<double>::denorm_min() : values[v])}),
                uint64_t(expected[v][m]));
    }
  }
}

}  // namespace
}  // namespace gpusoc::ptx::test
