// Internal to semantics/: floating-point helpers shared by the float, half, SFU, compare and
// conversion families: rounding direction, flush-to-zero, canonical NaN and saturation.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>

#include "models/ptx/semantics/float16.h"
#include "models/ptx/semantics/lanes.h"

namespace gpusoc::ptx::sem {

constexpr RoundDir dir_of(Rounding r) {
  switch (r) {
    case Rounding::Rz:
    case Rounding::Rzi:
      return RoundDir::Zero;
    case Rounding::Rm:
    case Rounding::Rmi:
      return RoundDir::Down;
    case Rounding::Rp:
    case Rounding::Rpi:
      return RoundDir::Up;
    default:
      return RoundDir::Nearest;
  }
}

/// Switches the host to a directed rounding mode for one warp instruction, so that the host's
/// own IEEE arithmetic (add, mul, div, sqrt, fma) rounds as PTX asks. The simulator
/// runs in the default round-to-nearest mode; nearest costs nothing. Operands are loaded from and
/// results stored to the register array between the two calls, which keeps the compiler from
/// moving the arithmetic out of the scope (the files using it also build with -frounding-math).
class RoundingScope {
 public:
  explicit RoundingScope(Rounding r) : dir_(dir_of(r)) {
    if (dir_ != RoundDir::Nearest) std::fesetround(kHostMode[int(dir_)]);
  }
  ~RoundingScope() {
    if (dir_ != RoundDir::Nearest) std::fesetround(FE_TONEAREST);
  }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  static constexpr int kHostMode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  RoundDir dir_;
};

template <class F>
using FloatBitsOf = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;

template <class F>
constexpr FloatBitsOf<F> kExpMask = sizeof(F) == 4 ? 0x7f800000u : 0x7ff0000000000000ull;
template <class F>
constexpr FloatBitsOf<F> kSignMask = sizeof(F) == 4 ? 0x80000000u : 0x8000000000000000ull;

template <class F>
inline FloatBitsOf<F> bits_of(F x) {
  return FloatBitsOf<F>(to_bits(x));
}

/// Flush-to-zero: a subnormal becomes zero of the same sign.
template <class F>
inline F flush(F x) {
  const FloatBitsOf<F> b = bits_of(x);
  return (b & kExpMask<F>) == 0 ? from_bits<F>(b & kSignMask<F>) : x;
}

/// PTX's canonical NaN: exponent and mantissa all ones, sign clear.
template <class F>
inline F canonical_nan() {
  return from_bits<F>(uint64_t(FloatBitsOf<F>(~kSignMask<F>)));
}

/// Bits of the FpFlags template parameter used by the float, SFU and compare families.
enum FpFlags : unsigned { kFpFtz = 1, kFpSat = 2 };

constexpr unsigned fp_flags(uint16_t inst_flags) {
  return ((inst_flags & kFtz) ? kFpFtz : 0u) | ((inst_flags & kSat) ? kFpSat : 0u);
}

template <class F, unsigned kFlags>
inline F fp_in(F x) {
  if constexpr ((kFlags & kFpFtz) != 0) return flush(x);
  return x;
}

/// The result rules of f32/f64 arithmetic: NaN is canonical (.sat: NaN is +0), .sat clamps to
/// [0, 1], .ftz flushes a subnormal result.
template <class F, unsigned kFlags>
inline F fp_out(F r) {
  if constexpr ((kFlags & kFpSat) != 0) {
    if (!(r > F(0))) return F(0);  // NaN, negative and -0 give +0
    if (r > F(1)) return F(1);
  } else if (r != r) {
    return canonical_nan<F>();
  }
  if constexpr ((kFlags & kFpFtz) != 0) return flush(r);
  return r;
}

/// min/max of two floats: a NaN operand loses unless both are NaN (or `nan_wins`); -0 < +0.
template <class F, bool kMax>
inline F pick(F a, F b, bool nan_wins) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return (na && nb) || nan_wins ? canonical_nan<F>() : na ? b : a;
  if (a == b) return std::signbit(a) == kMax ? b : a;
  return (a < b) != kMax ? a : b;
}

/// Calls f(std::integral_constant<unsigned, flags>{}) for the FpFlags allowed by `mask`.
template <unsigned kMask, class Fn>
inline ExecFn dispatch_fp_flags(uint16_t inst_flags, Fn&& f) {
  switch (fp_flags(inst_flags) & kMask) {
    case 0:
      return f(std::integral_constant<unsigned, 0>{});
    case kFpFtz:
      return f(std::integral_constant<unsigned, kFpFtz & kMask>{});
    case kFpSat:
      return f(std::integral_constant<unsigned, kFpSat & kMask>{});
    default:
      return f(std::integral_constant<unsigned, (kFpFtz | kFpSat) & kMask>{});
  }
}

/// Whether double s lies exactly halfway between two adjacent f32 values (s a normal double).
inline bool is_f32_midpoint(double s) {
  const uint64_t b = bits_of(s);
  const int e = int((b >> 52) & 0x7ff) - 1023;
  const int drop = 29 + (e < -126 ? -126 - e : 0);  // bits of s below f32's last place
  const uint64_t sig = (b & ((uint64_t(1) << 52) - 1)) | uint64_t(1) << 52;
  return s != 0 && drop <= 53 && (sig & ((uint64_t(1) << drop) - 1)) == uint64_t(1) << (drop - 1);
}

/// f32 fma without calling libm: the product is exact in double, so rounding p + c to double and
/// then to f32 is one correct rounding in the directed modes (the same direction twice), and in
/// round-to-nearest unless the double sum lands exactly on an f32 midpoint that the exact sum
/// misses; that case is found with TwoSum and broken toward the exact value.
inline float fma_f32(float a, float b, float c, bool nearest) {
  const double p = double(a) * double(b), s = p + double(c);
  if (nearest && std::isfinite(s) && is_f32_midpoint(s)) {
    const double t = s - p, e = (p - (s - t)) + (double(c) - t);  // s + e == p + c exactly
    if (e != 0) return float(std::nextafter(s, e > 0 ? HUGE_VAL : -HUGE_VAL));
  }
  return float(s);
}

}  // namespace gpusoc::ptx::sem
