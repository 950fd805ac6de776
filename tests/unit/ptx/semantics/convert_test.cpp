// cvt and mov. References: host conversions under fesetround (including libgcc's _Float16
// conversions), bit-level bf16 rounding, long-double integer rounding and known encodings.
#include <cfenv>
#include <cmath>
#include <limits>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;
constexpr Rounding kModes[] = {Rounding::Rn, Rounding::Rz, Rounding::Rm, Rounding::Rp};
constexpr int kHostModes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

uint64_t cvt(T dst, T src, Rounding r, uint64_t a, uint16_t flags = 0) {
  return eval(I(Op::Cvt, dst).type2(src).rnd(r).flags(flags).dsts(1).srcs(1), {a});
}

/// Host conversion of x to To in host rounding mode `mode`.
template <class To, class From>
To host_convert(From x, int mode) {
  volatile From v = x;
  std::fesetround(mode);
  volatile To r = To(v);
  std::fesetround(FE_TONEAREST);
  return r;
}

template <class V>
uint64_t bits_of(V v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

TEST(Convert, IntegerToInteger) {
  EXPECT_EQ(cvt(T::U8, T::U32, Rounding::None, 0x1ff), 0xffu);
  EXPECT_EQ(cvt(T::S8, T::S32, Rounding::None, 0x80), s64(-128));
  EXPECT_EQ(cvt(T::S32, T::S8, Rounding::None, 0x80), s32(-128));
  EXPECT_EQ(cvt(T::U32, T::S8, Rounding::None, 0xff), 0xffffffffu);  // sign-extend, then u32
  EXPECT_EQ(cvt(T::U64, T::U16, Rounding::None, 0xfffff), 0xffffu);
  EXPECT_EQ(cvt(T::U16, T::S32, Rounding::None, s32(-5), kSat), 0u);
  EXPECT_EQ(cvt(T::S8, T::U32, Rounding::None, 300, kSat), 127u);
  EXPECT_EQ(cvt(T::S8, T::S32, Rounding::None, s32(-300), kSat), s64(-128));
  EXPECT_EQ(cvt(T::U64, T::S64, Rounding::None, s64(-1), kSat), 0u);
  EXPECT_EQ(cvt(T::S64, T::U64, Rounding::None, 0x8000000000000000ull, kSat), s64(INT64_MAX));
  EXPECT_EQ(cvt(T::U32, T::U64, Rounding::None, 0x100000000ull, kSat), 0xffffffffu);
  EXPECT_EQ(cvt(T::S32, T::U32, Rounding::None, 0x80000000u, kSat), s32(INT32_MAX));
}

TEST(Convert, FloatToIntegerRoundsAndSaturates) {
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rzi, f32(3.7f)), 3u);
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::None, f32(-3.7f)), s32(-3));  // default: toward zero
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rni, f32(2.5f)), 2u);
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rni, f32(3.5f)), 4u);
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rmi, f32(-0.5f)), s32(-1));
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rpi, f32(0.1f)), 1u);
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rzi, f32(NAN)), 0u);
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rzi, f32(1e10f)), s32(INT32_MAX));
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rzi, f32(-INFINITY)), s32(INT32_MIN));
  EXPECT_EQ(cvt(T::U32, T::F32, Rounding::Rzi, f32(-1)), 0u);
  EXPECT_EQ(cvt(T::U32, T::F32, Rounding::Rzi, f32(-0.0f)), 0u);
  EXPECT_EQ(cvt(T::U8, T::F32, Rounding::Rni, f32(300)), 255u);
  EXPECT_EQ(cvt(T::S8, T::F16, Rounding::Rni, 0xd800), s64(-128));  // -128.0
  EXPECT_EQ(cvt(T::U64, T::F64, Rounding::Rni, f64(1e20)), ~uint64_t(0));
  EXPECT_EQ(cvt(T::S64, T::F64, Rounding::Rzi, f64(0x1p63)), s64(INT64_MAX));
  EXPECT_EQ(cvt(T::S64, T::F64, Rounding::Rzi, f64(-0x1p63)), s64(INT64_MIN));
  EXPECT_EQ(cvt(T::S64, T::F32, Rounding::Rzi, f32(-0x1p62f)), s64(-(int64_t(1) << 62)));
  // .ftz: a negative subnormal is -0, which rounds down to 0 rather than -1.
  const float sub = -std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rmi, f32(sub)), s32(-1));
  EXPECT_EQ(cvt(T::S32, T::F32, Rounding::Rmi, f32(sub), kFtz), 0u);
}

