// Host reference for sw/kernels/float_conv.cu (tests/kernels/float_conv_test.cpp, the float_conv
// app): the inputs of each kernel and the result of every conversion and rounded operation.
// Everything here is correctly rounded by definition, so results are compared exactly (bit for
// bit; any NaN matches any NaN).
//
// The explicitly rounded operations switch the host's rounding mode at run time: a translation
// unit that calls them must be compiled with -frounding-math.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

inline constexpr Round kModes[4] = {Round::Nearest, Round::Zero, Round::Down, Round::Up};

// ---- float_to_int ------------------------------------------------------------------------------

// Specials: ties, integer-range boundaries, infinities, subnormals; then random values of all
// magnitudes (random bit patterns, NaNs excluded) and of moderate size.
inline std::vector<float> conversion_inputs(int random_count, uint64_t seed) {
  std::vector<float> v = {0.0f,
                          -0.0f,
                          0.5f,
                          1.5f,
                          2.5f,
                          -0.5f,
                          -1.5f,
                          -2.5f,
                          0.49999997f,
                          1e10f,
                          -1e10f,
                          2147483520.0f,
                          2147483648.0f,
                          -2147483648.0f,
                          -2147483904.0f,
                          4294967040.0f,
                          4294967296.0f,
                          1e20f,
                          -1e20f,
                          9223371487098961920.0f,
                          9223372036854775808.0f,
                          -9223372036854775808.0f,
                          1.8446743e19f,
                          1.8446744e19f,
                          HUGE_VALF,
                          -HUGE_VALF,
                          123.456f,
                          -123.456f,
                          1e-40f,
                          -1e-40f,
                          0.99999994f,
                          -0.99999994f,
                          8388609.0f,
                          16777217.0f};
  Rng rng(seed);
  for (int i = 0; i < random_count; ++i) {
    float f;
    do f = u2f(rng.next32());
    while (std::isnan(f));
    v.push_back(f);
    v.push_back(rng.uniform(-1e6f, 1e6f));
    v.push_back(rng.uniform(-4.f, 4.f));
  }
  return v;
}

/// float_to_int of x: s32 and u32 in the four modes; s64 rn, s64 rz, u64 rm, u64 rp.
struct FloatToInt {
  std::array<int32_t, 4> s32;
  std::array<uint32_t, 4> u32;
  std::array<int64_t, 4> s64;
};
inline FloatToInt float_to_int_expected(float x) {
  FloatToInt r;
  for (int m = 0; m < 4; ++m) {
    r.s32[m] = cvt_to_int<int32_t>(x, kModes[m]);
    r.u32[m] = cvt_to_int<uint32_t>(x, kModes[m]);
  }
  r.s64 = {cvt_to_int<int64_t>(x, Round::Nearest), cvt_to_int<int64_t>(x, Round::Zero),
           int64_t(cvt_to_int<uint64_t>(x, Round::Down)),
           int64_t(cvt_to_int<uint64_t>(x, Round::Up))};
  return r;
}

// ---- int_to_float ------------------------------------------------------------------------------

struct IntToFloatInputs {
  std::vector<int> a;
  std::vector<long long> b;
};
inline IntToFloatInputs int_to_float_inputs(int random_count, uint64_t seed) {
  Rng rng(seed);
  IntToFloatInputs in;
  in.a = {0, 1, -1, 16777217, -16777217, 16777219, INT32_MAX, INT32_MIN, 33554435};
  in.b = {0,
          -1,
          (1LL << 53) + 1,
          INT64_MAX,
          INT64_MIN,
          -((1LL << 40) + 3),
          (1LL << 24) + 1,
          9007199791611905LL,
          -7};
  for (int i = 0; i < random_count; ++i) {
    in.a.push_back(static_cast<int>(rng.next32()) >> (i % 31));
    in.b.push_back(static_cast<long long>(rng.next64()) >> (i % 63));
  }
  return in;
}

/// The 10 results of int_to_float for (a, b), in the kernel's order.
inline std::array<float, 10> int_to_float_expected(int a, long long b) {
  const long double x = a, ux = static_cast<uint32_t>(a), y = b, uy = static_cast<uint64_t>(b);
  return {round_to_float(x, Round::Nearest),  round_to_float(x, Round::Zero),
          round_to_float(x, Round::Down),     round_to_float(x, Round::Up),
          round_to_float(ux, Round::Nearest), round_to_float(ux, Round::Zero),
          round_to_float(y, Round::Nearest),  round_to_float(y, Round::Up),
          round_to_float(uy, Round::Down),    round_to_float(x, Round::Nearest)};
}

