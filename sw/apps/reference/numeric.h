// Host-side numerics shared by the kernel-suite tests (tests/kernels) and the apps (sw/apps):
// deterministic data, bit views, the float error models, and the PTX rounding and conversions
// reproduced on the host.
//
// Tolerances used across the suite (each test says which one applies and why):
//  * Integer results and correctly rounded IEEE operations (add, mul, div.rn, sqrt.rn, fma,
//    conversions) are compared exactly: the host computes the same correctly rounded value.
//  * Sums: a float sum of terms whose longest chain of dependent additions has length d (a
//    sequential loop of m terms contributes m; a tree of 2^k leaves contributes k) differs from
//    the exact sum by at most d * u * sum|terms| to first order (u = 2^-24, the unit roundoff;
//    Higham, "Accuracy and Stability of Numerical Algorithms", eq. 4.3 and its pairwise form).
//    We allow (d + 2) * 2^-23 * sum|terms|: twice the bound, which absorbs the products' own
//    rounding (fma contraction only removes roundings) and the reference's double rounding.
//    The reference is the same sum in double precision.
//  * Library and approximate functions: a bound in ulps, or an absolute bound, taken from the
//    CUDA C++ Programming Guide's accuracy tables (the ulp error there is against the
//    correctly rounded result; measured against the exact value it can be 0.5 ulp more).
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace gpusoc::apps::reference {

// ---------------------------------------------------------------------------------------------
// Deterministic data: splitmix64, so the data is the same with every standard library.

class Rng {
 public:
  explicit Rng(uint64_t seed = 0x5eed'cafe'f00d'1234ull) : state_(seed) {}
  uint64_t next64() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t next32() { return static_cast<uint32_t>(next64() >> 32); }
  /// Uniform in [lo, hi] (inclusive).
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next64() % static_cast<uint64_t>(hi - lo + 1));
  }
  /// Uniform in [lo, hi), 24 random bits.
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * (static_cast<float>(next32() >> 8) * (1.0f / 16777216.0f));
  }
  double uniform_double(double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(next64() >> 11) * (1.0 / 9007199254740992.0));
  }

 private:
  uint64_t state_;
};

inline std::vector<float> random_floats(size_t n, float lo, float hi, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = rng.uniform(lo, hi);
  return v;
}

inline std::vector<int> random_ints(size_t n, int lo, int hi, uint64_t seed) {
  Rng rng(seed);
  std::vector<int> v(n);
  for (auto& x : v) x = static_cast<int>(rng.integer(lo, hi));
  return v;
}

inline std::vector<uint32_t> random_u32(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng.next32();
  return v;
}

// ---------------------------------------------------------------------------------------------
// Bit views.

