// How a texel is stored: 1, 2 or 4 channels of one kind (signed or unsigned integer, or float)
// and size (8, 16 or 32 bits; floats 16 or 32), as CUDA's channel format descriptors describe
// them, and how the texture unit reads one: as the element type, or (8- and 16-bit integers) as
// a float normalized to [0, 1] (unsigned) or [-1, 1] (signed).
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace gpusoc::tex {

enum class ChannelKind : uint8_t { Signed, Unsigned, Float };

struct TexelFormat {
  ChannelKind kind = ChannelKind::Float;
  uint8_t bits = 32;     // per channel
  uint8_t channels = 1;  // 1, 2 or 4
  uint32_t bytes() const { return uint32_t(bits) / 8 * channels; }
  /// What is wrong with the format (empty when CUDA allows it), for the runtime's errors.
  std::string problem() const;
};

/// Up to four channel values, unused ones 0. Floats for float results, 32-bit integers
/// (bit-exact) for element-type integer reads.
using Float4 = std::array<float, 4>;
using Int4 = std::array<uint32_t, 4>;

/// The texel at `texel`, channel by channel, as floats: float channels as they are (16-bit ones
/// converted), integers normalized (unsigned v / (2^bits - 1), signed max(v / (2^(bits-1) - 1),
/// -1)) when `normalized`, else converted to float as they are.
Float4 read_float(const TexelFormat& f, const uint8_t* texel, bool normalized);
/// The texel's channels as integers, sign-extended (element-type reads of integer textures).
Int4 read_int(const TexelFormat& f, const uint8_t* texel);

/// IEEE half precision to single (exact).
float half_to_float(uint16_t h);

}  // namespace gpusoc::tex
