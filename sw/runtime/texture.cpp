#include "sw/runtime/texture.h"

#include <fmt/format.h>

#include "sw/runtime/context.h"

namespace gpusoc::rt {
namespace {

constexpr const char* kStream = "stream 0 (default)";

}  // namespace

tex::SamplerState TextureDesc::sampler() const {
  tex::SamplerState s;
  s.address = address;
  s.filter = filter;
  s.normalized_read = read == ReadMode::NormalizedFloat;
  s.normalized_coords = normalized_coords;
  return s;
}

tex::Resource linear_resource(DevicePtr ptr, TexelFormat format, uint64_t bytes) {
  tex::Resource r;
  r.kind = tex::Resource::Kind::Linear;
  r.base = ptr;
  r.format = format;
  r.bytes = bytes;
  return r;
}

tex::Resource pitch2d_resource(DevicePtr ptr, TexelFormat format, uint32_t width, uint32_t height,
                               uint64_t pitch_bytes) {
  tex::Resource r;
  r.kind = tex::Resource::Kind::Pitch2D;
  r.base = ptr;
  r.format = format;
  r.width = width;
  r.height = height;
  r.pitch = pitch_bytes;
  return r;
}

Array::Array(std::shared_ptr<Context> ctx, const ArrayDesc& desc) {
  tex::ArrayLayout layout;
  const std::string problem = tex::array_layout(desc, ctx->textures().limits(), layout);
  if (!problem.empty()) throw Error(Status::InvalidValue, "create_array: " + problem);
  resource_.kind = tex::Resource::Kind::Array;
  resource_.array = layout;
  resource_.array_format = desc.format;
  resource_.surface_capable = desc.flags & tex::kArraySurfaceLoadStore;
  resource_.base = ctx->allocate_device(layout.bytes);
  ctx_ = std::move(ctx);
}

void Array::reset() noexcept {
  if (ctx_) {
    try {
      ctx_->free_device(resource_.base);
    } catch (const Error& e) {
      ctx_->defer(e);
    }
  }
  ctx_.reset();
  resource_ = tex::Resource{};
}

const tex::Resource& Array::resource() const {
  if (!valid())
    throw Error(Status::InvalidHandle,
                "Array: empty handle (moved-from, freed or default-constructed)");
  return resource_;
}

void Array::check_host_bytes(uint64_t bytes) const {
  if (bytes != packed_bytes()) {
    throw Error(Status::InvalidValue,
                fmt::format("Array: {} bytes given, the array holds {} ({} rows of {} bytes)",
                            bytes, packed_bytes(), layout().rows(), layout().row_bytes));
  }
}

void Array::upload(const void* host, uint64_t host_pitch) {
  const tex::ArrayLayout& l = layout();
  if (host_pitch == 0) host_pitch = l.row_bytes;
  if (host_pitch < l.row_bytes)
    throw Error(Status::InvalidValue,
                fmt::format("Array::upload: a host pitch of {} bytes is shorter "
                            "than a row ({} bytes)",
                            host_pitch, l.row_bytes));
  const auto* src = static_cast<const uint8_t*>(host);
  Channel& ch = ctx_->channel(0);
  if (host_pitch == l.row_pitch) {
    ctx_->memcpy_htod(ch, kStream, resource_.base, src, l.row_pitch * l.rows(), true);
    return;
  }
  for (uint64_t row = 0; row < l.rows(); ++row)
    ctx_->memcpy_htod(ch, kStream, resource_.base + row * l.row_pitch, src + row * host_pitch,
                      l.row_bytes, true);
}

void Array::download(void* host, uint64_t host_pitch) const {
  const tex::ArrayLayout& l = layout();
  if (host_pitch == 0) host_pitch = l.row_bytes;
  if (host_pitch < l.row_bytes)
    throw Error(Status::InvalidValue, fmt::format("Array::download: a host pitch of {} bytes is "
                                                  "shorter than a row ({} bytes)",
                                                  host_pitch, l.row_bytes));
  auto* dst = static_cast<uint8_t*>(host);
  Channel& ch = ctx_->channel(0);
  if (host_pitch == l.row_pitch) {
    ctx_->memcpy_dtoh(ch, kStream, dst, resource_.base, l.row_pitch * l.rows(), true);
    return;
  }
  for (uint64_t row = 0; row < l.rows(); ++row)
    ctx_->memcpy_dtoh(ch, kStream, dst + row * host_pitch, resource_.base + row * l.row_pitch,
                      l.row_bytes, true);
}

const uint64_t& TextureObject::handle() const {
  if (!valid())
    throw Error(Status::InvalidHandle,
                "TextureObject: empty handle (moved-from, destroyed or default-constructed)");
  return handle_;
}

void TextureObject::reset() noexcept {
  if (ctx_) {
    try {
      ctx_->textures().destroy(handle_);
    } catch (const Error& e) {
      ctx_->defer(e);
    }
  }
  ctx_.reset();
  handle_ = 0;
}

}  // namespace gpusoc::rt