template <class D>
uint64_t reference_float_to_int(long double x, int mode) {
  if (x != x) return 0;
  const long double r = mode == 0   ? std::nearbyint(x)
                        : mode == 1 ? std::trunc(x)
                        : mode == 2 ? std::floor(x)
                                    : std::ceil(x);
  const long double lo = std::numeric_limits<D>::min(), hi = std::numeric_limits<D>::max();
  const D v = r <= lo   ? std::numeric_limits<D>::min()
              : r >= hi ? std::numeric_limits<D>::max()
                        : D(r);
  return std::is_signed_v<D> ? uint64_t(int64_t(v)) : uint64_t(v);
}

TEST(Convert, FloatToIntegerSweep) {
  constexpr Rounding kIntModes[] = {Rounding::Rni, Rounding::Rzi, Rounding::Rmi, Rounding::Rpi};
  Rng rng(21);
  for (int i = 0; i < 3000; ++i) {
    const double x = std::ldexp(double(int64_t(rng.next())) / 0x1p63, int(rng.next() % 70)) +
                     (i % 7 == 0 ? 0.5 : 0);
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ(cvt(T::S32, T::F64, kIntModes[m], f64(x)), reference_float_to_int<int32_t>(x, m));
      EXPECT_EQ(cvt(T::U32, T::F64, kIntModes[m], f64(x)), reference_float_to_int<uint32_t>(x, m));
      EXPECT_EQ(cvt(T::S64, T::F64, kIntModes[m], f64(x)), reference_float_to_int<int64_t>(x, m));
      EXPECT_EQ(cvt(T::U64, T::F64, kIntModes[m], f64(x)), reference_float_to_int<uint64_t>(x, m))
          << x;
      EXPECT_EQ(cvt(T::S16, T::F32, kIntModes[m], f32(float(x))),
                reference_float_to_int<int16_t>(float(x), m));
    }
  }
}

TEST(Convert, IntegerToFloatInAllRoundingModes) {
  Rng rng(22);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t u = rng.next() >> (rng.next() % 64);
    const int64_t s = int64_t(rng.next()) >> (rng.next() % 64);
    for (int m = 0; m < 4; ++m) {
      const int hm = kHostModes[m];
      EXPECT_EQ(cvt(T::F32, T::U64, kModes[m], u), bits_of(host_convert<float>(u, hm)));
      EXPECT_EQ(cvt(T::F32, T::S64, kModes[m], uint64_t(s)), bits_of(host_convert<float>(s, hm)));
      EXPECT_EQ(cvt(T::F64, T::U64, kModes[m], u), bits_of(host_convert<double>(u, hm)));
      EXPECT_EQ(cvt(T::F64, T::S64, kModes[m], uint64_t(s)), bits_of(host_convert<double>(s, hm)));
      EXPECT_EQ(cvt(T::F16, T::S64, kModes[m], uint64_t(s)), bits_of(host_convert<_Float16>(s, hm)))
          << s << " mode " << m;
      EXPECT_EQ(cvt(T::F16, T::U32, kModes[m], uint32_t(u)),
                bits_of(host_convert<_Float16>(uint32_t(u), hm)));
    }
  }
  EXPECT_EQ(cvt(T::F32, T::S32, Rounding::Rn, 16777217), f32(16777216));
  EXPECT_EQ(cvt(T::F32, T::S32, Rounding::Rp, 16777217), f32(16777218));
  // bf16 from a 64-bit integer needs a single rounding: 2^60 + 2^52 + 1 lies just above the
  // midpoint between 2^60 and 2^60 + 2^53 (a detour through double would land on the midpoint).
  const uint64_t above = (uint64_t(1) << 60) + (uint64_t(1) << 52) + 1;
  EXPECT_EQ(cvt(T::BF16, T::U64, Rounding::Rn, above), 0x5d81u);
  EXPECT_EQ(cvt(T::BF16, T::U64, Rounding::Rn, above - 1), 0x5d80u);  // tie: to even
  EXPECT_EQ(cvt(T::BF16, T::S32, Rounding::Rm, s32(-257)), 0xc381u);  // -258
}

uint16_t bf16_reference(float x, int mode) {
  const uint32_t b = uint32_t(f32(x)), hi = b >> 16, low = b & 0xffff;
  const bool neg = b >> 31;
  switch (mode) {
    case 0:
      return uint16_t((b + 0x7fff + (hi & 1)) >> 16);
    case 1:
      return uint16_t(hi);
    case 2:
      return uint16_t(low && neg ? hi + 1 : hi);
    default:
      return uint16_t(low && !neg ? hi + 1 : hi);
  }
}

