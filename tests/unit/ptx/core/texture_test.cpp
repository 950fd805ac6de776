// Texture and surface instructions on the functional device: texels read through handles in
// kernel parameters, the misuse a kernel can meet (destroyed objects, freed memory, the wrong kind
// or geometry, surface accesses outside .trap surfaces) reported with the object and the line,
// and forms we do not run refused at load, naming the instruction.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "models/ptx/device.h"
#include "models/ptx/diagnostics.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using ::testing::HasSubstr;

// fetch: out[tid] = tex.2d(t, tid + 0.5, 0.5).x; store: a surface write of tid at byte 4 * tid.
const std::string kKernels = test::module(R"(
.visible .entry fetch(.param .u64 t, .param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f1, %f1, 0f3F000000;
  mov.f32 %f2, 0f3F000000;
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f3;
  ret;
}
.visible .entry store(.param .u64 s)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  sust.b.1d.b32.trap [%rd1, {%r2}], {%r1};
  ret;
}
)");

const tex::TexelFormat kFloat1{tex::ChannelKind::Float, 32, 1};

class TextureKernelTest : public ::testing::Test {
 protected:
  TextureKernelTest() : module(device.load_module(kKernels, "texture.ptx")) {
    image = device.create_array({kFloat1, 8, 2, 0, tex::kArraySurfaceLoadStore, 1});
    std::vector<float> texels(image.array.row_pitch / 4 * 2);
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = float(i) * 1.5f;
    device.copy_to_device(image.base, texels.data(), texels.size() * 4);
    out = device.malloc(64 * 4);
  }
  // The error a launch of `kernel` with handle `h` ends with ("" when it ends well).
  std::string launch(const char* kernel, uint64_t h, uint32_t threads = 8) {
    try {
      if (std::string(kernel) == "fetch")
        device.launch(module.kernel(kernel), Dim3(1), Dim3(threads), h, out);
      else
        device.launch(module.kernel(kernel), Dim3(1), Dim3(threads), h);
    } catch (const ExecutionError& e) {
      return e.what();
    }
    return "";
  }
  FunctionalDevice device;
  Module module;
  tex::Resource image;
  DevicePtr out = 0;
};

TEST_F(TextureKernelTest, FetchesTheTexelsOfTheArrayThroughTheHandle) {
  const uint64_t t = device.create_texture(image, tex::SamplerState{});
  ASSERT_EQ(launch("fetch", t), "");
  const auto got = device.download<float>(out, 8);
  for (size_t x = 0; x < 8; ++x) EXPECT_EQ(got[x], float(x) * 1.5f) << x;
}

TEST_F(TextureKernelTest, ADestroyedObjectFailsTheLaunchNamingIt) {
  const uint64_t t = device.create_texture(image, tex::SamplerState{});
  device.destroy_object(t);
  EXPECT_THAT(launch("fetch", t), HasSubstr(fmt::format("texture object 0x{:x} was destroyed", t)));
  EXPECT_THAT(launch("fetch", t), HasSubstr("texture.ptx:17"));
  EXPECT_THROW(device.destroy_object(t), std::invalid_argument);
}

TEST_F(TextureKernelTest, FreedMemoryUnderAnObjectFailsTheLaunch) {
  const uint64_t t = device.create_texture(image, tex::SamplerState{});
  device.free(image.base);
  EXPECT_THAT(launch("fetch", t),
              HasSubstr(fmt::format("the memory under texture object 0x{:x} was freed", t)));
}

TEST_F(TextureKernelTest, HandlesThatNameNoObjectOrTheWrongKindFail) {
  EXPECT_THAT(launch("fetch", 0), HasSubstr("texture handle 0x0 names no texture object"));
  EXPECT_THAT(launch("fetch", out), HasSubstr("names no texture object"));  // plain data
  const uint64_t s = device.create_surface(image);
  EXPECT_THAT(launch("fetch", s), HasSubstr("texture instruction given surface object"));
  const uint64_t t = device.create_texture(image, tex::SamplerState{});
  EXPECT_THAT(launch("store", t), HasSubstr("surface instruction given texture object"));
}

