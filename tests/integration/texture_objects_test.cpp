// Texture and surface objects through the runtime on the SoC: an array uploaded with a host
// pitch and sampled, the misuse the runtime refuses when an object is made, and the launch errors
// of kernels given destroyed objects or objects whose memory was freed.
#include <fmt/format.h>

#include <vector>

#include "tests/integration/soc_fixture.h"

namespace gpusoc::rt::testing {
namespace {

const std::string kTextures = kKernelDir + "/texture.ptx";

TEST(TextureObjectsIntegrationTest, AnArrayUploadedWithAHostPitchIsSampledTexelForTexel) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kTextures);
    const uint32_t w = 5, h = 3, host_pitch = 9;  // floats per host row: 4 of padding
    std::vector<float> host(host_pitch * h, -1.0f);
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) host[y * host_pitch + x] = float(10 * y + x);
    Array a = dev.create_array({channel_format<float>(), w, h});
    EXPECT_EQ(a.layout().row_pitch, 32u);  // 20 bytes padded to the 32-byte alignment
    a.upload(host.data(), host_pitch * 4);
    TextureObject t = dev.create_texture(a, TextureDesc{});
    auto out = dev.alloc<float>(w * h * 4);
    dev.launch(m.kernel("tex2d_sample"), Dim3(1, 1), Dim3(16, 16), t, out, int32_t(w), int32_t(h),
               0.5f, 0.5f, 1.0f, 1.0f);
    const auto got = out.download();
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        EXPECT_EQ(got[(y * w + x) * 4], float(10 * y + x)) << x << "," << y;
        EXPECT_EQ(got[(y * w + x) * 4 + 1], 0.0f);  // missing channels read 0
      }
    std::vector<float> back(w * h);
    a.download(back.data());
    EXPECT_EQ(back[7], 12.0f);
  });
}

TEST(TextureObjectsIntegrationTest, MisuseIsRefusedWhenTheObjectIsMade) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    expect_error(Status::InvalidValue, "mipmapped arrays (4 levels) are not supported", [&] {
      dev.create_array({channel_format<float>(), 64, 64, 0, 0, 4});
    });
    expect_error(Status::InvalidValue, "3D extent of 20000 is beyond the device's limit of 16384",
                 [&] {
                   dev.create_array({channel_format<float>(), 20000, 2, 2});
                 });
    Array bytes = dev.create_array({channel_format<uint8_t>(), 16, 16});
    TextureDesc linear;
    linear.filter = FilterMode::Linear;
    expect_error(Status::InvalidValue,
                 "linear filtering of integer texels needs the normalized-float read mode",
                 [&] { dev.create_texture(bytes, linear); });
    expect_error(Status::InvalidValue, "kArraySurfaceLoadStore",
                 [&] { dev.create_surface(bytes); });
    const DevicePtr p = dev.malloc(1024);
    expect_error(Status::InvalidValue, "is not in any allocation", [&] {
      dev.create_texture(linear_resource(p + 4096, channel_format<float>(), 64), TextureDesc{});
    });
    expect_error(Status::InvalidValue, "runs past", [&] {
      dev.create_texture(linear_resource(p, channel_format<float>(), 2048), TextureDesc{});
    });
    dev.free(p);
  });
}

TEST(TextureObjectsIntegrationTest, StaleObjectsFailTheLaunchNamingTheObject) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kTextures);
    auto out = dev.alloc<float>(64);
    const auto launch = [&](uint64_t handle) {
      dev.launch(m.kernel("lookup"), Dim3(1), Dim3(32), handle, out, out, int32_t(32));
    };
    Array a = dev.create_array({channel_format<float>(), 8});
    TextureObject t = dev.create_texture(a, TextureDesc{});
    const uint64_t handle = t.handle();
    t.reset();
    launch(handle);
    expect_error(Status::LaunchFailed, fmt::format("texture object {:#x} was destroyed", handle),
                 [&] { dev.synchronize(); });

    auto linear = dev.alloc<float>(64);
    TextureObject over = dev.create_texture(
        linear_resource(linear.ptr(), channel_format<float>(), 256), TextureDesc{});
    dev.launch(m.kernel("fetch_linear"), Dim3(1), Dim3(32), over, out, int32_t(32));
    dev.synchronize();  // fine while the memory lives
    linear.reset();
    dev.launch(m.kernel("fetch_linear"), Dim3(1), Dim3(32), over, out, int32_t(32));
    expect_error(Status::LaunchFailed,
                 fmt::format("the memory under texture object {:#x} was freed", over.handle()),
                 [&] { dev.synchronize(); });
  });
}

}  // namespace
}  // namespace gpusoc::rt::testing
