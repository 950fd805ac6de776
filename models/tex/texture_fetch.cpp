#include "models/tex/texture_fetch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpusoc::tex {
namespace {

bool layered(Geometry g) {
  return g == Geometry::A1D || g == Geometry::A2D || g == Geometry::ACube;
}

// The shape a geometry reads.
Shape shape_of(Geometry g) {
  switch (g) {
    case Geometry::D1:
      return Shape::Tex1D;
    case Geometry::D2:
      return Shape::Tex2D;
    case Geometry::D3:
      return Shape::Tex3D;
    case Geometry::A1D:
      return Shape::Layered1D;
    case Geometry::A2D:
      return Shape::Layered2D;
    case Geometry::Cube:
      return Shape::Cube;
    case Geometry::ACube:
      return Shape::LayeredCube;
  }
  return Shape::Tex1D;
}

template <typename T>
uint32_t bits_of(T v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

FetchResult from_float(const Float4& v) {
  FetchResult r;
  for (size_t i = 0; i < 4; ++i) r.bits[i] = bits_of(v[i]);
  return r;
}
FetchResult from_int(const Int4& v) {
  FetchResult r;
  r.bits = v;
  r.is_float = false;
  return r;
}

// The layer (or, for cubes, layer * 6 + face) clamped to the object's.
uint64_t clamp_layer(int64_t layer, uint32_t layers) {
  if (layers == 0) return 0;  // a cube's layers / 6 of a descriptor a kernel overwrote
  return uint64_t(std::clamp<int64_t>(layer, 0, int64_t(layers) - 1));
}

// Cubemap face selection (the CUDA programming guide's cubemap table, as OpenGL defines it):
// the major axis picks the face; the other two coordinates, divided by its magnitude, address
// the face in [0, 1].
struct FaceCoordinates {
  unsigned face;
  float s, t;
};
FaceCoordinates cube_face(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  unsigned face;
  float m, s, t;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    m = ax;
    s = x >= 0 ? -z : z;
    t = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    m = ay;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az;
    s = z >= 0 ? x : -x;
    t = -y;
  }
  if (m == 0) return {0, 0.5f, 0.5f};
  return {face, (s / m + 1) * 0.5f, (t / m + 1) * 0.5f};
}

// What the fetch reads after layer and face selection: one image, its reader, and coordinates.
struct Image {
  TextureLayout layout;
  SamplerState sampler;
  TexelReader read;
  float x = 0, y = 0, z = 0;
};

Image select_image(const Descriptor& d, Geometry g, const Coordinates& c, const TexelReader& read) {
  Image im;
  im.layout = d.layout();
  im.sampler = d.sampler;
  const size_t first = layered(g) ? 1 : 0;  // coordinates after the layer index
  uint64_t image = 0;
  if (g == Geometry::Cube || g == Geometry::ACube) {
    const FaceCoordinates f = cube_face(c.f(first), c.f(first + 1), c.f(first + 2));
    const uint64_t layer = g == Geometry::ACube ? clamp_layer(c.i(0), d.layers / 6) : 0;
    image = layer * 6 + f.face;
    im.x = f.s;
    im.y = f.t;
    im.sampler.normalized_coords = true;  // face coordinates are normalized by construction
    im.sampler.address = {AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp};
  } else {
    if (layered(g)) image = clamp_layer(c.i(0), d.layers);
    im.x = c.f(first);
    im.y = c.f(first + 1);
    im.z = c.f(first + 2);
  }
  if (c.integer) {  // texel indices: the texel's centre, unnormalized, unfiltered
    im.sampler.normalized_coords = false;
    im.sampler.filter = FilterMode::Point;
    im.x = float(c.i(first)) + 0.5f;
    im.y = float(c.i(first + 1)) + 0.5f;
    im.z = float(c.i(first + 2)) + 0.5f;
  }
  const uint64_t shift = image * d.slice_pitch;
  im.read = shift ? TexelReader([&read, shift](uint64_t o) { return read(o + shift); }) : read;
  return im;
}

}  // namespace

float Coordinates::f(size_t k) const {
  if (k >= 4) return 0;
  if (integer) return float(int32_t(bits[k]));
  float v;
  std::memcpy(&v, &bits[k], 4);
  return v;
}

const char* geometry_name(Geometry g) {
  static const char* const names[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};
  return names[size_t(g)];
}

unsigned coordinate_count(Geometry g) {
  switch (g) {
    case Geometry::D1:
      return 1;
    case Geometry::D2:
    case Geometry::A1D:
      return 2;
    default:
      return 4;
  }
}

std::string geometry_problem(const Descriptor& d, Geometry g) {
  const Shape want = shape_of(g);
  if (d.shape == want) return {};
  if (d.shape == Shape::Buffer && g == Geometry::D1) return {};
  return fmt::format("a .{} access reads {} objects, and this one is {}", geometry_name(g),
                     shape_name(want), shape_name(d.shape));
}

bool returns_float(const Descriptor& d) {
  return d.format.kind == ChannelKind::Float || d.sampler.normalized_read;
}

