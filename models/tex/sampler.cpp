#include "models/tex/sampler.h"

#include <cmath>

namespace gpusoc::tex {
namespace {

constexpr int64_t kOutside = -1;  // a border texel: reads as zero

// The coordinate in texels after the axis's address mode. Unnormalized coordinates support clamp
// and border only: wrap and mirror act as clamp, as CUDA switches them.
float texel_coordinate(float c, uint32_t extent, AddressMode mode, bool normalized) {
  if (std::isnan(c)) c = 0;
  if (!normalized) return c;
  if (mode == AddressMode::Wrap) {
    c -= std::floor(c);
  } else if (mode == AddressMode::Mirror) {
    const float whole = std::floor(c);
    const float fraction = c - whole;
    c = std::fmod(std::fabs(whole), 2.0f) == 0 ? fraction : 1 - fraction;
  }
  return c * float(extent);
}

// A texel index on an axis of `extent` texels: clamped, wrapped, mirrored, or kOutside.
int64_t resolve(int64_t i, uint32_t extent, AddressMode mode, bool normalized) {
  const int64_t n = extent;
  if (i >= 0 && i < n) return i;
  if (mode == AddressMode::Border) return kOutside;
  if (normalized && mode == AddressMode::Wrap) return ((i % n) + n) % n;
  if (normalized && mode == AddressMode::Mirror) {
    const int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  return i < 0 ? 0 : n - 1;
}

int64_t floor_index(float x) {
  const float f = std::floor(x);
  if (f < -1e18f) return INT64_MIN / 4;
  if (f > 1e18f) return INT64_MAX / 4;
  return int64_t(f);
}

struct Axis {
  int64_t index[2];  // the texel (point), or the two texels blended (linear)
  float weight = 0;  // of index[1]
};

Axis axis(float c, uint32_t extent, AddressMode mode, const SamplerState& s) {
  const float x = texel_coordinate(c, extent, mode, s.normalized_coords);
  Axis a;
  if (s.filter == FilterMode::Point) {
    a.index[0] = a.index[1] = resolve(floor_index(x), extent, mode, s.normalized_coords);
    return a;
  }
  const float below = x - 0.5f;
  const int64_t i = floor_index(below);
  a.index[0] = resolve(i, extent, mode, s.normalized_coords);
  a.index[1] = resolve(i + 1, extent, mode, s.normalized_coords);
  a.weight = quantized_weight(below - std::floor(below));
  return a;
}

const uint8_t* texel(const TextureLayout& l, const TexelReader& read, int64_t x, int64_t y,
                     int64_t z) {
  if (x == kOutside || y == kOutside || z == kOutside) return nullptr;
  return read(uint64_t(x) * l.format.bytes() + uint64_t(y) * l.row_bytes() +
              uint64_t(z) * l.slice_bytes());
}

}  // namespace

std::string SamplerState::problem(const TexelFormat& format) const {
  if (filter == FilterMode::Linear && format.kind != ChannelKind::Float && !normalized_read)
    return "linear filtering of integer texels needs the normalized-float read mode";
  return {};
}

Float4 sample(const TextureLayout& l, const SamplerState& s, const TexelReader& read, float x,
              float y, float z) {
  const Axis ax = axis(x, l.width, s.address[0], s);
  const Axis ay = l.dimensions >= 2 ? axis(y, l.height, s.address[1], s) : Axis{{0, 0}, 0};
  const Axis az = l.dimensions >= 3 ? axis(z, l.depth, s.address[2], s) : Axis{{0, 0}, 0};
  Float4 out{};
  for (int k = 0; k < 2; ++k) {
    const float wz = k ? az.weight : 1 - az.weight;
    for (int j = 0; j < 2; ++j) {
      const float wy = j ? ay.weight : 1 - ay.weight;
      for (int i = 0; i < 2; ++i) {
        const float w = (i ? ax.weight : 1 - ax.weight) * wy * wz;
        if (w == 0) continue;  // point sampling, or a weight of exactly 0
        const uint8_t* t = texel(l, read, ax.index[i], ay.index[j], az.index[k]);
        if (!t) continue;  // border
        const Float4 v = read_float(l.format, t, s.normalized_read);
        for (int c = 0; c < 4; ++c) out[c] += w * v[c];
      }
    }
  }
  return out;
}

namespace {

// The gather footprint's texels in tld4's order, null for border texels.
std::array<const uint8_t*, 4> footprint(const TextureLayout& l, const SamplerState& s,
                                        const TexelReader& read, float x, float y) {
  SamplerState linear = s;
  linear.filter = FilterMode::Linear;
  const Axis ax = axis(x, l.width, s.address[0], linear);
  const Axis ay = axis(y, l.height, s.address[1], linear);
  return {texel(l, read, ax.index[0], ay.index[1], 0), texel(l, read, ax.index[1], ay.index[1], 0),
          texel(l, read, ax.index[1], ay.index[0], 0), texel(l, read, ax.index[0], ay.index[0], 0)};
}

}  // namespace

Float4 gather(const TextureLayout& l, const SamplerState& s, const TexelReader& read,
              unsigned component, float x, float y) {
  Float4 out{};
  const auto texels = footprint(l, s, read, x, y);
  for (size_t k = 0; k < 4; ++k)
    if (texels[k]) out[k] = read_float(l.format, texels[k], s.normalized_read)[component & 3];
  return out;
}

Int4 gather_int(const TextureLayout& l, const SamplerState& s, const TexelReader& read,
                unsigned component, float x, float y) {
  Int4 out{};
  const auto texels = footprint(l, s, read, x, y);
  for (size_t k = 0; k < 4; ++k)
    if (texels[k]) out[k] = read_int(l.format, texels[k])[component & 3];
  return out;
}

Int4 sample_int(const TextureLayout& l, const SamplerState& s, const TexelReader& read, float x,
                float y, float z) {
  SamplerState point = s;
  point.filter = FilterMode::Point;
  const auto index = [&](int d, float c, uint32_t extent) -> int64_t {
    return l.dimensions > d ? axis(c, extent, s.address[size_t(d)], point).index[0] : 0;
  };
  const uint8_t* t =
      texel(l, read, index(0, x, l.width), index(1, y, l.height), index(2, z, l.depth));
  return t ? read_int(l.format, t) : Int4{};
}

}  // namespace gpusoc::tex
