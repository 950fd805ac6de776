// Host reference for sw/kernels/math.cu (tests/kernels/math_test.cpp, the math app): inputs
// and the check of every result against its documented bound.
//
// Tolerances come from the CUDA C++ Programming Guide, "Mathematical Functions" appendix:
//   sinf, cosf, expf, tanhf: 2 ulp; logf: 1 ulp (full range); sqrtf and x/y: 0 ulp (IEEE,
//   -prec-sqrt/-prec-div default true); exp2f: 2 ulp; rsqrtf: 2 ulp;
//   __sinf(x): absolute error <= 2^-21.41 for x in [-pi, pi]; __cosf(x): <= 2^-21.19 there;
//   __expf(x): 2 + floor(|1.173 * x|) ulp; __logf(x): absolute 2^-21.41 for x in [0.5, 2],
//   else 3 ulp; __fdividef(x, y): 2 ulp for 2^-126 <= |y| <= 2^126.
// The guide's ulp bounds are against the correctly rounded result; measured against the exact
// value (what ulp_error does) they can be up to 0.5 ulp larger, so 0.5 is added. The fast
// intrinsics are the PTX .approx instructions (sin/cos/ex2/lg2/div/rsqrt.approx.f32); their
// PTX ISA bounds are within the guide's numbers.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

/// A result's error against its bound, both in the bound's units (ulps, or absolute). Exact
/// results have bound 0 and error 0 (match) or infinity (mismatch).
struct BoundedError {
  double error, bound;
  bool ok() const { return error <= bound; }
};

inline BoundedError ulps(float got, double exact, double bound) {
  return {ulp_error(got, exact), bound};
}
inline BoundedError absolute(float got, double exact, double bound) {
  if (std::isnan(got) || std::isnan(exact))
    return {std::isnan(got) && std::isnan(exact) ? 0.0 : HUGE_VAL, bound};
  return {std::fabs(double(got) - exact), bound};
}
inline BoundedError exact(bool same) {
  return {same ? 0.0 : HUGE_VAL, 0.0};
}

// ---- math_precise: 8 results per element --------------------------------------------------------

inline std::vector<float> math_precise_inputs(int random_count) {
  std::vector<float> v = {0.0f,   -0.0f,       1e-30f,      1e-40f,     0.5f,         1.0f,
                          2.0f,   3.14159265f, -1.5707964f, 10.0f,      -10.0f,       42.0f,
                          80.0f,  -80.0f,      1e4f,        123456.78f, -98765.4f,    1e30f,
                          -1e30f, 3e38f,       HUGE_VALF,   -HUGE_VALF, std::nanf("")};
  Rng rng(181);
  for (int i = 0; i < random_count; ++i) {
    v.push_back(rng.uniform(-50, 50));
    v.push_back(rng.uniform(-1, 1));
  }
  return v;
}

inline constexpr const char* kMathPreciseNames[8] = {
    "sinf", "cosf", "expf", "logf", "sqrtf", "tanhf", "x/(x*x+1)", "copysignf(2.5, x)"};

/// Result j of math_precise for x; nullopt where the bound does not apply (expf of x < -87:
/// CUDA's expf may flush subnormal results, which the 2-ulp figure does not cover).
inline std::optional<BoundedError> math_precise_check(int j, float x, float got) {
  const double xd = x;
  switch (j) {
    case 0:
      return ulps(got, std::sin(xd), 2.5);
    case 1:
      return ulps(got, std::cos(xd), 2.5);
    case 2:
      if (xd < -87.0) return std::nullopt;
      return ulps(got, std::exp(xd), 2.5);
    case 3:
      return ulps(got, std::log(xd), 1.5);
    case 4:
      return exact(same_float(got, std::sqrt(x)));
    case 5:
      return ulps(got, std::tanh(xd), 2.5);
    case 6: {
      // nvcc computes x*x with mul.f32 (shared with tanhf), adds 1 with add.f32, then
      // div.rn.f32 -- three correctly rounded steps the host repeats exactly.
      volatile float xx = x * x;
      volatile float den = xx + 1.0f;
      return exact(same_float(got, x / den));
    }
    default:
      return exact(same_float(got, std::copysign(2.5f, x)));
  }
}

