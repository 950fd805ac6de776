#include "sw/runtime/texture_objects.h"

#include <fmt/format.h>

#include "sw/runtime/context.h"

namespace gpusoc::rt {
namespace {

constexpr const char* kStream = "stream 0 (default)";

}  // namespace

const tex::Limits& TextureObjects::limits() const {
  return ctx_.properties().texture_limits;
}

uint64_t TextureObjects::create_texture(const tex::Resource& r, const tex::SamplerState& s) {
  tex::Descriptor d;
  const std::string problem = tex::texture_descriptor(r, s, limits(), d);
  if (!problem.empty()) throw Error(Status::InvalidValue, "create_texture: " + problem);
  return publish(d, "create_texture");
}

uint64_t TextureObjects::create_surface(const tex::Resource& r) {
  tex::Descriptor d;
  const std::string problem = tex::surface_descriptor(r, d);
  if (!problem.empty()) throw Error(Status::InvalidValue, "create_surface: " + problem);
  return publish(d, "create_surface");
}

uint64_t TextureObjects::publish(tex::Descriptor d, const char* what) {
  ctx_.check_device_range(d.base, d.bytes, what);
  d.generation = registry_.next_generation();
  const DevicePtr address = ctx_.vram().allocate(tex::kDescriptorBytes);
  const uint64_t handle = tex::make_handle(address, d.generation);
  const tex::DescriptorImage image = tex::encode(d);
  try {
    ctx_.memcpy_htod(ctx_.channel(0), kStream, address, image.data(), image.size(), true);
  } catch (const Error&) {
    ctx_.vram().free(address);
    throw;
  }
  registry_.add(handle, d.base, d.base + d.bytes);
  return handle;
}

void TextureObjects::set_state(uint64_t handle, tex::ObjectState state) {
  const uint8_t byte = uint8_t(state);
  ctx_.memcpy_htod(ctx_.channel(0), kStream, tex::handle_address(handle) + 4, &byte, 1, true);
}

void TextureObjects::destroy(uint64_t handle) {
  if (!registry_.remove(handle)) {
    throw Error(Status::InvalidHandle,
                fmt::format("object 0x{:x} is not a live texture or surface object (destroyed "
                            "already, or never made)",
                            handle));
  }
  ctx_.drain();  // kernels queued before the destroy still read it
  set_state(handle, tex::ObjectState::Destroyed);
  ctx_.vram().free(tex::handle_address(handle));
}

void TextureObjects::memory_freed(DevicePtr begin, uint64_t bytes) {
  for (const uint64_t handle : registry_.reading(begin, begin + bytes))
    set_state(handle, tex::ObjectState::BackingFreed);
}

}  // namespace gpusoc::rt
