// Texture and surface objects through the runtime on the SoC: an array uploaded with a host
// pitch and sampled, the misuse the runtime refuses when an object is made, and the launch errors
// of kernels given destroyed objects or objects whose memory was freed.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "models/common/stats_report.h"

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

// The limits are the configuration's: BAR0's TEX_MAX_* registers tell the runtime.
TEST(TextureObjectsIntegrationTest, TheConfiguredLimitsReachTheRuntimeThroughBar0) {
  Soc soc({"tex.limits.width_2d=64", "tex.limits.layers=3"});
  soc.run([&](Device& dev, host::HostBus&) {
    EXPECT_EQ(dev.properties().texture_limits.width_2d, 64u);
    EXPECT_EQ(dev.properties().texture_limits.layers, 3u);
    EXPECT_EQ(dev.properties().texture_limits.extent_3d, tex::Limits{}.extent_3d);
    Array fits = dev.create_array({channel_format<float>(), 64, 8});
    expect_error(Status::InvalidValue, "2D width of 65 is beyond the device's limit of 64", [&] {
      dev.create_array({channel_format<float>(), 65, 8});
    });
    expect_error(Status::InvalidValue, "layer count of 4 is beyond the device's limit of 3", [&] {
      dev.create_array({channel_format<float>(), 8, 8, 4, kArrayLayered});
    });
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

namespace gpusoc::rt::testing {
namespace {

// A statistic summed over the GPU's children whose names start with `prefix` (tex0, tex1, ...).
uint64_t sum_stat(const nlohmann::ordered_json& stats, const std::string& prefix,
                  const std::string& name) {
  uint64_t sum = 0;
  for (const auto& [child, group] : stats.at("gpu").items())
    if (child.rfind(prefix, 0) == 0 && group.contains(name))
      sum += group.at(name).at("value").get<uint64_t>();
  return sum;
}

// The 3x3 box sum of stencil_tex / stencil_global, in their order of additions.
std::vector<float> box_sums(const std::vector<float>& in, int w, int h) {
  std::vector<float> out(size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          sum +=
              in[size_t(std::clamp(y + dy, 0, h - 1)) * w + size_t(std::clamp(x + dx, 0, w - 1))];
      out[size_t(y) * w + x] = sum;
    }
  return out;
}

// The same 3x3 walk over a 96 x 64 image on the 8800 GTX's TPC (cycle-level SMs): through the
// texture unit, a warp's nine fetches read the same few lines, which its texture cache serves
// after the first; as global loads (no L1 for global memory on Tesla), every one goes to memory.
TEST(TextureCacheTest, A2DStencilHitsTheTextureCacheWhileGlobalLoadsAllGoToMemory) {
  const int w = 96, h = 64;
  const std::vector<float> image = random_floats(size_t(w) * h, 5);
  const std::vector<float> expected = box_sums(image, w, h);
  const Dim3 grid(w / 16, h / 8), block(16, 8);
  uint64_t lookups = 0, hits = 0, merges = 0, misses = 0, stores = 0;
  {
    Soc soc({"sm.model=cycle"});
    soc.run([&](Device& dev, host::HostBus&) {
      Module m = dev.load_module_file(kTextures);
      Array a = dev.create_array({channel_format<float>(), w, h});
      a.upload(image);
      TextureObject t = dev.create_texture(a, TextureDesc{});
      auto out = dev.alloc<float>(size_t(w) * h);
      dev.launch(m.kernel("stencil_tex"), grid, block, t, out, int32_t(w), int32_t(h));
      EXPECT_EQ(out.download(), expected);
    });
    const auto stats = stats_to_json(soc.stats());
    lookups = sum_stat(stats, "tex", "cache_lookups");
    hits = sum_stat(stats, "tex", "cache_hits");
    merges = sum_stat(stats, "tex", "cache_merges");
    misses = sum_stat(stats, "tex", "cache_misses");
    stores = sum_stat(stats, "sm", "memory_requests");  // the SMs' own: the results
    EXPECT_EQ(sum_stat(stats, "tex", "requests"), uint64_t(9 * w * h / 32));  // 9 per warp
  }
  uint64_t global_requests = 0;
  {
    Soc soc({"sm.model=cycle"});
    soc.run([&](Device& dev, host::HostBus&) {
      Module m = dev.load_module_file(kTextures);
      auto in = dev.alloc<float>(size_t(w) * h);
      in.upload(image);
      auto out = dev.alloc<float>(size_t(w) * h);
      dev.launch(m.kernel("stencil_global"), grid, block, in, out, int32_t(w), int32_t(h),
                 int32_t(w));
      EXPECT_EQ(out.download(), expected);
    });
    const auto stats = stats_to_json(soc.stats());
    EXPECT_EQ(sum_stat(stats, "sm", "l1_hits"), 0u);
    global_requests = sum_stat(stats, "sm", "memory_requests") - stores;
  }
  const double reuse = double(hits + merges) / double(lookups);
  const double traffic_ratio = double(global_requests) / double(misses);
  std::printf(
      "texture cache: %llu lookups, %llu hits, %llu merges, %llu misses (%.1f%% served "
      "without memory); global loads: %llu memory requests, %.1fx the texture unit's\n",
      (unsigned long long)lookups, (unsigned long long)hits, (unsigned long long)merges,
      (unsigned long long)misses, 100 * reuse, (unsigned long long)global_requests, traffic_ratio);
  // The same walk: one global request per line a warp's load touches, one lookup per line a
  // fetch touches.
  EXPECT_EQ(global_requests, lookups);
  // A warp (16 x 2 threads) fetches 9 times from 4 rows of 18 texels, in at most 2 of the 3
  // lines of each 384-byte row: at most 8 distinct lines, which stay in the 8 KB cache between
  // its fetches. Measured: 89.8% reuse, global loads 9.8x the texture unit's memory requests.
  EXPECT_LE(misses, 8u * (w * h / 32));
  EXPECT_GE(reuse, 1.0 - 8.0 * (w * h / 32) / double(lookups));
  EXPECT_GE(traffic_ratio, 5.0);
}

}  // namespace
}  // namespace gpusoc::rt::testing