// ---- math_fast: 7 results per element -----------------------------------------------------------

struct FastMathInputs {
  std::vector<float> a;  // in [-pi, pi]: the fast sine's and cosine's accuracy range
  std::vector<float> b;  // positive: half in [0.5, 2], half of all magnitudes 2^-20..2^21
};
inline FastMathInputs math_fast_inputs(int random_count) {
  Rng rng(182);
  FastMathInputs in;
  in.a = {0.0f, 3.1415925f, -3.1415925f, 1.0f, -1.0f, 0.001f};  // largest float < pi
  in.b = {1.0f, 0.5f, 2.0f, 0x1p-10f, 1000.0f, 1.999f};
  for (int i = 0; i < random_count; ++i) {
    in.a.push_back(rng.uniform(-3.1415925f, 3.1415925f));
    in.b.push_back(i % 2 ? rng.uniform(0.5f, 2.0f)
                         : std::ldexp(rng.uniform(1, 2), int(rng.integer(-20, 20))));
  }
  return in;
}

inline constexpr const char* kMathFastNames[7] = {"__sinf",     "__cosf", "__expf", "__logf",
                                                  "__fdividef", "rsqrtf", "exp2f"};

inline BoundedError math_fast_check(int j, float a, float b, float got) {
  const double x = a, y = b;
  switch (j) {
    case 0:
      return absolute(got, std::sin(x), std::exp2(-21.41));
    case 1:
      return absolute(got, std::cos(x), std::exp2(-21.19));
    case 2:
      return ulps(got, std::exp(x), 2.5 + std::floor(std::fabs(1.173 * x)));
    case 3:
      if (y >= 0.5 && y <= 2.0) return absolute(got, std::log(y), std::exp2(-21.41));
      return ulps(got, std::log(y), 3.5);
    case 4:
      return ulps(got, x / y, 2.5);
    case 5:
      return ulps(got, 1.0 / std::sqrt(y), 2.5);
    default:
      return ulps(got, std::exp2(x), 2.5);
  }
}

// ---- math_classify: 8 words per element ---------------------------------------------------------

inline std::vector<float> math_classify_inputs(int random_count, uint64_t seed) {
  std::vector<float> in = {0.0f,
                           -0.0f,
                           1.0f,
                           -1.0f,
                           HUGE_VALF,
                           -HUGE_VALF,
                           u2f(0x7fc00000),
                           u2f(0xffc00001),
                           u2f(0x7f800001),
                           1e-45f,
                           -1e-45f,
                           3.4028235e38f,
                           -3.4028235e38f,
                           -2.0f};
  auto r = random_floats(random_count, -1e6f, 1e6f, seed);
  in.insert(in.end(), r.begin(), r.end());
  return in;
}

inline constexpr const char* kMathClassifyNames[8] = {
    "isnan", "isinf", "isfinite", "signbit", "fmaxf(x, NaN)", "fminf(x, -1)", "fabsf", "negation"};

/// Word j of math_classify for x. max(x, NaN) = x, and min(x, -1) = -1 for NaN x: PTX
/// max/min.f32 return the other operand when exactly one is NaN, signaling or quiet. (Not
/// std::fmin: glibc follows IEEE 754-2008 minNum, which turns a signaling NaN operand into a
/// quiet NaN result.) abs and neg only touch the sign bit of numbers; for NaN inputs PTX leaves
/// the NaN's payload unspecified, so only NaN-ness is checked there.
inline bool math_classify_matches(int j, float x, int32_t got) {
  const float f = u2f(uint32_t(got));
  switch (j) {
    case 0:
      return got == (std::isnan(x) ? 1 : 0);
    case 1:
      return got == (std::isinf(x) ? 1 : 0);
    case 2:
      return got == (std::isfinite(x) ? 1 : 0);
    case 3:
      return got == (std::signbit(x) ? 1 : 0);
    case 4:
      return same_float(f, x);
    case 5:
      return same_float(f, std::isnan(x) ? -1.0f : std::fmin(x, -1.0f));
    case 6:
      return same_float(f, std::fabs(x));
    default:
      return same_float(f, -x);
  }
}

}  // namespace gpusoc::apps::reference
