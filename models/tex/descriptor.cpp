#include "models/tex/descriptor.h"

#include <cstring>

namespace gpusoc::tex {
namespace {

constexpr uint32_t kTextureMagic = 0x58455447;  // "GTEX"
constexpr uint32_t kSurfaceMagic = 0x46525347;  // "GSRF"
constexpr uint8_t kNormalizedRead = 1, kNormalizedCoords = 2;

template <typename T>
void put(DescriptorImage& image, size_t offset, T value) {
  std::memcpy(image.data() + offset, &value, sizeof value);
}
template <typename T>
T get(const uint8_t* image, size_t offset) {
  T value;
  std::memcpy(&value, image + offset, sizeof value);
  return value;
}

}  // namespace

const char* shape_name(Shape s) {
  switch (s) {
    case Shape::Buffer:
      return "linear buffer";
    case Shape::Tex1D:
      return "1D";
    case Shape::Tex2D:
      return "2D";
    case Shape::Tex3D:
      return "3D";
    case Shape::Layered1D:
      return "layered 1D";
    case Shape::Layered2D:
      return "layered 2D";
    case Shape::Cube:
      return "cubemap";
    case Shape::LayeredCube:
      return "layered cubemap";
  }
  return "?";
}

uint8_t Descriptor::dimensions() const {
  switch (shape) {
    case Shape::Buffer:
    case Shape::Tex1D:
    case Shape::Layered1D:
      return 1;
    case Shape::Tex3D:
      return 3;
    default:
      return 2;
  }
}

TextureLayout Descriptor::layout() const {
  TextureLayout l;
  l.format = format;
  l.dimensions = dimensions();
  l.width = width;
  l.height = l.dimensions >= 2 ? height : 1;
  l.depth = l.dimensions >= 3 ? depth : 1;
  l.row_pitch = row_pitch;
  l.slice_pitch = slice_pitch;
  return l;
}

DescriptorImage encode(const Descriptor& d) {
  DescriptorImage image{};
  put(image, 0, d.kind == ObjectKind::Surface ? kSurfaceMagic : kTextureMagic);
  put(image, 4, uint8_t(d.state));
  put(image, 5, uint8_t(d.shape));
  put(image, 6, d.generation);
  put(image, 8, d.base);
  put(image, 16, d.width);
  put(image, 20, d.height);
  put(image, 24, d.depth);
  put(image, 28, d.layers);
  put(image, 32, d.row_pitch);
  put(image, 40, d.slice_pitch);
  put(image, 48, d.bytes);
  put(image, 56, uint8_t(d.format.kind));
  put(image, 57, d.format.bits);
  put(image, 58, d.format.channels);
  put(image, 59, uint8_t(d.sampler.filter));
  for (size_t i = 0; i < 3; ++i) put(image, 60 + i, uint8_t(d.sampler.address[i]));
  put(image, 63,
      uint8_t((d.sampler.normalized_read ? kNormalizedRead : 0) |
              (d.sampler.normalized_coords ? kNormalizedCoords : 0)));
  return image;
}

bool decode(const uint8_t* image, Descriptor& d) {
  const uint32_t magic = get<uint32_t>(image, 0);
  if (magic != kTextureMagic && magic != kSurfaceMagic) return false;
  d.kind = magic == kSurfaceMagic ? ObjectKind::Surface : ObjectKind::Texture;
  const uint8_t state = image[4], shape = image[5];
  if (state < uint8_t(ObjectState::Live) || state > uint8_t(ObjectState::BackingFreed) ||
      shape > uint8_t(Shape::LayeredCube) || image[56] > uint8_t(ChannelKind::Float) ||
      image[59] > uint8_t(FilterMode::Linear) || image[63] > 3) {
    return false;
  }
  for (size_t i = 0; i < 3; ++i)
    if (image[60 + i] > uint8_t(AddressMode::Border)) return false;
  d.state = ObjectState(state);
  d.shape = Shape(shape);
  d.generation = get<uint16_t>(image, 6);
  d.base = get<uint64_t>(image, 8);
  d.width = get<uint32_t>(image, 16);
  d.height = get<uint32_t>(image, 20);
  d.depth = get<uint32_t>(image, 24);
  d.layers = get<uint32_t>(image, 28);
  d.row_pitch = get<uint64_t>(image, 32);
  d.slice_pitch = get<uint64_t>(image, 40);
  d.bytes = get<uint64_t>(image, 48);
  d.format.kind = ChannelKind(image[56]);
  d.format.bits = image[57];
  d.format.channels = image[58];
  d.sampler.filter = FilterMode(image[59]);
  for (size_t i = 0; i < 3; ++i) d.sampler.address[i] = AddressMode(image[60 + i]);
  d.sampler.normalized_read = image[63] & kNormalizedRead;
  d.sampler.normalized_coords = image[63] & kNormalizedCoords;
  const bool cube = d.shape == Shape::Cube || d.shape == Shape::LayeredCube;
  return d.format.problem().empty() && d.width > 0 && d.height > 0 && d.depth > 0 &&
         d.layers > 0 && (!cube || d.layers % 6 == 0);
}

}  // namespace gpusoc::tex
