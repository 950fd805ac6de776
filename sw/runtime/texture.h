// Arrays, texture objects and surface objects, in the style of CUDA's object API
// (cudaMalloc3DArray, cudaCreateTextureObject, cudaCreateSurfaceObject). Objects are 64-bit
// handles passed to kernels as cudaTextureObject_t / cudaSurfaceObject_t parameters; their
// descriptors live in device memory, where the texture unit reads them (docs/texture.md).
// All three are RAII and move-only; destroying one waits for outstanding GPU work first.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "models/tex/texture_objects.h"
#include "sw/runtime/types.h"

namespace gpusoc::rt {

class Context;

using tex::AddressMode;
using tex::ArrayDesc;
using tex::ChannelKind;
using tex::FilterMode;
using tex::kArrayCubemap;
using tex::kArrayLayered;
using tex::kArraySurfaceLoadStore;
using tex::TexelFormat;

/// The channel format of `channels` channels of T (cudaCreateChannelDesc<T>): float, uint16_t
/// as half when `half`, and 8-, 16- and 32-bit signed and unsigned integers.
template <typename T>
TexelFormat channel_format(uint8_t channels = 1) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "8-, 16- or 32-bit channels");
  TexelFormat f;
  f.kind = std::is_floating_point_v<T> ? ChannelKind::Float
           : std::is_signed_v<T>       ? ChannelKind::Signed
                                       : ChannelKind::Unsigned;
  f.bits = uint8_t(sizeof(T) * 8);
  f.channels = channels;
  return f;
}

/// How a texture reads integer texels: as they are, or as floats in [0, 1] / [-1, 1].
enum class ReadMode : uint8_t { ElementType, NormalizedFloat };

/// cudaTextureDesc: address mode per axis, filtering, read mode, coordinate normalization.
struct TextureDesc {
  std::array<AddressMode, 3> address{AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  FilterMode filter = FilterMode::Point;
  ReadMode read = ReadMode::ElementType;
  bool normalized_coords = false;
  tex::SamplerState sampler() const;
};

// What a texture reads besides an array (cudaResourceDesc's linear and pitch2D kinds).
using tex::linear_resource;
using tex::pitch2d_resource;

/// Device memory laid out as an array (1D, 2D, 3D, layered, cubemap), rows padded to the
/// texture pitch alignment. Error(InvalidValue) for a bad format, flags or size, and for
/// mipmapped arrays, which are not supported.
class Array {
 public:
  Array() = default;
  Array(std::shared_ptr<Context> ctx, const ArrayDesc& desc);
  Array(Array&& other) noexcept { swap(other); }
  Array& operator=(Array&& other) noexcept {
    Array(std::move(other)).swap(*this);
    return *this;
  }
  ~Array() { reset(); }
  bool valid() const { return ctx_ != nullptr; }
  void reset() noexcept;

  /// What textures and surfaces over the array read.
  const tex::Resource& resource() const;
  const tex::ArrayLayout& layout() const { return resource().array; }
  /// Synchronous copies of the whole array (every row of every slice, layer or face) from or
  /// to host memory whose rows are `host_pitch` bytes apart (0: packed). Rows are copied as one
  /// block when the pitches agree, else row by row through the copy engines.
  void upload(const void* host, uint64_t host_pitch = 0);
  void download(void* host, uint64_t host_pitch = 0) const;
  template <typename T>
  void upload(const std::vector<T>& host) {
    check_host_bytes(host.size() * sizeof(T));
    upload(host.data());
  }
  template <typename T>
  std::vector<T> download() const {
    std::vector<T> host(packed_bytes() / sizeof(T));
    check_host_bytes(host.size() * sizeof(T));
    download(host.data());
    return host;
  }
  uint64_t packed_bytes() const { return layout().row_bytes * layout().rows(); }

 private:
  void check_host_bytes(uint64_t bytes) const;
  /// `host_pitch`, or the packed row size for 0; Error(InvalidValue) naming `what` when shorter
  /// than a row.
  uint64_t host_pitch_or_packed(const char* what, uint64_t host_pitch) const;
  void swap(Array& o) noexcept {
    std::swap(ctx_, o.ctx_);
    std::swap(resource_, o.resource_);
  }
  std::shared_ptr<Context> ctx_;
  tex::Resource resource_;
};

/// A texture or surface object: its handle, and the descriptor it names.
class TextureObject {
 public:
  TextureObject() = default;
  TextureObject(std::shared_ptr<Context> ctx, uint64_t handle)
      : ctx_(std::move(ctx)), handle_(handle) {}
  TextureObject(TextureObject&& other) noexcept { swap(other); }
  TextureObject& operator=(TextureObject&& other) noexcept {
    TextureObject(std::move(other)).swap(*this);
    return *this;
  }
  ~TextureObject() { reset(); }
  bool valid() const { return ctx_ != nullptr; }
  /// The 64-bit handle a kernel takes (Error(InvalidHandle) when empty).
  const uint64_t& handle() const;
  /// Destroys the object now (cudaDestroyTextureObject).
  void reset() noexcept;

 private:
  void swap(TextureObject& o) noexcept {
    std::swap(ctx_, o.ctx_);
    std::swap(handle_, o.handle_);
  }
  std::shared_ptr<Context> ctx_;
  uint64_t handle_ = 0;
};
/// Surfaces are objects of the same kind (cudaSurfaceObject_t is a 64-bit handle too).
using SurfaceObject = TextureObject;

/// A texture or surface object passed to a kernel is its handle.
inline const uint64_t& kernel_argument(const TextureObject& object) {
  return object.handle();
}

}  // namespace gpusoc::rt