inline uint32_t f2u(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float u2f(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t d2u(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}

/// Same value, or both NaN (any payload). +0 and -0 are different here.
inline bool same_float(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || f2u(a) == f2u(b);
}
inline bool same_double(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || d2u(a) == d2u(b);
}

// ---------------------------------------------------------------------------------------------
// Float comparisons.

constexpr double kFloatEps = 1.0 / (1 << 23);            // 2^-23, spacing of floats at 1
constexpr double kDoubleEps = 1.0 / 4503599627370496.0;  // 2^-52

/// Tolerance for a float sum (see the header comment): depth = longest dependent chain.
inline double float_sum_tolerance(double abs_sum, double depth) {
  return (depth + 2.0) * kFloatEps * abs_sum;
}
inline double double_sum_tolerance(double abs_sum, double depth) {
  return (depth + 2.0) * kDoubleEps * abs_sum;
}

/// |actual - expected| <= tol, or both NaN.
inline bool within_tolerance(double actual, double expected, double tol) {
  if (std::isnan(actual) || std::isnan(expected)) return std::isnan(actual) && std::isnan(expected);
  return std::fabs(actual - expected) <= tol;
}

/// The spacing of floats at |x| (x a real number rounded to float's exponent range).
inline double float_ulp(double x) {
  double a = std::fabs(x);
  if (a < 0x1p-126) return 0x1p-149;  // subnormal range: fixed spacing
  if (a >= 0x1p127) return 0x1p104;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  return std::ldexp(1.0, e - 24);
}

/// Error of a float result against an exact (double) reference, in ulps of the reference.
/// Infinities and NaNs must match exactly (returns 0 or +inf).
inline double ulp_error(float actual, double exact) {
  if (std::isnan(exact)) return std::isnan(actual) ? 0.0 : HUGE_VAL;
  float rounded = static_cast<float>(exact);
  if (std::isinf(rounded) || std::isinf(actual)) {
    if (std::isinf(actual) && std::isinf(rounded) && actual == rounded) return 0.0;
    // exact is just past FLT_MAX: measure with the top binade's ulp
    if (!std::isnan(actual)) return std::fabs(double(actual) - exact) / 0x1p104;
    return HUGE_VAL;
  }
  return std::fabs(static_cast<double>(actual) - exact) / float_ulp(exact);
}

// ---------------------------------------------------------------------------------------------
// Rounding modes and the PTX conversions reproduced on the host.

enum class Round { Nearest, Zero, Down, Up };

/// Rounds a double to an integral double in the given mode (ties to even for Nearest).
inline double round_integral(double x, Round r) {
  switch (r) {
    case Round::Nearest:
      return std::nearbyint(x);  // default FE_TONEAREST: ties to even
    case Round::Zero:
      return std::trunc(x);
    case Round::Down:
      return std::floor(x);
    case Round::Up:
      return std::ceil(x);
  }
  return x;
}

/// PTX cvt from a floating value to an integer type: round in the given mode, then clamp to the
/// destination's range (PTX ISA, cvt: float-to-integer conversions saturate by default).
/// NaN is not handled here; the tests avoid it.
template <typename Int>
Int cvt_to_int(double x, Round r) {
  double v = round_integral(x, r);
  // Compare in long double, whose 64-bit significand holds the bounds exactly.
  long double lo = static_cast<long double>(std::numeric_limits<Int>::min());
  long double hi = static_cast<long double>(std::numeric_limits<Int>::max());
  if (static_cast<long double>(v) <= lo) return std::numeric_limits<Int>::min();
  if (static_cast<long double>(v) >= hi) return std::numeric_limits<Int>::max();
  return static_cast<Int>(v);
}

/// Runs `f` with the host's floating-point rounding mode set to `r`. `f` must read its operands
/// from volatile variables and write its result to a volatile variable before returning, so the
/// compiler can neither fold the operation at compile time nor move it past the mode switches.
template <typename F>
auto in_rounding_mode(Round r, F f) {
  int mode = r == Round::Nearest ? FE_TONEAREST
             : r == Round::Zero  ? FE_TOWARDZERO
             : r == Round::Down  ? FE_DOWNWARD
                                 : FE_UPWARD;
  int saved = std::fegetround();
  std::fesetround(mode);
  auto result = f();
  std::fesetround(saved);
  return result;
}

/// Rounds the exact value `x` (a long double holds any int64, uint64 or float exactly) to float
/// in the given mode.
inline float round_to_float(long double x, Round r) {
  return in_rounding_mode(r, [x] {
    volatile long double in = x;
    volatile float out = static_cast<float>(in);
    return static_cast<float>(out);
  });
}

/// Rounds an exact real value (given as a double holding it exactly) to a binary format with
/// `mant_bits` explicit significand bits and exponent bias `bias` (f16: 10, 15; bf16: 7, 127),
/// in the given rounding mode, with subnormals, overflow to infinity or to the largest finite
/// value as IEEE prescribes for each mode. Returns the 16-bit pattern. NaN gives 0x7FFF.
inline uint16_t round_to_small_float(double x, int mant_bits, int bias, Round r) {
  const int exp_bits = 15 - mant_bits;
  const uint16_t exp_all_ones = static_cast<uint16_t>(((1u << exp_bits) - 1) << mant_bits);
  if (std::isnan(x)) return 0x7FFF;
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs(x);
  if (std::isinf(a)) return sign | exp_all_ones;
  if (a == 0.0) return sign;
  const int emin = 1 - bias;                    // smallest normal exponent
  const int emax = (1 << exp_bits) - 2 - bias;  // largest normal exponent
  int e;
  std::frexp(a, &e);
  e -= 1;                  // a = m * 2^e with m in [1, 2)
  if (e < emin) e = emin;  // subnormal: fixed quantum
  double quantum = std::ldexp(1.0, e - mant_bits);
  double q = a / quantum;  // exact: a scaled by a power of two
  double fl = std::floor(q);
  double frac = q - fl;
  bool neg = sign != 0;
  bool up;
  switch (r) {
    case Round::Nearest:
      up = frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) != 0.0);
      break;
    case Round::Zero:
      up = false;
      break;
    case Round::Down:
      up = neg && frac > 0.0;
      break;
    case Round::Up:
      up = !neg && frac > 0.0;
      break;
    default:
      up = false;
  }
  double mag = (fl + (up ? 1.0 : 0.0)) * quantum;
  double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -mant_bits), emax);
  if (mag > max_finite) {
    // Overflow: infinity unless the mode rounds toward zero for this sign.
    bool to_inf = r == Round::Nearest || (r == Round::Up && !neg) || (r == Round::Down && neg);
    if (to_inf) return sign | exp_all_ones;
    mag = max_finite;
  }
  if (mag == 0.0) return sign;  // underflowed to zero
  // Encode mag.
  int me;
  std::frexp(mag, &me);
  me -= 1;
  if (me < emin) {  // subnormal
    uint32_t m = static_cast<uint32_t>(mag / std::ldexp(1.0, emin - mant_bits));
    return static_cast<uint16_t>(sign | m);
  }
  uint32_t m = static_cast<uint32_t>(mag / std::ldexp(1.0, me - mant_bits)) - (1u << mant_bits);
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(me + bias) << mant_bits) | m);
}