FetchResult fetch(const Descriptor& d, Geometry g, const Coordinates& c, const TexelReader& read) {
  if (d.shape == Shape::Buffer) {
    const int64_t i = c.integer ? c.i(0) : int64_t(std::floor(c.f(0)));
    if (i < 0 || i >= int64_t(d.width)) return FetchResult{{}, returns_float(d)};
    const uint8_t* t = read(uint64_t(i) * d.format.bytes());
    if (returns_float(d)) return from_float(read_float(d.format, t, d.sampler.normalized_read));
    return from_int(read_int(d.format, t));
  }
  const Image im = select_image(d, g, c, read);
  if (returns_float(d)) return from_float(sample(im.layout, im.sampler, im.read, im.x, im.y, im.z));
  return from_int(sample_int(im.layout, im.sampler, im.read, im.x, im.y, im.z));
}

FetchResult gather(const Descriptor& d, Geometry g, unsigned component, const Coordinates& c,
                   const TexelReader& read) {
  const Image im = select_image(d, g, c, read);
  if (returns_float(d))
    return from_float(tex::gather(im.layout, im.sampler, im.read, component, im.x, im.y));
  return from_int(gather_int(im.layout, im.sampler, im.read, component, im.x, im.y));
}

uint32_t query(const Descriptor& d, Query q) {
  switch (q) {
    case Query::Width:
      return d.width;
    case Query::Height:
      return d.dimensions() >= 2 ? d.height : 0;
    case Query::Depth:
      return d.dimensions() >= 3 ? d.depth : 0;
    case Query::ChannelDataType: {
      // OpenCL: CL_SNORM_INT8 0x10D0 ... CL_FLOAT 0x10DE.
      const bool normalized = d.sampler.normalized_read && d.kind == ObjectKind::Texture;
      const uint32_t size = d.format.bits == 8 ? 0 : d.format.bits == 16 ? 1 : 2;
      switch (d.format.kind) {
        case ChannelKind::Float:
          return d.format.bits == 16 ? 0x10DD : 0x10DE;
        case ChannelKind::Signed:
          return normalized && size < 2 ? 0x10D0 + size : 0x10D7 + size;
        case ChannelKind::Unsigned:
          return normalized && size < 2 ? 0x10D2 + size : 0x10DA + size;
      }
      return 0;
    }
    case Query::ChannelOrder:  // OpenCL: CL_R 0x10B0, CL_RG 0x10B2, CL_RGBA 0x10B5
      return d.format.channels == 1 ? 0x10B0 : d.format.channels == 2 ? 0x10B2 : 0x10B5;
    case Query::NormalizedCoords:
      return d.sampler.normalized_coords ? 1 : 0;
    case Query::FilterMode:
      return uint32_t(d.sampler.filter);
    case Query::AddrMode0:
    case Query::AddrMode1:
    case Query::AddrMode2:
      return uint32_t(d.sampler.address[size_t(q) - size_t(Query::AddrMode0)]);
    case Query::ArraySize:
      return d.shape == Shape::LayeredCube                                ? d.layers / 6
             : d.shape == Shape::Layered1D || d.shape == Shape::Layered2D ? d.layers
                                                                          : 0;
    case Query::NumMipmapLevels:
    case Query::NumSamples:
      return 1;
    case Query::MemoryLayout:
      return 1;  // pitch linear
  }
  return 0;
}

SurfaceAccess surface_address(const Descriptor& d, Geometry g, const Coordinates& c, unsigned bytes,
                              Boundary b) {
  const size_t first = layered(g) ? 1 : 0;
  const unsigned dims = d.dimensions();
  const int64_t row_bytes = int64_t(d.width) * d.format.bytes();
  int64_t pos[3] = {c.i(first), dims >= 2 ? c.i(first + 1) : 0, dims >= 3 ? c.i(first + 2) : 0};
  const int64_t limit[3] = {row_bytes - int64_t(bytes) + 1, int64_t(d.height), int64_t(d.depth)};
  int64_t layer = layered(g) ? c.i(0) : 0;
  SurfaceAccess a;
  for (size_t k = 0; k < 3; ++k) {
    if (pos[k] >= 0 && pos[k] < limit[k]) continue;
    a.inside = false;
    pos[k] = std::clamp<int64_t>(pos[k], 0, std::max<int64_t>(limit[k] - 1, 0));
  }
  if (layer < 0 || layer >= int64_t(d.layers)) {
    a.inside = false;
    layer = int64_t(clamp_layer(layer, d.layers));
  }
  if (!a.inside && b == Boundary::Clamp) {
    a.inside = true;
    pos[0] -= pos[0] % bytes;  // the nearest whole element
  }
  const uint64_t image = dims >= 3 ? uint64_t(pos[2]) : uint64_t(layer);
  a.offset = uint64_t(pos[0]) + uint64_t(pos[1]) * d.layout().row_bytes() +
             image * d.layout().slice_bytes();
  return a;
}

}  // namespace gpusoc::tex