TEST(Convert, NarrowingFloatConversionsInAllRoundingModes) {
  Rng rng(23);
  for (int i = 0; i < 20000; ++i) {
    // Exponents around the f16 range, including its subnormals and overflow.
    const double d = std::ldexp(double(rng.next() >> 11) / 0x1p53, int(rng.next() % 50) - 30) *
                     (rng.next() & 1 ? -1 : 1);
    const float x = float(d);
    const float wide = as_f32(rng.next() & 0xffffffffu);
    for (int m = 0; m < 4; ++m) {
      const int hm = kHostModes[m];
      EXPECT_EQ(cvt(T::F16, T::F32, kModes[m], f32(x)), bits_of(host_convert<_Float16>(x, hm)))
          << x << " mode " << m;
      EXPECT_EQ(cvt(T::F16, T::F64, kModes[m], f64(d)), bits_of(host_convert<_Float16>(d, hm)))
          << d << " mode " << m;
      EXPECT_EQ(cvt(T::F32, T::F64, kModes[m], f64(d * 1e-30)),
                bits_of(host_convert<float>(d * 1e-30, hm)));
      if (wide == wide) {
        EXPECT_EQ(cvt(T::BF16, T::F32, kModes[m], f32(wide)), bf16_reference(wide, m))
            << wide << " mode " << m;
      }
    }
  }
}

TEST(Convert, KnownHalfEncodings) {
  const auto f16 = [](float x, Rounding r = Rounding::Rn) {
    return cvt(T::F16, T::F32, r, f32(x));
  };
  EXPECT_EQ(f16(1.0f), 0x3c00u);
  EXPECT_EQ(f16(-2.0f), 0xc000u);
  EXPECT_EQ(f16(65504.0f), 0x7bffu);
  EXPECT_EQ(f16(65520.0f), 0x7c00u);                // overflows to inf
  EXPECT_EQ(f16(65520.0f, Rounding::Rz), 0x7bffu);  // or the largest finite value
  EXPECT_EQ(f16(-1e9f, Rounding::Rp), 0xfbffu);
  EXPECT_EQ(f16(0x1p-24f), 0x0001u);  // smallest subnormal
  EXPECT_EQ(f16(0x1p-25f), 0x0000u);  // tie between 0 and 2^-24: even
  EXPECT_EQ(f16(0x1.8p-25f), 0x0001u);
  EXPECT_EQ(f16(0x1p-25f, Rounding::Rp), 0x0001u);
  EXPECT_EQ(f16(0x1.ffcp-15f), 0x0400u);  // rounds up into the smallest normal
  EXPECT_EQ(f16(1 + 0x1p-11f), 0x3c00u);  // tie: to even
  EXPECT_EQ(f16(1 + 0x3p-11f), 0x3c02u);  // tie: to even (up)
  EXPECT_EQ(f16(-0.0f), 0x8000u);
  EXPECT_EQ(f16(INFINITY), 0x7c00u);
  EXPECT_EQ(f16(NAN), 0x7fffu);
  EXPECT_EQ(cvt(T::BF16, T::F32, Rounding::Rn, f32(NAN)), 0x7fffu);
  EXPECT_EQ(cvt(T::BF16, T::F16, Rounding::Rn, 0x3c00), 0x3f80u);  // f16 -> bf16
  EXPECT_EQ(cvt(T::F16, T::BF16, Rounding::Rn, 0x4780), 0x7c00u);  // 65536 overflows
}

