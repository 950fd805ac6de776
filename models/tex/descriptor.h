// Texture and surface objects as the texture unit finds them: a 64-byte descriptor in device
// memory, named by a 64-bit handle that kernels receive as a parameter (cudaTextureObject_t,
// cudaSurfaceObject_t). The runtime writes descriptors; the texture unit reads them, as hardware
// reads its texture header and sampler tables. docs/texture.md gives the byte layout.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "models/tex/sampler.h"

namespace gpusoc::tex {

/// What a descriptor's memory holds: the extents that count, how layers and faces follow each
/// other, and which PTX geometries may read it.
enum class Shape : uint8_t {
  Buffer,  // linear memory read with integer coordinates (tex1Dfetch): no filtering
  Tex1D,   // 1D; a linear buffer with a float read (cudaResourceTypeLinear) is one too
  Tex2D,   // 2D array, or pitched 2D memory (cudaResourceTypePitch2D)
  Tex3D,
  Layered1D,   // `layers` 1D textures, one row each
  Layered2D,   // `layers` 2D textures, slice_pitch apart
  Cube,        // six square faces, slice_pitch apart: +x, -x, +y, -y, +z, -z
  LayeredCube  // `layers` cubes of six faces
};
const char* shape_name(Shape s);

enum class ObjectKind : uint8_t { Texture = 1, Surface = 2 };
/// A destroyed object's descriptor stays readable (so that stale handles fail clearly) until
/// the memory is reused; BackingFreed: the memory the object reads was freed under it.
enum class ObjectState : uint8_t { Live = 1, Destroyed = 2, BackingFreed = 3 };

struct Descriptor {
  ObjectKind kind = ObjectKind::Texture;
  ObjectState state = ObjectState::Live;
  Shape shape = Shape::Tex2D;
  uint16_t generation = 0;  // must match the handle's
  TexelFormat format;
  SamplerState sampler;  // textures only
  uint64_t base = 0;     // device address of texel (0, 0, 0) of layer 0
  uint32_t width = 1, height = 1, depth = 1;
  uint32_t layers = 1;       // layered shapes: layers; cubes: 6 per layer
  uint64_t row_pitch = 0;    // bytes from one row to the next
  uint64_t slice_pitch = 0;  // bytes from one depth slice, layer or face to the next
  uint64_t bytes = 0;        // the whole resource, for the runtime's checks

  /// The layout of one 1D/2D/3D image of it (one layer or face), for the sampler.
  TextureLayout layout() const;
  /// Dimensions the sampler addresses: 1, 2 or 3.
  uint8_t dimensions() const;
};

constexpr uint64_t kDescriptorBytes = 64;
using DescriptorImage = std::array<uint8_t, kDescriptorBytes>;

DescriptorImage encode(const Descriptor& d);
/// False when the bytes are not a descriptor (wrong magic or undefined values).
bool decode(const uint8_t* image, Descriptor& out);

/// Handles are the descriptor's device address (below 2^48) with a generation in the top 16 bits,
/// so that a handle kept after its object was destroyed never names a later object.
constexpr uint64_t make_handle(uint64_t descriptor_address, uint16_t generation) {
  return descriptor_address | uint64_t(generation) << 48;
}
constexpr uint64_t handle_address(uint64_t handle) {
  return handle & ((uint64_t(1) << 48) - 1);
}
constexpr uint16_t handle_generation(uint64_t handle) {
  return uint16_t(handle >> 48);
}

}  // namespace gpusoc::tex
