// What a texture fetch returns, as the CUDA programming guide's texture-fetching appendix defines
// it: coordinates (normalized to [0, 1) or in texels) go through each axis's address mode (wrap,
// clamp, mirror, border), then point sampling takes the texel the coordinate falls in and linear
// filtering blends the 2, 4 or 8 texels around it with weights held, as the hardware holds them,
// in 9-bit fixed point with 8 fractional bits. The texture unit (and the PTX core's tex) use it;
// where the texels come from is the caller's (TexelReader).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "models/tex/texel_format.h"

namespace gpusoc::tex {

enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };  // cudaTextureAddressMode order
enum class FilterMode : uint8_t { Point, Linear };

struct SamplerState {
  std::array<AddressMode, 3> address{AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  FilterMode filter = FilterMode::Point;
  bool normalized_read = false;    // integer texels read as floats in [0, 1] or [-1, 1]
  bool normalized_coords = false;  // coordinates in [0, 1) rather than [0, extent)
  /// What CUDA refuses in this sampler for textures of `format` (linear filtering of texels read
  /// as integers); empty when nothing.
  std::string problem(const TexelFormat& format) const;
};

/// Where the texels lie: extents (1 on axes the texture does not have) and pitches in bytes
/// (0: packed).
struct TextureLayout {
  TexelFormat format;
  uint8_t dimensions = 1;  // 1, 2 or 3: the axes whose coordinates count
  uint32_t width = 1, height = 1, depth = 1;
  uint64_t row_pitch = 0, slice_pitch = 0;
  uint64_t row_bytes() const { return row_pitch ? row_pitch : uint64_t(width) * format.bytes(); }
  uint64_t slice_bytes() const { return slice_pitch ? slice_pitch : row_bytes() * height; }
};

/// The bytes of the texel at byte `offset` from the texture's start.
using TexelReader = std::function<const uint8_t*(uint64_t offset)>;

/// A float fetch (float texels, or integer texels read normalized) at (x, y, z); axes beyond the
/// texture's are ignored. Border texels read as 0.
Float4 sample(const TextureLayout& layout, const SamplerState& sampler, const TexelReader& read,
              float x, float y = 0, float z = 0);
/// An integer fetch (element-type reads of integer texels; point sampling only).
Int4 sample_int(const TextureLayout& layout, const SamplerState& sampler, const TexelReader& read,
                float x, float y = 0, float z = 0);

/// tld4 (texture gather) of a 2D texture: channel `component` (0..3) of the four texels that
/// bilinear filtering at (x, y) would blend, whatever the sampler's filter mode, in the PTX ISA's
/// order: counter-clockwise from the lower left, i.e. (i, j+1), (i+1, j+1), (i+1, j), (i, j) for
/// the footprint's upper-left texel (i, j). gather_int: element-type reads of integer textures.
Float4 gather(const TextureLayout& layout, const SamplerState& sampler, const TexelReader& read,
              unsigned component, float x, float y);
Int4 gather_int(const TextureLayout& layout, const SamplerState& sampler, const TexelReader& read,
                unsigned component, float x, float y);

/// A linear-filtering weight as the hardware holds it: `fraction` in [0, 1) rounded to 1/256.
inline float quantized_weight(float fraction) {
  return float(int(fraction * 256.0f + 0.5f)) / 256.0f;
}

}  // namespace gpusoc::tex
