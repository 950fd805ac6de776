#include "models/tex/texture_objects.h"

#include <fmt/format.h>

#include <algorithm>

namespace gpusoc::tex {
namespace {

uint64_t round_up(uint64_t v, uint64_t to) {
  return (v + to - 1) / to * to;
}

std::string too_large(const char* what, uint64_t value, uint64_t limit) {
  return fmt::format("{} of {} is beyond the device's limit of {}", what, value, limit);
}

// The descriptor's shape, extents and pitches: the array's.
void describe_array(const ArrayLayout& a, Descriptor& d) {
  d.shape = a.shape;
  d.width = a.width;
  d.height = a.height;
  d.depth = a.depth;
  d.layers = a.layers;
  d.row_pitch = a.row_pitch;
  d.slice_pitch = a.slice_pitch;
  d.bytes = a.bytes;
}

}  // namespace

std::string array_layout(const ArrayDesc& d, const Limits& limits, ArrayLayout& out) {
  if (std::string p = d.format.problem(); !p.empty()) return "channel format: " + p;
  if (d.levels > 1)
    return fmt::format("mipmapped arrays ({} levels) are not supported: every array has one level",
                       d.levels);
  if (d.flags & ~uint32_t(kArrayLayered | kArrayCubemap | kArraySurfaceLoadStore))
    return fmt::format("flags 0x{:x} include undefined bits", d.flags);
  if (d.width == 0) return "an array needs a width of at least 1";
  ArrayLayout l;
  l.width = d.width;
  const bool layered = d.flags & kArrayLayered;
  if (d.flags & kArrayCubemap) {
    if (d.width != d.height)
      return fmt::format("cubemap faces are square, not {}x{}", d.width, d.height);
    if (d.depth == 0 || d.depth % 6 != 0 || (!layered && d.depth != 6))
      return fmt::format("a {}cubemap's depth is {}, got {}", layered ? "layered " : "",
                         layered ? "6 per layer" : "6 (its faces)", d.depth);
    if (d.width > limits.cube_width) return too_large("cubemap width", d.width, limits.cube_width);
    if (d.depth / 6 > limits.cube_layers)
      return too_large("cubemap layers", d.depth / 6, limits.cube_layers);
    l.shape = layered ? Shape::LayeredCube : Shape::Cube;
    l.height = d.height;
    l.layers = d.depth;
  } else if (layered) {
    if (d.depth == 0) return "a layered array needs its layer count as depth";
    if (d.width > limits.layered_width)
      return too_large("layered width", d.width, limits.layered_width);
    if (d.height > limits.layered_width)
      return too_large("layered height", d.height, limits.layered_width);
    if (d.depth > limits.layers) return too_large("layer count", d.depth, limits.layers);
    l.shape = d.height == 0 ? Shape::Layered1D : Shape::Layered2D;
    l.height = std::max(d.height, 1u);
    l.layers = d.depth;
  } else if (d.height == 0) {
    if (d.depth != 0) return "a 1D array (height 0) has depth 0";
    if (d.width > limits.width_1d) return too_large("1D width", d.width, limits.width_1d);
    l.shape = Shape::Tex1D;
  } else if (d.depth == 0) {
    if (d.width > limits.width_2d) return too_large("2D width", d.width, limits.width_2d);
    if (d.height > limits.height_2d) return too_large("2D height", d.height, limits.height_2d);
    l.shape = Shape::Tex2D;
    l.height = d.height;
  } else {
    const uint32_t m = std::max({d.width, d.height, d.depth});
    if (m > limits.extent_3d) return too_large("3D extent", m, limits.extent_3d);
    l.shape = Shape::Tex3D;
    l.height = d.height;
    l.depth = d.depth;
  }
  l.row_bytes = uint64_t(l.width) * d.format.bytes();
  l.row_pitch = round_up(l.row_bytes, limits.pitch_alignment);
  l.slice_pitch = l.row_pitch * l.height;
  l.bytes = l.slice_pitch * (l.shape == Shape::Tex3D ? l.depth : l.layers);
  out = l;
  return {};
}

Resource linear_resource(uint64_t base, TexelFormat format, uint64_t bytes) {
  Resource r;
  r.kind = Resource::Kind::Linear;
  r.base = base;
  r.format = format;
  r.bytes = bytes;
  return r;
}

Resource pitch2d_resource(uint64_t base, TexelFormat format, uint32_t width, uint32_t height,
                          uint64_t pitch_bytes) {
  Resource r;
  r.kind = Resource::Kind::Pitch2D;
  r.base = base;
  r.format = format;
  r.width = width;
  r.height = height;
  r.pitch = pitch_bytes;
  return r;
}

std::string texture_descriptor(const Resource& r, const SamplerState& s, const Limits& limits,
                               Descriptor& d) {
  d = Descriptor{};
  d.kind = ObjectKind::Texture;
  d.sampler = s;
  d.base = r.base;
  d.format = r.kind == Resource::Kind::Array ? r.array_format : r.format;
  if (std::string p = d.format.problem(); !p.empty()) return "channel format: " + p;
  if (std::string p = s.problem(d.format); !p.empty()) return p;
  switch (r.kind) {
    case Resource::Kind::Array:
      describe_array(r.array, d);
      return {};
    case Resource::Kind::Linear: {
      if (s.filter == FilterMode::Linear || s.normalized_coords)
        return "textures over linear memory are read with integer indices (tex1Dfetch): point "
               "filtering and unnormalized coordinates only";
      if (r.base % limits.linear_alignment != 0)
        return fmt::format("linear memory at 0x{:x} is not aligned to {} bytes", r.base,
                           limits.linear_alignment);
      const uint64_t texels = r.bytes / d.format.bytes();
      if (texels == 0 || r.bytes % d.format.bytes() != 0)
        return fmt::format("{} bytes is not a whole number of {}-byte texels", r.bytes,
                           d.format.bytes());
      if (texels > limits.linear_1d)
        return too_large("linear texel count", texels, limits.linear_1d);
      d.shape = Shape::Buffer;
      d.width = uint32_t(texels);
      d.bytes = r.bytes;
      return {};
    }
    case Resource::Kind::Pitch2D:
      if (r.base % limits.linear_alignment != 0)
        return fmt::format("pitched memory at 0x{:x} is not aligned to {} bytes", r.base,
                           limits.linear_alignment);
      if (r.width == 0 || r.height == 0) return "pitched 2D memory needs a width and a height";
      if (r.pitch % limits.pitch_alignment != 0 || r.pitch < uint64_t(r.width) * d.format.bytes())
        return fmt::format("a pitch of {} bytes must hold a row ({} bytes) and be a multiple of {}",
                           r.pitch, uint64_t(r.width) * d.format.bytes(), limits.pitch_alignment);
      if (std::max(r.width, r.height) > limits.linear_2d)
        return too_large("pitched 2D extent", std::max(r.width, r.height), limits.linear_2d);
      d.shape = Shape::Tex2D;
      d.width = r.width;
      d.height = r.height;
      d.row_pitch = r.pitch;
      d.slice_pitch = r.pitch * r.height;
      d.bytes = d.slice_pitch;
      return {};
  }
  return "unknown resource kind";
}

std::string surface_descriptor(const Resource& r, Descriptor& d) {
  if (r.kind != Resource::Kind::Array) return "surfaces are made over arrays only";
  if (!r.surface_capable)
    return "the array was not allocated for surface load/store (kArraySurfaceLoadStore)";
  d = Descriptor{};
  d.kind = ObjectKind::Surface;
  d.base = r.base;
  d.format = r.array_format;
  describe_array(r.array, d);
  // Cubemap surfaces are addressed as layered 2D surfaces of their faces.
  if (d.shape == Shape::Cube || d.shape == Shape::LayeredCube) d.shape = Shape::Layered2D;
  return {};
}

uint16_t ObjectRegistry::next_generation() {
  if (++generation_ == 0) ++generation_;
  return generation_;
}

void ObjectRegistry::add(uint64_t handle, uint64_t begin, uint64_t end) {
  objects_[handle] = Range{begin, end};
}

bool ObjectRegistry::remove(uint64_t handle) {
  return objects_.erase(handle) != 0;
}

std::vector<uint64_t> ObjectRegistry::reading(uint64_t begin, uint64_t end) const {
  std::vector<uint64_t> out;
  for (const auto& [handle, range] : objects_)
    if (range.begin < end && begin < range.end) out.push_back(handle);
  return out;
}

}  // namespace gpusoc::tex
