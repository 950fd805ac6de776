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

uint64_t Array::host_pitch_or_packed(const char* what, uint64_t host_pitch) const {
  const uint64_t row = layout().row_bytes;
  if (host_pitch == 0) return row;
  if (host_pitch < row) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: a host pitch of {} bytes is shorter than a row ({} bytes)", what,
                            host_pitch, row));
  }
  return host_pitch;
}

void Array::upload(const void* host, uint64_t host_pitch) {
  const auto* src = static_cast<const uint8_t*>(host);
  tex::for_each_row_span(layout(), host_pitch_or_packed("Array::upload", host_pitch),
                         [&](uint64_t at, uint64_t from, uint64_t bytes) {
                           ctx_->memcpy_htod(ctx_->channel(0), kStream, resource_.base + at,
                                             src + from, bytes, true);
                         });
}

void Array::download(void* host, uint64_t host_pitch) const {
  auto* dst = static_cast<uint8_t*>(host);
  tex::for_each_row_span(layout(), host_pitch_or_packed("Array::download", host_pitch),
                         [&](uint64_t at, uint64_t to, uint64_t bytes) {
                           ctx_->memcpy_dtoh(ctx_->channel(0), kStream, dst + to,
                                             resource_.base + at, bytes, true);
                         });
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
