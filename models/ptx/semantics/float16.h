// Correctly rounded conversions into binary floating-point formats in any IEEE rounding direction
// (for f16 and bf16, and for f32/f64 where the host's round-to-nearest does not apply), and exact
// widening of f16 and bf16. Pure integer arithmetic: the host's floating-point environment is
// never consulted. Inline, because cvt and half-precision arithmetic call these per element.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gpusoc::ptx {

enum class RoundDir : uint8_t { Nearest, Zero, Down, Up };  // ties-to-even, toward 0, -inf, +inf

/// IEEE-754 binary formats: stored mantissa bits and exponent bits.
template <unsigned kMantBits, unsigned kExpBits>
struct BinaryFormat {
  static constexpr unsigned kMant = kMantBits, kExp = kExpBits;
  static constexpr uint64_t kInf = ((uint64_t(1) << kExp) - 1) << kMant;
  static constexpr uint64_t kSign = uint64_t(1) << (kMant + kExp);
  static constexpr uint64_t kCanonicalNaN = kInf | ((uint64_t(1) << kMant) - 1);
};
using Binary16 = BinaryFormat<10, 5>;
using BFloat16 = BinaryFormat<7, 8>;
using Binary32 = BinaryFormat<23, 8>;
using Binary64 = BinaryFormat<52, 11>;

/// Encoding in Fmt of (-1)^neg * sig * 2^exp2, rounded in direction d (overflow gives infinity
/// or the largest finite value, as IEEE-754 prescribes for the direction).
template <class Fmt>
inline uint64_t round_to_format(bool neg, uint64_t sig, int exp2, RoundDir d) {
  const uint64_t sign = neg ? Fmt::kSign : 0;
  if (sig == 0) return sign;
  constexpr int kBias = (1 << (Fmt::kExp - 1)) - 1, kEmin = 1 - kBias;
  const int e = 63 - __builtin_clzll(sig) + exp2;     // |value| is in [2^e, 2^(e+1))
  int q = (e > kEmin ? e : kEmin) - int(Fmt::kMant);  // exponent of the result's last place
  const int shift = q - exp2;                         // bits of sig below that place
  uint64_t mag;
  if (shift <= 0) {
    mag = sig << -shift;  // exact; fits, since the result has at most kMant + 1 bits
  } else {
    // Beyond 64 bits the dropped part is nonzero but below half a place.
    const bool far = shift > 64;
    const uint64_t kept = shift >= 64 ? 0 : sig >> shift;
    const uint64_t rem = far ? 1 : shift == 64 ? sig : sig & ((uint64_t(1) << shift) - 1);
    const uint64_t half = far ? 2 : uint64_t(1) << (shift - 1);
    bool up = false;
    switch (d) {
      case RoundDir::Nearest:
        up = rem > half || (rem == half && (kept & 1));
        break;
      case RoundDir::Zero:
        break;
      case RoundDir::Up:
        up = rem != 0 && !neg;
        break;
      case RoundDir::Down:
        up = rem != 0 && neg;
        break;
    }
    mag = kept + up;
  }
  if (mag >> (Fmt::kMant + 1)) {  // rounding carried into the next binade
    mag >>= 1;
    ++q;
  }
  constexpr uint64_t kOne = uint64_t(1) << Fmt::kMant;
  if (mag < kOne) return sign | mag;  // subnormal (or rounded to zero)
  const int biased = q + int(Fmt::kMant) + kBias;
  if (biased >= (1 << Fmt::kExp) - 1) {
    const bool to_inf =
        d == RoundDir::Nearest || (d == RoundDir::Up && !neg) || (d == RoundDir::Down && neg);
    return sign | (to_inf ? Fmt::kInf : Fmt::kInf - 1);  // kInf - 1: the largest finite value
  }
  return sign | (uint64_t(biased) << Fmt::kMant) | (mag - kOne);
}

/// `x` rounded to Fmt; a NaN becomes Fmt's canonical NaN (exponent and mantissa all ones).
template <class Fmt>
inline uint64_t round_double(double x, RoundDir d) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  const bool neg = (b >> 63) != 0;
  const int be = int((b >> 52) & 0x7ff);
  const uint64_t m = b & ((uint64_t(1) << 52) - 1);
  if (be == 0x7ff) return m != 0 ? Fmt::kCanonicalNaN : (neg ? Fmt::kSign : 0) | Fmt::kInf;
  if (be == 0) return round_to_format<Fmt>(neg, m, -1074, d);
  return round_to_format<Fmt>(neg, m | (uint64_t(1) << 52), be - 1075, d);
}

/// An integer rounded to Fmt: exact integer arithmetic, no detour through double.
template <class Fmt, class Int>
inline uint64_t round_integer(Int v, RoundDir d) {
  static_assert(std::is_integral_v<Int>);
  const bool neg = v < Int(0);
  return round_to_format<Fmt>(neg, neg ? 0 - uint64_t(v) : uint64_t(v), 0, d);
}

inline float float_from_bits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

/// Exact widening; NaN payloads are kept.
inline float f16_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) {
    const float v = float(m) * 0x1p-24f;  // subnormal: exact in f32
    return sign ? -v : v;
  }
  if (e == 0x1f) return float_from_bits(sign | 0x7f800000u | (m << 13));
  return float_from_bits(sign | ((e + 112) << 23) | (m << 13));
}
inline float bf16_to_float(uint16_t h) {
  return float_from_bits(uint32_t(h) << 16);
}

}  // namespace gpusoc::ptx