// ---- float_round -------------------------------------------------------------------------------

struct FloatPairs {
  std::vector<float> a, b;
};
inline FloatPairs float_round_inputs(int random_count, uint64_t seed) {
  FloatPairs in;
  in.a = {0.5f, 1.5f, 2.5f,  -0.5f, -2.5f, 1e-45f, 3e38f,     -3e38f,     1.0000001f,   8388609.0f,
          0.0f, 1.0f, -1.0f, 0.75f, 1.25f, -7.5f,  HUGE_VALF, -HUGE_VALF, std::nanf("")};
  in.b = {3.0f, -3.0f,  0.1f, 1e-30f, -7.0f, 1e30f, 3.0f, 3.0f, 0.7f, -0.3f,
          5.0f, 1e-38f, 2.0f, -1.0f,  4.0f,  3.0f,  2.0f, 2.0f, 1.0f};
  Rng rng(seed);
  for (int i = 0; i < random_count; ++i) {
    in.a.push_back(rng.uniform(-1000, 1000));
    float y = rng.uniform(0.01f, 100.f);
    in.b.push_back(i % 2 ? y : -y);
  }
  return in;
}

inline constexpr const char* kFloatRoundNames[16] = {
    "rintf",     "truncf",    "floorf",      "ceilf",      "roundf",    "__fadd_rz",
    "__fadd_ru", "__fmul_rd", "__fmul_ru",   "__fdiv_rz",  "__fdiv_rn", "__fsqrt_rd",
    "__frcp_rn", "__fmaf_rz", "__saturatef", "fminf-fmaxf"};

/// Result j of float_round for (x, y), each operation under its rounding mode.
inline float float_round_expected(int j, float x, float y) {
  auto op = [&](Round r, auto f) {
    return in_rounding_mode(r, [&] {
      volatile float vx = x, vy = y;
      volatile float out = f(static_cast<float>(vx), static_cast<float>(vy));
      return static_cast<float>(out);
    });
  };
  switch (j) {
    case 0:
      return std::nearbyint(x);
    case 1:
      return std::trunc(x);
    case 2:
      return std::floor(x);
    case 3:
      return std::ceil(x);
    case 4:
      return std::round(x);
    case 5:
      return op(Round::Zero, [](float a, float b) { return a + b; });
    case 6:
      return op(Round::Up, [](float a, float b) { return a + b; });
    case 7:
      return op(Round::Down, [](float a, float b) { return a * b; });
    case 8:
      return op(Round::Up, [](float a, float b) { return a * b; });
    case 9:
      return op(Round::Zero, [](float a, float b) { return a / b; });
    case 10:
      return op(Round::Nearest, [](float a, float b) { return a / b; });
    case 11:
      return op(Round::Down, [](float a, float) { return std::sqrt(std::fabs(a)); });
    case 12:
      return op(Round::Nearest, [](float, float b) { return 1.0f / b; });
    case 13:
      return op(Round::Zero, [](float a, float b) { return std::fma(a, b, 1.0f); });
    case 14:
      return std::isnan(x) ? 0.0f : std::min(1.0f, std::max(0.0f, x));  // __saturatef
    case 15:
      return std::fmin(x, y) - std::fmax(x, y);
  }
  return 0;
}

/// Whether result j of float_round matches: bit for bit (any NaN for a NaN), except that
/// __saturatef's value matters, not the sign of a zero.
inline bool float_round_matches(int j, float got, float want) {
  return j == 14 ? got == want : same_float(got, want);
}

// ---- half_convert ------------------------------------------------------------------------------

inline std::vector<float> half_convert_inputs(int random_count, uint64_t seed) {
  std::vector<float> in = {
      0.0f,          -0.0f,         1.0f,   -1.0f,     1.0f / 3,      65504.0f,     65519.996f,
      65520.0f,      -65520.0f,     1e5f,   -1e5f,     6.1035156e-5f, 6.0e-8f,      5.9604645e-8f,
      2.9802322e-8f, 2.9802326e-8f, 1e-10f, -1e-10f,   3.3895314e38f, 3.39e38f,     -3.4e38f,
      1.00390625f,   1.005859375f,  1e-40f, HUGE_VALF, -HUGE_VALF,    std::nanf("")};
  Rng rng(seed);
  for (int i = 0; i < random_count; ++i) {
    float f;
    do f = u2f(rng.next32());
    while (std::isnan(f));
    in.push_back(f);
    in.push_back(rng.uniform(-70000, 70000));
    in.push_back(rng.uniform(-1e-4f, 1e-4f));
  }
  return in;
}

