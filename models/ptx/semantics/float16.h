// Correctly rounded conversions into narrow binary floating-point formats (f16, bf16, and f32/f64
// where a rounding direction other than the host's must be honoured), and exact widening of f16 and
// bf16. Pure integer arithmetic: the host's floating-point environment is never consulted.
#pragma once

#include <cstdint>
#include <type_traits>

namespace gpusoc::ptx {

enum class RoundDir : uint8_t { Nearest, Zero, Down, Up };  // ties-to-even, toward 0, -inf, +inf

/// An IEEE-754 binary format: stored mantissa bits and exponent bits.
struct FloatFormat {
  unsigned mant;
  unsigned exp;
};
constexpr FloatFormat kF16Format{10, 5};
constexpr FloatFormat kBF16Format{7, 8};
constexpr FloatFormat kF32Format{23, 8};
constexpr FloatFormat kF64Format{52, 11};

/// Encoding of (-1)^neg * sig * 2^exp2, rounded to `f` in direction `d` (overflow gives infinity or
/// the largest finite value, as IEEE-754 prescribes for the direction).
uint64_t round_to_format(bool neg, uint64_t sig, int exp2, RoundDir d, FloatFormat f);

/// `x` rounded to `f`; a NaN becomes the canonical NaN of `f` (exponent and mantissa all ones).
uint64_t round_double(double x, RoundDir d, FloatFormat f);

/// An integer rounded to `f`: exact integer arithmetic, no detour through double.
template <class Int>
uint64_t round_integer(Int v, RoundDir d, FloatFormat f) {
  static_assert(std::is_integral_v<Int>);
  if constexpr (std::is_signed_v<Int>) {
    const bool neg = v < 0;
    const uint64_t mag = neg ? 0 - uint64_t(int64_t(v)) : uint64_t(v);
    return round_to_format(neg, mag, 0, d, f);
  } else {
    return round_to_format(false, uint64_t(v), 0, d, f);
  }
}

inline uint16_t double_to_f16(double x, RoundDir d) {
  return uint16_t(round_double(x, d, kF16Format));
}
inline uint16_t double_to_bf16(double x, RoundDir d) {
  return uint16_t(round_double(x, d, kBF16Format));
}

/// Exact widening; NaN payloads are kept.
float f16_to_float(uint16_t h);
float bf16_to_float(uint16_t h);

constexpr uint16_t kCanonicalNaN16 = 0x7fff;  // canonical NaN of both f16 and bf16

}  // namespace gpusoc::ptx
