// Texture and surface objects as a driver makes them (CUDA's object API): arrays and their
// layout, what an object reads (an array, a linear buffer, pitched 2D memory), the checks that
// turn misuse into clear errors, and the bookkeeping that lets the texture unit tell a destroyed
// object, or one whose memory was freed, from a live one. Host-side; both the runtime and the
// bare functional device build their objects with it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/tex/descriptor.h"

namespace gpusoc::tex {

/// Array flags, as cudaMalloc3DArray's.
enum ArrayFlags : uint32_t { kArrayLayered = 1, kArrayCubemap = 4, kArraySurfaceLoadStore = 2 };

/// An array as cudaMalloc3DArray describes it: height 0 for 1D, depth 0 for 1D and 2D; layered
/// arrays give the layer count as depth; cubemaps are square with depth 6 (6 x layers when
/// layered too). `levels` above 1 asks for a mipmapped array.
struct ArrayDesc {
  TexelFormat format;
  uint32_t width = 0, height = 0, depth = 0;
  uint32_t flags = 0;
  uint32_t levels = 1;
};

/// The largest objects (an sm_80 GPU's, from cudaDeviceProp).
struct Limits {
  uint32_t width_1d = 131072;                     // maxTexture1D (arrays)
  uint32_t linear_1d = 1u << 28;                  // maxTexture1DLinear, texels
  uint32_t width_2d = 131072, height_2d = 65536;  // maxTexture2D
  uint32_t linear_2d = 131072;                    // maxTexture2DLinear, each side
  uint32_t extent_3d = 16384;                     // maxTexture3D, each side
  uint32_t layered_width = 32768, layers = 2048;  // maxTexture2DLayered
  uint32_t cube_width = 32768, cube_layers = 2046;
  uint32_t pitch_alignment = 32;    // texturePitchAlignment, bytes
  uint32_t linear_alignment = 256;  // textureAlignment, bytes (a device allocation's alignment)
};

/// Where an array's texels lie: rows `row_pitch` apart, each slice, layer or face `slice_pitch`
/// apart, `bytes` in all.
struct ArrayLayout {
  Shape shape = Shape::Tex1D;
  uint32_t width = 1, height = 1, depth = 1, layers = 1;
  uint64_t row_pitch = 0, slice_pitch = 0, bytes = 0;
  uint64_t row_bytes = 0;  // of texels, without padding
  uint64_t rows() const { return uint64_t(height) * (shape == Shape::Tex3D ? depth : layers); }
};
/// The array's layout, or a problem (format, mipmaps, sizes beyond `limits`).
std::string array_layout(const ArrayDesc& desc, const Limits& limits, ArrayLayout& out);

/// What an object reads (cudaResourceDesc).
struct Resource {
  enum class Kind : uint8_t { Array, Linear, Pitch2D };
  Kind kind = Kind::Array;
  uint64_t base = 0;   // device address
  ArrayLayout array;   // Kind::Array
  TexelFormat format;  // Linear, Pitch2D (arrays carry theirs in `array_format`)
  TexelFormat array_format;
  bool surface_capable = false;  // Array: allocated with kArraySurfaceLoadStore
  uint64_t bytes = 0;            // Linear
  uint32_t width = 0, height = 0;
  uint64_t pitch = 0;  // Pitch2D
};

/// What a texture reads besides an array (cudaResourceDesc's linear and pitch2D kinds).
Resource linear_resource(uint64_t base, TexelFormat format, uint64_t bytes);
Resource pitch2d_resource(uint64_t base, TexelFormat format, uint32_t width, uint32_t height,
                          uint64_t pitch_bytes);

/// Calls copy(array_offset, host_offset, bytes) for what a copy of a whole array from or to
/// host rows `host_pitch` bytes apart moves: once when the pitches agree, else once a row.
template <typename Copy>
void for_each_row_span(const ArrayLayout& a, uint64_t host_pitch, Copy&& copy) {
  if (host_pitch == a.row_pitch) return copy(uint64_t(0), uint64_t(0), a.row_pitch * a.rows());
  for (uint64_t row = 0; row < a.rows(); ++row)
    copy(row * a.row_pitch, row * host_pitch, a.row_bytes);
}

/// The descriptor of a texture over `r` with `sampler` (generation 0), or a problem.
std::string texture_descriptor(const Resource& r, const SamplerState& sampler, const Limits& limits,
                               Descriptor& out);
/// The descriptor of a surface over array `r`, or a problem.
std::string surface_descriptor(const Resource& r, Descriptor& out);

/// The live objects of one device: handle generations, and which descriptors read which memory.
class ObjectRegistry {
 public:
  /// A generation for the next object's descriptor and handle; never 0, so no handle is 0.
  uint16_t next_generation();
  void add(uint64_t handle, uint64_t memory_begin, uint64_t memory_end);
  /// Forgets a live object; false when `handle` names none (never made, or destroyed already).
  bool remove(uint64_t handle);
  /// Handles of the live objects that read memory in [begin, end): the caller marks their
  /// descriptors BackingFreed before the memory goes.
  std::vector<uint64_t> reading(uint64_t begin, uint64_t end) const;
  size_t size() const { return objects_.size(); }

 private:
  struct Range {
    uint64_t begin, end;
  };
  std::map<uint64_t, Range> objects_;  // by handle
  uint16_t generation_ = 0;
};

}  // namespace gpusoc::tex
