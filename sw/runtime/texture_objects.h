// The runtime's texture and surface objects (internal to the runtime; the public API is
// texture.h): each object's descriptor in device memory, written through the copy engines, and
// the bookkeeping that marks descriptors destroyed, or their memory freed, so that a kernel using
// a stale handle fails with a clear message instead of reading whatever is there now.
#pragma once

#include <cstdint>

#include "models/tex/texture_objects.h"
#include "sw/runtime/types.h"

namespace gpusoc::rt {

class Context;

class TextureObjects {
 public:
  explicit TextureObjects(Context& ctx) : ctx_(ctx) {}

  /// The device's (DeviceProperties::texture_limits, from BAR0).
  const tex::Limits& limits() const;
  /// Error(InvalidValue) naming the problem (format, sampler, sizes, alignment, memory that is
  /// not one live allocation); otherwise the new object's handle.
  uint64_t create_texture(const tex::Resource& r, const tex::SamplerState& sampler);
  uint64_t create_surface(const tex::Resource& r);
  /// Waits for outstanding work, then marks the descriptor destroyed and frees it;
  /// Error(InvalidHandle) when `handle` names no live object.
  void destroy(uint64_t handle);
  /// Called before device memory [begin, begin + bytes) is freed: the objects reading it are
  /// marked, so that a kernel using one fails naming the freed memory.
  void memory_freed(DevicePtr begin, uint64_t bytes);

 private:
  uint64_t publish(tex::Descriptor d, const char* what);
  void set_state(uint64_t handle, tex::ObjectState state);

  Context& ctx_;
  tex::ObjectRegistry registry_;
};

}  // namespace gpusoc::rt
