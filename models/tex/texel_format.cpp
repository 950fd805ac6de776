#include "models/tex/texel_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace gpusoc::tex {

std::string TexelFormat::problem() const {
  if (channels != 1 && channels != 2 && channels != 4)
    return fmt::format("{} channels: textures have 1, 2 or 4", channels);
  if (kind == ChannelKind::Float && bits != 16 && bits != 32)
    return fmt::format("{}-bit float channels: floats are 16 or 32 bits", bits);
  if (kind != ChannelKind::Float && bits != 8 && bits != 16 && bits != 32)
    return fmt::format("{}-bit integer channels: integers are 8, 16 or 32 bits", bits);
  return {};
}

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h >> 15) << 31;
  const int exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0) {
    magnitude = float(mantissa) * 0x1p-24f;  // subnormal (or zero)
  } else if (exponent == 31) {
    uint32_t bits = 0x7f800000u | (mantissa << 13);  // infinity or NaN, payload kept
    std::memcpy(&magnitude, &bits, 4);
  } else {
    uint32_t bits = uint32_t(exponent - 15 + 127) << 23 | mantissa << 13;
    std::memcpy(&magnitude, &bits, 4);
  }
  uint32_t out;
  std::memcpy(&out, &magnitude, 4);
  out |= sign;
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

namespace {

// Channel c of the texel as raw bits, zero-extended.
uint32_t raw(const TexelFormat& f, const uint8_t* texel, unsigned c) {
  uint32_t v = 0;
  std::memcpy(&v, texel + c * (f.bits / 8), f.bits / 8);
  return v;
}

int32_t sign_extend(uint32_t v, unsigned bits) {
  if (bits >= 32) return int32_t(v);
  const uint32_t sign = 1u << (bits - 1);
  return int32_t((v ^ sign) - sign);
}

}  // namespace

Float4 read_float(const TexelFormat& f, const uint8_t* texel, bool normalized) {
  Float4 out{};
  for (unsigned c = 0; c < f.channels; ++c) {
    const uint32_t v = raw(f, texel, c);
    switch (f.kind) {
      case ChannelKind::Float:
        if (f.bits == 16) {
          out[c] = half_to_float(uint16_t(v));
        } else {
          std::memcpy(&out[c], &v, 4);
        }
        break;
      case ChannelKind::Unsigned:
        out[c] = normalized ? float(double(v) / double((uint64_t(1) << f.bits) - 1)) : float(v);
        break;
      case ChannelKind::Signed: {
        const int32_t s = sign_extend(v, f.bits);
        out[c] = normalized
                     ? std::max(float(double(s) / double((uint64_t(1) << (f.bits - 1)) - 1)), -1.0f)
                     : float(s);
        break;
      }
    }
  }
  return out;
}

Int4 read_int(const TexelFormat& f, const uint8_t* texel) {
  Int4 out{};
  for (unsigned c = 0; c < f.channels; ++c) {
    const uint32_t v = raw(f, texel, c);
    out[c] = f.kind == ChannelKind::Signed ? uint32_t(sign_extend(v, f.bits)) : v;
  }
  return out;
}

}  // namespace gpusoc::tex
