// Texture and surface arguments of `gpusoc launch` (cmd_launch.cpp): an array with its contents
// and, for textures, a sampler, made into an object whose 64-bit handle the kernel takes.
//   tex:FORMAT:EXTENT:SOURCE[:MODE,...]   a texture object over a new array
//   surf:FORMAT:EXTENT:SOURCE             a surface object over a new array
// FORMAT: f32, f16, u8, s8, u16, s16, u32 or s32, with xN for N channels (f32x4, u8x4);
// EXTENT: W, WxH or WxHxD texels; SOURCE: in=FILE (packed texels), rand=SEED or zero;
// MODE: wrap, clamp, mirror or border (every axis), linear, normalized (coordinates),
// nread (8- and 16-bit integers read as normalized floats).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/tex/texture_objects.h"

namespace gpusoc::platform {

struct TextureArgument {
  bool surface = false;
  tex::ArrayDesc array;
  tex::SamplerState sampler;
  std::vector<uint8_t> texels;  // packed rows, every slice
};

/// The argument when `kind` is tex or surf (nullopt otherwise); a UsageError naming argument
/// `index` and what is wrong when the rest does not parse.
std::optional<TextureArgument> parse_texture_argument(size_t index, const std::string& text,
                                                      const std::string& kind,
                                                      const std::string& value);

}  // namespace gpusoc::platform
