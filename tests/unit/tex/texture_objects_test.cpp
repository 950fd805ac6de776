// Descriptors, array layouts, the checks on objects, and the geometry-level fetches (cube faces,
// layers, buffers, surface boundaries), against values worked out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "models/tex/texture_fetch.h"
#include "models/tex/texture_objects.h"

namespace gpusoc::tex {
namespace {

const TexelFormat kFloat1{ChannelKind::Float, 32, 1};

TEST(DescriptorTest, EncodesAndDecodesEveryField) {
  Descriptor d;
  d.kind = ObjectKind::Surface;
  d.state = ObjectState::BackingFreed;
  d.shape = Shape::LayeredCube;
  d.generation = 0xbeef;
  d.format = {ChannelKind::Signed, 16, 2};
  d.sampler.address = {AddressMode::Wrap, AddressMode::Mirror, AddressMode::Border};
  d.sampler.filter = FilterMode::Linear;
  d.sampler.normalized_read = true;
  d.sampler.normalized_coords = true;
  d.base = 0x123456789a00;
  d.width = 7, d.height = 7, d.depth = 1, d.layers = 12;
  d.row_pitch = 32, d.slice_pitch = 224, d.bytes = 2688;
  const DescriptorImage image = encode(d);
  Descriptor back;
  ASSERT_TRUE(decode(image.data(), back));
  EXPECT_EQ(back.kind, d.kind);
  EXPECT_EQ(back.state, d.state);
  EXPECT_EQ(back.shape, d.shape);
  EXPECT_EQ(back.generation, d.generation);
  EXPECT_EQ(back.format.kind, d.format.kind);
  EXPECT_EQ(back.format.bits, 16);
  EXPECT_EQ(back.format.channels, 2);
  EXPECT_EQ(back.sampler.address, d.sampler.address);
  EXPECT_EQ(back.sampler.filter, FilterMode::Linear);
  EXPECT_TRUE(back.sampler.normalized_read);
  EXPECT_TRUE(back.sampler.normalized_coords);
  EXPECT_EQ(back.base, d.base);
  EXPECT_EQ(back.layers, 12u);
  EXPECT_EQ(back.slice_pitch, 224u);
  EXPECT_EQ(back.bytes, 2688u);
}

TEST(DescriptorTest, RefusesBytesThatAreNotADescriptor) {
  DescriptorImage image = encode(Descriptor{});
  Descriptor d;
  ASSERT_TRUE(decode(image.data(), d));
  DescriptorImage bad = image;
  bad[0] ^= 1;  // magic
  EXPECT_FALSE(decode(bad.data(), d));
  bad = image;
  bad[5] = 9;  // shape
  EXPECT_FALSE(decode(bad.data(), d));
  bad = image;
  bad[58] = 3;  // three channels
  EXPECT_FALSE(decode(bad.data(), d));
  Descriptor cube;
  cube.shape = Shape::Cube;
  cube.layers = 5;  // not six faces
  EXPECT_FALSE(decode(encode(cube).data(), d));
  cube.layers = 6;
  EXPECT_TRUE(decode(encode(cube).data(), d));
}

TEST(DescriptorTest, HandlesCarryTheGenerationAboveTheAddress) {
  const uint64_t h = make_handle(0x7f0000001000, 0x1234);
  EXPECT_EQ(handle_address(h), 0x7f0000001000u);
  EXPECT_EQ(handle_generation(h), 0x1234u);
}

TEST(ArrayLayoutTest, RowsArePaddedToThePitchAlignmentAndShapesFollowTheFlags) {
  const Limits limits;
  ArrayLayout l;
  ASSERT_EQ(array_layout({kFloat1, 10, 0, 0, 0, 1}, limits, l), "");
  EXPECT_EQ(l.shape, Shape::Tex1D);
  EXPECT_EQ(l.row_pitch, 64u);  // 40 bytes up to 32-byte multiples
  ASSERT_EQ(array_layout({{ChannelKind::Unsigned, 8, 4}, 9, 5, 3, 0, 1}, limits, l), "");
  EXPECT_EQ(l.shape, Shape::Tex3D);
  EXPECT_EQ(l.row_pitch, 64u);  // 36 bytes
  EXPECT_EQ(l.slice_pitch, 320u);
  EXPECT_EQ(l.bytes, 960u);
  ASSERT_EQ(array_layout({kFloat1, 8, 0, 4, kArrayLayered, 1}, limits, l), "");
  EXPECT_EQ(l.shape, Shape::Layered1D);
  EXPECT_EQ(l.layers, 4u);
  EXPECT_EQ(l.slice_pitch, 32u);  // one row per layer
  ASSERT_EQ(array_layout({kFloat1, 4, 4, 12, kArrayCubemap | kArrayLayered, 1}, limits, l), "");
  EXPECT_EQ(l.shape, Shape::LayeredCube);
  EXPECT_EQ(l.rows(), 48u);
}

TEST(ArrayLayoutTest, RefusesWhatCudaRefuses) {
  const Limits limits;
  ArrayLayout l;
  EXPECT_EQ(array_layout({kFloat1, 4, 5, 6, kArrayCubemap, 1}, limits, l),
            "cubemap faces are square, not 4x5");
  EXPECT_EQ(array_layout({kFloat1, 4, 4, 7, kArrayCubemap, 1}, limits, l),
            "a cubemap's depth is 6 (its faces), got 7");
  EXPECT_EQ(array_layout({kFloat1, 4, 4, 0, 0, 3}, limits, l),
            "mipmapped arrays (3 levels) are not supported: every array has one level");
  EXPECT_EQ(array_layout({kFloat1, 16385, 2, 2, 0, 1}, limits, l),
            "3D extent of 16385 is beyond the device's limit of 16384");
  EXPECT_EQ(array_layout({{ChannelKind::Float, 8, 1}, 4, 0, 0, 0, 1}, limits, l),
            "channel format: 8-bit float channels: floats are 16 or 32 bits");
  EXPECT_EQ(array_layout({kFloat1, 4, 0, 2, 0, 1}, limits, l), "a 1D array (height 0) has depth 0");
}

TEST(TextureDescriptorTest, LinearAndPitchedMemoryAreChecked) {
  const Limits limits;
  Descriptor d;
  Resource r;
  r.kind = Resource::Kind::Pitch2D;
  r.base = 0x10000;
  r.format = kFloat1;
  r.width = 10, r.height = 3, r.pitch = 48;  // holds 40 bytes, but is not a multiple of 32
  EXPECT_EQ(texture_descriptor(r, SamplerState{}, limits, d),
            "a pitch of 48 bytes must hold a row (40 bytes) and be a multiple of 32");
  r.pitch = 64;
  EXPECT_EQ(texture_descriptor(r, SamplerState{}, limits, d), "");
  EXPECT_EQ(d.shape, Shape::Tex2D);
  EXPECT_EQ(d.bytes, 192u);
  r.kind = Resource::Kind::Linear;
  r.bytes = 42;
  EXPECT_EQ(texture_descriptor(r, SamplerState{}, limits, d),
            "42 bytes is not a whole number of 4-byte texels");
  r.bytes = 40;
  SamplerState linear;
  linear.filter = FilterMode::Linear;
  EXPECT_NE(texture_descriptor(r, linear, limits, d).find("point filtering"), std::string::npos);
  r.base = 0x10010;
  EXPECT_EQ(texture_descriptor(r, SamplerState{}, limits, d),
            "linear memory at 0x10010 is not aligned to 256 bytes");
}

TEST(ObjectRegistryTest, GenerationsNeverRepeatSoonAndFreedMemoryFindsItsReaders) {
  ObjectRegistry r;
  const uint16_t g1 = r.next_generation(), g2 = r.next_generation();
  EXPECT_NE(g1, 0);
  EXPECT_NE(g1, g2);
  r.add(make_handle(0x100, g1), 0x1000, 0x2000);
  r.add(make_handle(0x200, g2), 0x3000, 0x4000);
  EXPECT_EQ(r.reading(0x1800, 0x1900), std::vector<uint64_t>{make_handle(0x100, g1)});
  EXPECT_TRUE(r.reading(0x2000, 0x3000).empty());
  EXPECT_TRUE(r.remove(make_handle(0x100, g1)));
  EXPECT_FALSE(r.remove(make_handle(0x100, g1)));
}

// Six 2x2 faces, each texel valued face * 10 + texel index.
struct Cube {
  std::vector<float> texels;
  Descriptor d;
  Cube() {
    for (int f = 0; f < 6; ++f)
      for (int i = 0; i < 4; ++i) texels.push_back(float(f * 10 + i));
    d.shape = Shape::Cube;
    d.format = kFloat1;
    d.width = d.height = 2;
    d.layers = 6;
    d.row_pitch = 8;
    d.slice_pitch = 16;
  }
  float at(float x, float y, float z) const {
    Coordinates c;
    const float v[3] = {x, y, z};
    std::memcpy(c.bits.data(), v, 12);
    const TexelReader read = [this](uint64_t o) {
      return reinterpret_cast<const uint8_t*>(texels.data()) + o;
    };
    float out;
    std::memcpy(&out, &fetch(d, Geometry::Cube, c, read).bits[0], 4);
    return out;
  }
};

TEST(TextureFetchTest, CubemapFacesFollowTheMajorAxisAndTheGuidesTable) {
  const Cube cube;
  // +x: s = -z, t = -y. Direction (1, -0.5, 0.5): s = 0.25, t = 0.75: texel (0, 1) = 2.
  EXPECT_EQ(cube.at(1, -0.5f, 0.5f), 2);
  EXPECT_EQ(cube.at(-1, -0.5f, 0.5f), 13);  // -x: s = z = 0.5 -> 0.75, t -> 0.75: texel 3
  EXPECT_EQ(cube.at(0.5f, 1, 0.5f), 23);    // +y: s = x, t = z: (0.75, 0.75)
  EXPECT_EQ(cube.at(0.5f, -1, 0.5f), 31);   // -y: s = x, t = -z: (0.75, 0.25)
  EXPECT_EQ(cube.at(-0.5f, -0.5f, 1), 42);  // +z: s = x, t = -y: (0.25, 0.75)
  EXPECT_EQ(cube.at(-0.5f, 0.5f, -1), 51);  // -z: s = -x, t = -y: (0.75, 0.25)
}

TEST(TextureFetchTest, BuffersReadZerosOutsideAndLayersClamp) {
  const std::vector<float> texels = {1, 2, 3, 4, 5, 6};
  const TexelReader read = [&](uint64_t o) {
    return reinterpret_cast<const uint8_t*>(texels.data()) + o;
  };
  Descriptor buffer;
  buffer.shape = Shape::Buffer;
  buffer.format = kFloat1;
  buffer.width = 6;
  auto fetch_int = [&](const Descriptor& d, Geometry g, int32_t a, int32_t b) {
    Coordinates c;
    c.integer = true;
    c.bits = {uint32_t(a), uint32_t(b), 0, 0};
    float out;
    std::memcpy(&out, &fetch(d, g, c, read).bits[0], 4);
    return out;
  };
  EXPECT_EQ(fetch_int(buffer, Geometry::D1, 5, 0), 6);
  EXPECT_EQ(fetch_int(buffer, Geometry::D1, 6, 0), 0);
  EXPECT_EQ(fetch_int(buffer, Geometry::D1, -1, 0), 0);
  Descriptor layered = buffer;  // three layers of two texels
  layered.shape = Shape::Layered1D;
  layered.width = 2;
  layered.layers = 3;
  layered.row_pitch = layered.slice_pitch = 8;
  EXPECT_EQ(fetch_int(layered, Geometry::A1D, 1, 1), 4);   // layer 1, texel 1
  EXPECT_EQ(fetch_int(layered, Geometry::A1D, 7, 0), 5);   // layer clamped to 2
  EXPECT_EQ(fetch_int(layered, Geometry::A1D, -4, 1), 2);  // and to 0
}

TEST(SurfaceAddressTest, TrapZeroAndClampModesOutsideTheSurface) {
  Descriptor d;
  d.kind = ObjectKind::Surface;
  d.shape = Shape::Tex2D;
  d.format = kFloat1;
  d.width = 4, d.height = 3;
  d.row_pitch = 32, d.slice_pitch = 96;
  Coordinates c;
  c.integer = true;
  c.bits = {12, 2, 0, 0};  // the last element of the last row
  SurfaceAccess a = surface_address(d, Geometry::D2, c, 4, Boundary::Trap);
  EXPECT_TRUE(a.inside);
  EXPECT_EQ(a.offset, 76u);
  c.bits = {13, 2, 0, 0};  // runs one byte past the row
  EXPECT_FALSE(surface_address(d, Geometry::D2, c, 4, Boundary::Trap).inside);
  EXPECT_FALSE(surface_address(d, Geometry::D2, c, 4, Boundary::Zero).inside);
  c.bits = {uint32_t(-8), 5, 0, 0};
  a = surface_address(d, Geometry::D2, c, 4, Boundary::Clamp);
  EXPECT_TRUE(a.inside);
  EXPECT_EQ(a.offset, 64u);  // x clamped to 0, y to 2
  c.bits = {100, 0, 0, 0};
  a = surface_address(d, Geometry::D2, c, 8, Boundary::Clamp);
  EXPECT_EQ(a.offset, 8u);  // the last whole 8-byte element of the row
}

}  // namespace
}  // namespace gpusoc::tex