inline uint16_t to_half_bits(double x, Round r = Round::Nearest) {
  return round_to_small_float(x, 10, 15, r);
}
inline uint16_t to_bf16_bits(double x, Round r = Round::Nearest) {
  return round_to_small_float(x, 7, 127, r);
}

/// Decodes a 16-bit float pattern (f16 or bf16) exactly.
inline double small_float_value(uint16_t bits, int mant_bits, int bias) {
  const int exp_bits = 15 - mant_bits;
  bool neg = bits & 0x8000;
  uint32_t ex = (bits >> mant_bits) & ((1u << exp_bits) - 1);
  uint32_t m = bits & ((1u << mant_bits) - 1);
  double v;
  if (ex == (1u << exp_bits) - 1)
    v = m ? std::numeric_limits<double>::quiet_NaN() : HUGE_VAL;
  else if (ex == 0)
    v = std::ldexp(static_cast<double>(m), 1 - bias - mant_bits);
  else
    v = std::ldexp(static_cast<double>(m | (1u << mant_bits)),
                   static_cast<int>(ex) - bias - mant_bits);
  return neg ? -v : v;
}
inline double half_value(uint16_t bits) {
  return small_float_value(bits, 10, 15);
}
inline double bf16_value(uint16_t bits) {
  return small_float_value(bits, 7, 127);
}
inline bool half_is_nan(uint16_t bits) {
  return (bits & 0x7C00) == 0x7C00 && (bits & 0x3FF);
}
inline bool bf16_is_nan(uint16_t bits) {
  return (bits & 0x7F80) == 0x7F80 && (bits & 0x7F);
}

}  // namespace gpusoc::apps::reference
