// Texture sampling against values worked out by hand from the CUDA programming guide's
// texture-fetching appendix: point sampling takes texel floor(x); linear filtering blends
// T[i] and T[i+1] with weight frac(x - 0.5) held to 1/256; address modes per axis.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "models/tex/sampler.h"

namespace gpusoc::tex {
namespace {

// A packed texture of 32-bit floats, one channel, in host memory.
struct FloatTexture {
  FloatTexture(std::vector<float> v, uint32_t width, uint32_t height = 1, uint8_t dims = 1)
      : values(std::move(v)) {
    layout.format = TexelFormat{ChannelKind::Float, 32, 1};
    layout.dimensions = dims;
    layout.width = width;
    layout.height = height;
  }
  float at(const SamplerState& s, float x, float y = 0) const {
    return sample(layout, s, reader(), x, y)[0];
  }
  TexelReader reader() const {
    return [this](uint64_t offset) {
      return reinterpret_cast<const uint8_t*>(values.data()) + offset;
    };
  }
  std::vector<float> values;
  TextureLayout layout;
};

SamplerState sampler(AddressMode mode, FilterMode filter, bool normalized_coords) {
  SamplerState s;
  s.address = {mode, mode, mode};
  s.filter = filter;
  s.normalized_coords = normalized_coords;
  return s;
}

const FloatTexture kRow({10, 20, 30, 40}, 4);

TEST(SamplerTest, PointSamplingTakesTheTexelTheCoordinateFallsIn) {
  const SamplerState s = sampler(AddressMode::Clamp, FilterMode::Point, false);
  EXPECT_EQ(kRow.at(s, 0.0f), 10);
  EXPECT_EQ(kRow.at(s, 0.999f), 10);
  EXPECT_EQ(kRow.at(s, 1.0f), 20);
  EXPECT_EQ(kRow.at(s, 3.5f), 40);
  const FloatTexture grid({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 4, 3, 2);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(grid.at(s, x + 0.5f, y + 0.5f), 1 + x + 4 * y);
}

TEST(SamplerTest, AddressModesWithNormalizedCoordinates) {
  const auto at = [](AddressMode m, float u) {
    return kRow.at(sampler(m, FilterMode::Point, true), u);
  };
  // Wrap: frac(u); 1.125 -> 0.125 -> texel 0.5; -0.125 -> 0.875 -> texel 3.5.
  EXPECT_EQ(at(AddressMode::Wrap, 1.125f), 10);
  EXPECT_EQ(at(AddressMode::Wrap, -0.125f), 40);
  // Mirror: frac(u) when floor(u) is even, 1 - frac(u) when odd.
  EXPECT_EQ(at(AddressMode::Mirror, 1.125f), 40);   // odd: 0.875
  EXPECT_EQ(at(AddressMode::Mirror, 2.125f), 10);   // even: 0.125
  EXPECT_EQ(at(AddressMode::Mirror, -0.125f), 10);  // floor -1, odd: 1 - 0.875 = 0.125
  // Clamp: to the edge texels; border: zero outside.
  EXPECT_EQ(at(AddressMode::Clamp, 1.5f), 40);
  EXPECT_EQ(at(AddressMode::Clamp, -3.0f), 10);
  EXPECT_EQ(at(AddressMode::Border, 1.5f), 0);
  EXPECT_EQ(at(AddressMode::Border, -0.01f), 0);
  EXPECT_EQ(at(AddressMode::Border, 0.5f), 30);
}

TEST(SamplerTest, UnnormalizedCoordinatesTurnWrapAndMirrorIntoClamp) {
  EXPECT_EQ(kRow.at(sampler(AddressMode::Wrap, FilterMode::Point, false), 5.5f), 40);
  EXPECT_EQ(kRow.at(sampler(AddressMode::Mirror, FilterMode::Point, false), -2.0f), 10);
}

TEST(SamplerTest, LinearFilteringBlendsAroundTexelCentres) {
  const SamplerState s = sampler(AddressMode::Clamp, FilterMode::Linear, false);
  // Two texels 0.2 and 1.5: tex(1.0) = 0.5 * 0.2 + 0.5 * 1.5 (x - 0.5 = 0.5).
  EXPECT_FLOAT_EQ(FloatTexture({0.2f, 1.5f}, 2).at(s, 1.0f), 0.85f);
  const FloatTexture three({4, 5, 6}, 3);
  // x - 0.5 = 0.25: i = 0, weight 0.25 (not 4.75, as i = 1 would give)
  EXPECT_FLOAT_EQ(three.at(s, 0.75f), 0.75f * 4 + 0.25f * 5);
  EXPECT_FLOAT_EQ(three.at(s, 1.0f), 4.5f);
  EXPECT_FLOAT_EQ(three.at(s, 1.5f), 5.0f);  // a texel centre: that texel
  // At the edges clamp repeats the edge texel; border blends with zero.
  EXPECT_FLOAT_EQ(three.at(s, 0.25f), 4.0f);
  EXPECT_FLOAT_EQ(three.at(sampler(AddressMode::Border, FilterMode::Linear, false), 0.25f),
                  0.75f * 4);
}

TEST(SamplerTest, LinearWeightsHaveEightFractionalBits) {
  // 0 and 256: the result is 256 * weight. x - 0.5 = 1/3 is held as 85/256, not 85.33/256.
  const FloatTexture ramp({0, 256}, 2);
  const SamplerState s = sampler(AddressMode::Clamp, FilterMode::Linear, false);
  EXPECT_EQ(ramp.at(s, 0.5f + 1.0f / 3), 85.0f);
  EXPECT_EQ(ramp.at(s, 0.5f + 0.999f), 256.0f);  // rounds up to a weight of exactly 1
  EXPECT_EQ(ramp.at(s, 0.5f + 0.001f), 0.0f);
  EXPECT_EQ(quantized_weight(0.5f), 0.5f);
}

TEST(SamplerTest, BilinearBlendsFourTexels) {
  const FloatTexture square({1, 2, 3, 4}, 2, 2, 2);
  const SamplerState s = sampler(AddressMode::Clamp, FilterMode::Linear, false);
  EXPECT_FLOAT_EQ(square.at(s, 1.0f, 1.0f), 2.5f);
  // x weight 0.25, y weight 0.75: 1*.75*.25 + 2*.25*.25 + 3*.75*.75 + 4*.25*.75
  EXPECT_FLOAT_EQ(square.at(s, 0.75f, 1.25f), 0.1875f + 0.125f + 1.6875f + 0.75f);
}

TEST(TexelFormatTest, NormalizedReadsMapIntegersToUnitRanges) {
  const TexelFormat u8{ChannelKind::Unsigned, 8, 4};
  const uint8_t rgba[4] = {0, 51, 255, 128};
  const Float4 f = read_float(u8, rgba, true);
  EXPECT_EQ(f[0], 0.0f);
  EXPECT_FLOAT_EQ(f[1], 0.2f);
  EXPECT_EQ(f[2], 1.0f);
  EXPECT_FLOAT_EQ(f[3], 128.0f / 255);
  const TexelFormat s8{ChannelKind::Signed, 8, 4};
  const int8_t signed_values[4] = {-128, -127, 127, 0};
  const Float4 g = read_float(s8, reinterpret_cast<const uint8_t*>(signed_values), true);
  EXPECT_EQ(g[0], -1.0f);  // -128/127 clamps to -1
  EXPECT_EQ(g[1], -1.0f);
  EXPECT_EQ(g[2], 1.0f);
  EXPECT_EQ(g[3], 0.0f);
  const uint16_t u16 = 65535;
  EXPECT_EQ(
      read_float({ChannelKind::Unsigned, 16, 1}, reinterpret_cast<const uint8_t*>(&u16), true)[0],
      1.0f);
  EXPECT_EQ(read_float(s8, reinterpret_cast<const uint8_t*>(signed_values), false)[0], -128.0f);
}

TEST(TexelFormatTest, IntegerReadsSignExtendAndHalvesConvertExactly) {
  const int8_t v[2] = {-1, 5};
  const Int4 i = read_int({ChannelKind::Signed, 8, 2}, reinterpret_cast<const uint8_t*>(v));
  EXPECT_EQ(i[0], 0xffffffffu);
  EXPECT_EQ(i[1], 5u);
  EXPECT_EQ(i[2], 0u);
  EXPECT_EQ(half_to_float(0x3c00), 1.0f);
  EXPECT_EQ(half_to_float(0xc000), -2.0f);
  EXPECT_EQ(half_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(half_to_float(0x7bff), 65504.0f);
  EXPECT_TRUE(std::isinf(half_to_float(0x7c00)));
  EXPECT_TRUE(std::isnan(half_to_float(0x7e00)));
}

TEST(TexelFormatTest, FormatsAndSamplersCudaRefusesAreNamed) {
  EXPECT_EQ((TexelFormat{ChannelKind::Float, 32, 4}.problem()), "");
  EXPECT_NE((TexelFormat{ChannelKind::Float, 8, 1}.problem()), "");
  EXPECT_NE((TexelFormat{ChannelKind::Unsigned, 8, 3}.problem()), "");
  SamplerState linear;
  linear.filter = FilterMode::Linear;
  EXPECT_NE(linear.problem({ChannelKind::Unsigned, 8, 1}), "");
  linear.normalized_read = true;
  EXPECT_EQ(linear.problem({ChannelKind::Unsigned, 8, 1}), "");
}

TEST(SamplerTest, GatherReturnsTheBilinearFootprintCounterClockwiseFromLowerLeft) {
  // 3x2 texels of two channels: channel 0 = 10 * x + y, channel 1 = 100 + that.
  std::vector<float> texels;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      texels.push_back(float(10 * x + y));
      texels.push_back(float(100 + 10 * x + y));
    }
  TextureLayout l;
  l.format = {ChannelKind::Float, 32, 2};
  l.dimensions = 2;
  l.width = 3;
  l.height = 2;
  const TexelReader read = [&](uint64_t o) {
    return reinterpret_cast<const uint8_t*>(texels.data()) + o;
  };
  // (1.2, 1.0): x - 0.5 = 0.7 -> i = 0; y - 0.5 = 0.5 -> j = 0. Lower left is (0, 1), then
  // (1, 1), (1, 0), (0, 0); the point filter mode does not matter.
  const SamplerState s = sampler(AddressMode::Clamp, FilterMode::Point, false);
  EXPECT_EQ(gather(l, s, read, 0, 1.2f, 1.0f), (Float4{1, 11, 10, 0}));
  EXPECT_EQ(gather(l, s, read, 1, 1.2f, 1.0f), (Float4{101, 111, 110, 100}));
  // At the right edge clamp repeats column 2; border gives zeros there.
  EXPECT_EQ(gather(l, s, read, 0, 3.0f, 1.0f), (Float4{21, 21, 20, 20}));
  EXPECT_EQ(gather(l, sampler(AddressMode::Border, FilterMode::Point, false), read, 0, 3.0f, 1.0f),
            (Float4{21, 0, 0, 20}));
}

TEST(SamplerTest, IntegerFetchesArePointSamples) {
  const uint32_t texels[3] = {7, 0xdeadbeef, 9};
  TextureLayout l;
  l.format = {ChannelKind::Unsigned, 32, 1};
  l.width = 3;
  const TexelReader read = [&](uint64_t o) { return reinterpret_cast<const uint8_t*>(texels) + o; };
  EXPECT_EQ(sample_int(l, sampler(AddressMode::Clamp, FilterMode::Point, false), read, 1.7f)[0],
            0xdeadbeefu);
  EXPECT_EQ(sample_int(l, sampler(AddressMode::Border, FilterMode::Point, false), read, 3.0f)[0],
            0u);
  l.dimensions = 2;  // one row: gather's rows are both row 0 under clamp
  EXPECT_EQ(
      gather_int(l, sampler(AddressMode::Clamp, FilterMode::Point, false), read, 0, 1.0f, 0.5f),
      (Int4{7, 0xdeadbeef, 0xdeadbeef, 7}));
}

}  // namespace
}  // namespace gpusoc::tex