/// half_convert of a non-NaN x: f16 bits in the four modes, bf16 bits in the four modes, and
/// the f16 rn and bf16 rn values converted back.
struct HalfConvert {
  std::array<uint16_t, 8> bits;
  std::array<float, 2> back;
};
inline HalfConvert half_convert_expected(float x) {
  HalfConvert r;
  for (int m = 0; m < 4; ++m) {
    r.bits[m] = to_half_bits(x, kModes[m]);
    r.bits[4 + m] = to_bf16_bits(x, kModes[m]);
  }
  r.back = {float(half_value(to_half_bits(x))), float(bf16_value(to_bf16_bits(x)))};
  return r;
}

/// half_convert of NaN: every f16/bf16 result is a NaN, and so are both floats back.
inline bool half_convert_of_nan_ok(const uint16_t* bits, const float* back) {
  for (int m = 0; m < 4; ++m)
    if (!half_is_nan(bits[m]) || !bf16_is_nan(bits[4 + m])) return false;
  return std::isnan(back[0]) && std::isnan(back[1]);
}

// ---- half_arith --------------------------------------------------------------------------------

// 16-bit arithmetic rounds the exact result once. Operands are kept where the exact results
// are representable in double (|operands| in [2^-6, 8] for f16 and [2^-8, 2^8] for bf16, plus
// a few overflow and subnormal cases), so rounding the double result once is the reference.
struct HalfArithInputs {
  std::vector<uint16_t> a, b, c;  // f16
  std::vector<uint16_t> p, q;     // bf16
};
inline HalfArithInputs half_arith_inputs(int random_count, uint64_t seed) {
  Rng rng(seed);
  auto moderate = [&](double lo_exp, double hi_exp) {
    double mag = std::ldexp(rng.uniform_double(1, 2),
                            static_cast<int>(rng.integer(int64_t(lo_exp), int64_t(hi_exp))));
    return rng.next32() & 1 ? -mag : mag;
  };
  HalfArithInputs in;
  in.a = {to_half_bits(65504), to_half_bits(-65504), to_half_bits(0x1p-10), to_half_bits(1)};
  in.b = {to_half_bits(65504), to_half_bits(-1), to_half_bits(0x1p-10), to_half_bits(1)};
  in.c = {to_half_bits(1), to_half_bits(2), to_half_bits(0x1p-20), to_half_bits(-1)};
  in.p = {to_bf16_bits(3), to_bf16_bits(0x1p-8), to_bf16_bits(-255), to_bf16_bits(1)};
  in.q = {to_bf16_bits(1.0 / 3), to_bf16_bits(0x1p-8), to_bf16_bits(255), to_bf16_bits(-1)};
  for (int i = 0; i < random_count; ++i) {
    in.a.push_back(to_half_bits(moderate(-6, 2)));
    in.b.push_back(to_half_bits(moderate(-6, 2)));
    in.c.push_back(to_half_bits(moderate(-6, 2)));
    in.p.push_back(to_bf16_bits(moderate(-8, 7)));
    in.q.push_back(to_bf16_bits(moderate(-8, 7)));
  }
  return in;
}

inline constexpr const char* kHalfArithNames[10] = {
    "__hadd", "__hmul",      "__hfma",       "__hsub(x, -y)", "__hmax",
    "__hlt",  "__hfma2 low", "__hfma2 high", "bf16 fma",      "bf16 mul"};

/// The 10 results of half_arith for element i.
inline std::array<uint16_t, 10> half_arith_expected(const HalfArithInputs& in, size_t i) {
  const double x = half_value(in.a[i]), y = half_value(in.b[i]), z = half_value(in.c[i]);
  const double s = bf16_value(in.p[i]), t = bf16_value(in.q[i]);
  return {to_half_bits(x + y),     to_half_bits(x * y),       to_half_bits(x * y + z),
          to_half_bits(x + y),     x > y ? in.a[i] : in.b[i], uint16_t(x < y ? 1 : 0),
          to_half_bits(x * y + z), to_half_bits(y * z + x),   to_bf16_bits(s * t + s),
          to_bf16_bits(s * t)};
}

}  // namespace gpusoc::apps::reference