TEST(Convert, WideningSameTypeSatReluFtz) {
  EXPECT_EQ(cvt(T::F32, T::F16, Rounding::None, 0x0001), f32(0x1p-24f));
  EXPECT_EQ(cvt(T::F32, T::F16, Rounding::None, 0xfc00), f32(-INFINITY));
  EXPECT_EQ(cvt(T::F32, T::BF16, Rounding::None, 0xc049), f32(-3.140625f));
  EXPECT_EQ(cvt(T::F64, T::F32, Rounding::None, f32(0.1f)), f64(double(0.1f)));
  EXPECT_EQ(cvt(T::F64, T::F32, Rounding::None, 0x7fc12345u), 0x7fffffffffffffffull);
  EXPECT_EQ(cvt(T::F32, T::F32, Rounding::Rni, f32(2.5f)), f32(2));
  EXPECT_EQ(cvt(T::F32, T::F32, Rounding::Rmi, f32(-0.5f)), f32(-1));
  EXPECT_EQ(cvt(T::F32, T::F32, Rounding::Rpi, f32(-0.5f)), f32(-0.0f));
  EXPECT_EQ(cvt(T::F64, T::F64, Rounding::Rzi, f64(-7.9)), f64(-7));
  EXPECT_EQ(cvt(T::F16, T::F16, Rounding::Rpi, 0x3e00), 0x4000u);  // 1.5 -> 2
  EXPECT_EQ(cvt(T::F32, T::F32, Rounding::None, f32(1.5f), kSat), f32(1));
  EXPECT_EQ(cvt(T::F32, T::F32, Rounding::None, f32(NAN), kSat), f32(0));
  EXPECT_EQ(cvt(T::F16, T::F32, Rounding::Rn, f32(-2), kSat), 0u);
  EXPECT_EQ(cvt(T::F32, T::S32, Rounding::Rn, 3, kSat), f32(1));
  EXPECT_EQ(cvt(T::F16, T::F32, Rounding::Rn, f32(-3), kRelu), 0u);
  EXPECT_EQ(cvt(T::F16, T::F32, Rounding::Rn, f32(NAN), kRelu), 0x7fffu);
  EXPECT_EQ(cvt(T::BF16, T::F32, Rounding::Rz, f32(2.5f), kRelu), 0x4020u);
  const float sub = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(cvt(T::F32, T::F32, Rounding::None, f32(-sub), kFtz), f32(-0.0f));
  EXPECT_EQ(cvt(T::F64, T::F32, Rounding::None, f32(sub), kFtz), f64(0));
  EXPECT_EQ(cvt(T::F32, T::F64, Rounding::Rn, f64(1e-40), kFtz), f32(0));
  EXPECT_EQ(cvt(T::F32, T::F64, Rounding::Rn, f64(1e-40)), f32(1e-40f));
}

TEST(Convert, PackedX2FromTwoF32) {
  const auto x2 = [](T t, Rounding r, float a, float b, uint16_t flags = 0) {
    return eval(I(Op::Cvt, t).type2(T::F32).rnd(r).flags(flags).dsts(1).srcs(2), {f32(a), f32(b)});
  };
  EXPECT_EQ(x2(T::F16x2, Rounding::Rn, 1, 2), 0x3c004000u);  // a in the upper half
  EXPECT_EQ(x2(T::BF16x2, Rounding::Rz, -1, 3.1f), 0xbf804046u);
  EXPECT_EQ(x2(T::F16x2, Rounding::Rn, -1, 2, kRelu), 0x00004000u);
}

TEST(Convert, MovPackUnpack) {
  EXPECT_EQ(eval(I(Op::Mov, T::U32).dsts(1).srcs(1), {0xffffffff00000005ull}), 5u);
  EXPECT_EQ(eval(I(Op::Mov, T::S16).dsts(1).imm(s64(-2)), {}), s64(-2));
  EXPECT_EQ(eval(I(Op::Mov, T::F32).dsts(1).srcs(1), {0x7fc12345u}), 0x7fc12345u);
  EXPECT_EQ(eval(I(Op::Mov, T::Pred).dsts(1).src_reg(1, true), {1}), 0u);
  EXPECT_EQ(
      eval(I(Op::Pack, T::B64).type2(T::B32).dsts(1).srcs(2), {0xffffffff11111111ull, 0x22222222}),
      0x2222222211111111ull);
  EXPECT_EQ(eval(I(Op::Pack, T::B64).type2(T::B16).dsts(1).srcs(4), {1, 2, 3, 0x12345}),
            0x2345000300020001ull);
  EXPECT_EQ(eval(I(Op::Pack, T::B32).type2(T::B16).dsts(1).srcs(1).imm(0xabcd), {0x1234}),
            0xabcd1234u);
  Warp w;
  w.set_all(1, 0x4444333322221111ull);
  run(I(Op::Unpack, T::B64).type2(T::B16).dst_reg(1).sink().dst_reg(3).dst_reg(4).src_reg(1), w);
  EXPECT_EQ(w.at(1, 7), 0x1111u);  // the destination may be the source register
  EXPECT_EQ(w.at(2, 7), kPoison);  // _
  EXPECT_EQ(w.at(3, 7), 0x3333u);
  EXPECT_EQ(w.at(4, 7), 0x4444u);
}

}  // namespace
}  // namespace gpusoc::ptx::test
