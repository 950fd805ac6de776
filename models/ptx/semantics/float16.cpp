#include "models/ptx/semantics/float16.h"

#include <algorithm>
#include <cstring>

namespace gpusoc::ptx {

uint64_t round_to_format(bool neg, uint64_t sig, int exp2, RoundDir d, FloatFormat f) {
  const uint64_t sign = uint64_t(neg) << (f.mant + f.exp);
  if (sig == 0) return sign;
  const int bias = (1 << (f.exp - 1)) - 1;
  const int emin = 1 - bias;
  const int e = 63 - __builtin_clzll(sig) + exp2;  // |value| is in [2^e, 2^(e+1))
  int q = std::max(e, emin) - int(f.mant);         // exponent of the result's last place
  const int shift = q - exp2;                      // bits of sig below that place

  uint64_t mag;
  if (shift <= 0) {
    mag = sig << -shift;  // exact; fits, since the result has at most mant + 1 bits
  } else {
    // Beyond 64 bits the dropped part is nonzero but below half a place.
    const bool far = shift > 64;
    const uint64_t kept = shift >= 64 ? 0 : sig >> shift;
    const uint64_t rem = far ? 1 : shift == 64 ? sig : sig & ((uint64_t(1) << shift) - 1);
    const uint64_t half = far ? 2 : uint64_t(1) << (shift - 1);
    bool up = false;
    switch (d) {
      case RoundDir::Nearest: up = rem > half || (rem == half && (kept & 1)); break;
      case RoundDir::Zero: break;
      case RoundDir::Up: up = rem != 0 && !neg; break;
      case RoundDir::Down: up = rem != 0 && neg; break;
    }
    mag = kept + up;
  }
  if (mag >> (f.mant + 1)) {  // rounding carried into the next binade
    mag >>= 1;
    ++q;
  }
  const uint64_t one = uint64_t(1) << f.mant;
  if (mag < one) return sign | mag;  // subnormal (or rounded to zero)
  const int biased = q + int(f.mant) + bias;
  const uint64_t inf = ((uint64_t(1) << f.exp) - 1) << f.mant;
  if (biased >= (1 << f.exp) - 1) {
    const bool to_inf = d == RoundDir::Nearest || (d == RoundDir::Up && !neg) ||
                        (d == RoundDir::Down && neg);
    return sign | (to_inf ? inf : inf - 1);  // inf - 1 is the largest finite encoding
  }
  return sign | (uint64_t(biased) << f.mant) | (mag - one);
}

uint64_t round_double(double x, RoundDir d, FloatFormat f) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  const bool neg = (b >> 63) != 0;
  const int be = int((b >> 52) & 0x7ff);
  const uint64_t m = b & ((uint64_t(1) << 52) - 1);
  if (be == 0x7ff) {
    const uint64_t inf = ((uint64_t(1) << f.exp) - 1) << f.mant;
    if (m != 0) return inf | ((uint64_t(1) << f.mant) - 1);
    return (uint64_t(neg) << (f.mant + f.exp)) | inf;
  }
  if (be == 0) return round_to_format(neg, m, -1074, d, f);
  return round_to_format(neg, m | (uint64_t(1) << 52), be - 1075, d, f);
}

static float float_from_bits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

float f16_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t e = (h >> 10) & 0x1f;
  const uint32_t m = h & 0x3ff;
  if (e == 0) {
    const float v = float(m) * 0x1p-24f;  // subnormal: exact in f32
    return sign ? -v : v;
  }
  if (e == 0x1f) return float_from_bits(sign | 0x7f800000u | (m << 13));
  return float_from_bits(sign | ((e + 112) << 23) | (m << 13));
}

float bf16_to_float(uint16_t h) { return float_from_bits(uint32_t(h) << 16); }

}  // namespace gpusoc::ptx