TEST_F(TextureKernelTest, AGeometryThatDoesNotMatchTheObjectFails) {
  const tex::Resource line =
      device.create_array({kFloat1, 8, 0, 0, tex::kArraySurfaceLoadStore, 1});
  const uint64_t t = device.create_texture(line, tex::SamplerState{});
  EXPECT_THAT(launch("fetch", t), HasSubstr("a .2d access reads 2D objects, and this one is 1D"));
}

TEST_F(TextureKernelTest, SurfaceStoresLandAndTrapOutsideTheSurface) {
  const tex::Resource line =
      device.create_array({kFloat1, 8, 0, 0, tex::kArraySurfaceLoadStore, 1});
  const uint64_t s = device.create_surface(line);
  ASSERT_EQ(launch("store", s), "");
  const auto got = device.download<uint32_t>(line.base, 8);
  for (uint32_t x = 0; x < 8; ++x) EXPECT_EQ(got[x], x);
  EXPECT_THAT(
      launch("store", s, 9),
      HasSubstr("surface access of 4 bytes at (32, 0, 0) is outside the 8x1x1 surface (.trap)"));
}

TEST(TextureObjectsTest, MisuseIsRefusedWhenTheObjectIsMade) {
  FunctionalDevice device;
  const tex::TexelFormat u8{tex::ChannelKind::Unsigned, 8, 1};
  const tex::Resource a = device.create_array({u8, 16, 16, 0, 0, 1});
  tex::SamplerState linear;
  linear.filter = tex::FilterMode::Linear;
  EXPECT_THROW(
      {
        try {
          device.create_texture(a, linear);
        } catch (const std::invalid_argument& e) {
          EXPECT_THAT(e.what(), HasSubstr("linear filtering of integer texels needs the "
                                          "normalized-float read mode"));
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_THROW(device.create_surface(a), std::invalid_argument);  // not kArraySurfaceLoadStore
  EXPECT_THROW(device.create_array({u8, 16, 16, 0, 0, 4}), std::invalid_argument);  // mipmaps
  tex::Resource outside = a;
  outside.base += 1 << 20;  // no allocation there
  EXPECT_THROW(device.create_texture(outside, tex::SamplerState{}), std::out_of_range);
}

// Forms the core does not run fail at load, naming the instruction and its line.
std::string load_error(const std::string& body) {
  FunctionalDevice device;
  try {
    device.load_module(test::module(body), "forms.ptx");
  } catch (const ModuleLoadError& e) {
    return e.what();
  }
  return "";
}

TEST(TextureLoadTest, UnsupportedFormsFailAtLoadNamingTheInstructionAndLine) {
  const std::string head =
      ".visible .entry k(.param .u64 t)\n{\n .reg .f32 %f<8>;\n .reg .b64 %rd<2>;\n"
      " .reg .b32 %r<4>;\n ld.param.u64 %rd1, [t];\n";
  EXPECT_THAT(
      load_error(head + " tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];\n ret;\n}\n"),
      HasSubstr("forms.ptx:11:2: error: unsupported instruction 'tex.2d.v4.f32.f32': .2d takes 2 "
                "coordinates, got 1"));
  EXPECT_THAT(load_error(head + " tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], "
                                "{%r1, %r2};\n ret;\n}\n"),
              HasSubstr("coordinate offsets and depth comparison are not supported"));
  EXPECT_THAT(
      load_error(head + " suld.b.cube.b32.trap {%r1}, [%rd1, {%f1, %f2, %f3, %f4}];\n ret;\n}\n"),
      HasSubstr("surfaces have no cubemap geometry"));
  EXPECT_THAT(load_error(head + " tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [nothing, {%f5, %f6}];\n "
                                "ret;\n}\n"),
              HasSubstr("'nothing' is not a .texref variable nor a register holding a handle"));
  EXPECT_THAT(load_error(".global .samplerref smp;\n"), HasSubstr("separate samplers"));
  EXPECT_EQ(load_error(head + " tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], "
                              "%f7;\n txq.width.b32 %r1, [%rd1];\n ret;\n}\n"),
            "");
}

// Queries, reductions, formatted stores and zeroing loads, which nvcc emits rarely: one thread
// runs each on an 8 x 2 float array (surface and texture over it) and writes what it got.
TEST(TextureInstructionsTest, QueriesReductionsFormattedStoresAndZeroingLoads) {
  FunctionalDevice device;
  const Module m = device.load_module(test::module(R"(
.visible .entry probe(.param .u64 t, .param .u64 s, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [s];
  ld.param.u64 %rd3, [out];
  txq.width.b32 %r1, [%rd1];
  txq.height.b32 %r2, [%rd1];
  txq.channel_data_type.b32 %r3, [%rd1];
  suq.width.b32 %r4, [%rd2];
  mov.b32 %r5, 7;
  mov.b32 %r6, 8;
  mov.b32 %r7, 1;
  sured.b.add.2d.u32.trap [%rd2, {%r6, %r7}], %r5;
  sured.b.max.2d.u32.trap [%rd2, {%r6, %r7}], %r6;
  mov.f32 %f1, 0f40400000;
  sust.p.2d.v4.b32.trap [%rd2, {%r7, %r7}], {%f1, %f1, %f1, %f1};
  mov.b32 %r8, 100;
  suld.b.2d.b32.zero {%r9}, [%rd2, {%r8, %r7}];
  suld.b.2d.b32.clamp {%r10}, [%rd2, {%r8, %r7}];
  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
  st.global.v2.u32 [%rd3+16], {%r9, %r10};
  ret;
}
)"),
                                      "probe.ptx");
  const tex::Resource a = device.create_array({kFloat1, 8, 2, 0, tex::kArraySurfaceLoadStore, 1});
  std::vector<uint32_t> texels(a.array.row_pitch / 4 * 2, 0);
  texels[a.array.row_pitch / 4 + 7] = 0x42;  // the last element of row 1, what .clamp reads
  device.copy_to_device(a.base, texels.data(), texels.size() * 4);
  const uint64_t t = device.create_texture(a, tex::SamplerState{});
  const uint64_t s = device.create_surface(a);
  const DevicePtr out = device.malloc(32);
  device.launch(m.kernel("probe"), Dim3(1), Dim3(1), t, s, out);
  const auto got = device.download<uint32_t>(out, 6);
  EXPECT_EQ(got[0], 8u);       // width
  EXPECT_EQ(got[1], 2u);       // height
  EXPECT_EQ(got[2], 0x10DEu);  // OpenCL's CL_FLOAT
  EXPECT_EQ(got[3], 8u);       // suq.width
  EXPECT_EQ(got[4], 0u);       // .zero: outside reads 0
  EXPECT_EQ(got[5], 0x42u);    // .clamp: the nearest element of the row
  const auto row1 = device.download<uint32_t>(a.base + a.array.row_pitch, 8);
  EXPECT_EQ(row1[2], 8u);  // byte 8 of row 1: 0 + 7, then max(7, 8)
  const auto row1f = device.download<float>(a.base + a.array.row_pitch, 8);
  EXPECT_EQ(row1f[1], 3.0f);  // sust.p: x in elements; one channel of the four values
}

// The module-scope form older nvcc emitted: a .texref the host binds to an object, named by the
// instruction instead of a handle register.
TEST(TextureReferenceTest, AKernelReadsThroughTheTexrefTheHostBound) {
  FunctionalDevice device;
  const Module m = device.load_module(test::module(R"(
.global .texref image;
.visible .entry read(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f1, %f1, 0f3F000000;
  tex.1d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [image, {%f1}];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f3;
  ret;
}
)"),
                                      "texref.ptx");
  const tex::Resource a = device.create_array({kFloat1, 4, 0, 0, 0, 1});
  const std::vector<float> texels = {2, 3, 5, 7};
  device.copy_to_device(a.base, texels.data(), 16);
  const uint64_t t = device.create_texture(a, tex::SamplerState{});
  const auto [slot, bytes] = m.global("image");
  ASSERT_EQ(bytes, 8u);
  device.copy_to_device(slot, &t, 8);  // what the runtime's Module::bind_reference does
  const DevicePtr out = device.malloc(16);
  device.launch(m.kernel("read"), Dim3(1), Dim3(4), out);
  EXPECT_EQ(device.download<float>(out, 4), texels);
}

}  // namespace
}  // namespace gpusoc::ptx
