// Texture apps over other shapes: tld4 gathers, layered 2D and 1D textures, cubemaps, and surfaces
// read and written, each checked against the appendix-based host reference (reference/texture.h).
#include "sw/apps/texture_support.h"

namespace gpusoc::apps::detail::texture {

AppResult texture_gather(AppDevice& dev, uint64_t n) {
  dev.load("texture.ptx");
  const uint32_t W = uint32_t(n), H = uint32_t(n / 2 + 2), GW = 20, GH = 12;
  const tex::TexelFormat f{tex::ChannelKind::Float, 32, 4};
  const HostImage im = random_image(f, uint64_t(W) * H, 71);
  const tex::Resource a = dev.create_array({f, W, H, 0, 0, 1});
  dev.upload_array(a, im.bytes.data());
  const auto at = [&](int64_t i, int64_t j, int64_t) {
    return im.element[uint64_t(j) * W + uint64_t(i)];
  };
  const int64_t ext[2] = {W, H};
  Check check;
  for (int variant = 0; variant < 2; ++variant) {
    const tex::SamplerState s = variant ? sampler(tex::AddressMode::Border, false, false)
                                        : sampler(tex::AddressMode::Wrap, false, true);
    const uint64_t t = dev.create_texture(a, s);
    const float x0 = variant ? -2.3f : -0.6f, y0 = variant ? -1.6f : -0.45f;
    const float dx = variant ? (W + 4.1f) / GW : 2.3f / GW,
                dy = variant ? (H + 3.3f) / GH : 1.9f / GH;
    for (int comp = 0; comp < 4; ++comp) {
      const DevicePtr out = dev.malloc(uint64_t(GW) * GH * 16);
      dev.run("gather4", {grid2d(GW, GH), Dim3(kBlock, kBlock)}, t, out, int32_t(GW), int32_t(GH),
              x0, y0, dx, dy, int32_t(comp));
      const auto got = dev.download<float>(out, uint64_t(GW) * GH * 4);
      for (uint32_t y = 0; y < GH; ++y)
        for (uint32_t x = 0; x < GW; ++x) {
          const float cx = std::fma(float(x), dx, x0), cy = std::fma(float(y), dy, y0);
          const Texel want = reference::texture_gather(at, ext, reference_sampler(s), comp, cx, cy);
          for (int k = 0; k < 4; ++k)
            check.add(got[(uint64_t(y) * GW + x) * 4 + uint64_t(k)], want[size_t(k)], 0,
                      fmt::format("{} component {} at ({}, {}) texel {}",
                                  variant ? "border" : "wrap", comp, cx, cy, k));
        }
    }
  }
  return check.result(
      fmt::format("texture_gather {}x{}: tld4 of each channel, wrap and border", W, H));
}

// Layered 2D and 1D textures sampled in every layer, and a cubemap along random directions.
AppResult texture_layered(AppDevice& dev, uint64_t n) {
  dev.load("texture.ptx");
  const uint32_t W = uint32_t(n), H = uint32_t(n / 2 + 1), L = 5, GW = 18, GH = 10;
  Check check;
  {
    const HostImage im = random_image(kFloat1, uint64_t(W) * H * L, 81);
    const tex::Resource a = dev.create_array({kFloat1, W, H, L, tex::kArrayLayered, 1});
    dev.upload_array(a, im.bytes.data());
    const tex::SamplerState s = sampler(tex::AddressMode::Mirror, true, true);
    const uint64_t t = dev.create_texture(a, s);
    const DevicePtr out = dev.malloc(uint64_t(GW) * GH * L * 4);
    const float x0 = -0.7f, y0 = -0.4f, dx = 2.6f / GW, dy = 1.9f / GH;
    dev.run("layered2d", {grid2d(GW, GH), Dim3(kBlock, kBlock)}, t, out, int32_t(GW), int32_t(GH),
            int32_t(L), x0, y0, dx, dy);
    const auto got = dev.download<float>(out, uint64_t(GW) * GH * L);
    const int64_t ext[3] = {W, H, 1};
    const double tol = linear_tolerance(im, false);
    for (uint32_t l = 0; l < L; ++l) {
      const auto at = [&](int64_t i, int64_t j, int64_t) {
        return im.element[(uint64_t(l) * H + uint64_t(j)) * W + uint64_t(i)];
      };
      for (uint32_t y = 0; y < GH; ++y)
        for (uint32_t x = 0; x < GW; ++x) {
          const double c[3] = {std::fma(float(x), dx, x0), std::fma(float(y), dy, y0), 0};
          check.add(got[(uint64_t(l) * GH + y) * GW + x],
                    reference::texture_fetch(at, 2, ext, reference_sampler(s), c)[0], tol,
                    fmt::format("layer {} at ({}, {})", l, c[0], c[1]));
        }
    }
  }
  {
    const HostImage im = random_image(kFloat1, uint64_t(W) * L, 82);
    const tex::Resource a = dev.create_array({kFloat1, W, 0, L, tex::kArrayLayered, 1});
    dev.upload_array(a, im.bytes.data());
    const tex::SamplerState s = sampler(tex::AddressMode::Clamp, true, false);
    const uint64_t t = dev.create_texture(a, s);
    const DevicePtr out = dev.malloc(uint64_t(GW) * L * 4);
    const float x0 = -1.3f, dx = (W + 2.7f) / GW;
    dev.run("layered1d", {1, 32}, t, out, int32_t(GW), int32_t(L), x0, dx);
    const auto got = dev.download<float>(out, uint64_t(GW) * L);
    const int64_t ext[3] = {W, 1, 1};
    for (uint32_t l = 0; l < L; ++l) {
      const auto at = [&](int64_t i, int64_t, int64_t) {
        return im.element[uint64_t(l) * W + uint64_t(i)];
      };
      for (uint32_t x = 0; x < GW; ++x) {
        const double c[3] = {std::fma(float(x), dx, x0), 0, 0};
        check.add(got[uint64_t(l) * GW + x],
                  reference::texture_fetch(at, 1, ext, reference_sampler(s), c)[0],
                  linear_tolerance(im, false), fmt::format("1D layer {} at {}", l, c[0]));
      }
    }
  }
  {
    const uint32_t F = uint32_t(n / 2 + 2), dirs = 200;
    const HostImage im = random_image(kFloat1, uint64_t(F) * F * 6, 83);
    const tex::Resource a = dev.create_array({kFloat1, F, F, 6, tex::kArrayCubemap, 1});
    dev.upload_array(a, im.bytes.data());
    const tex::SamplerState s = sampler(tex::AddressMode::Clamp, false, true);
    const uint64_t t = dev.create_texture(a, s);
    std::vector<float> d(dirs * 4);
    std::mt19937 rng(84);
    for (float& v : d) v = std::uniform_real_distribution<float>(-1, 1)(rng);
    const DevicePtr dd = dev.upload(d), out = dev.malloc(dirs * 4);
    dev.run("cubemap", {1, 256}, t, dd, out, int32_t(dirs));
    const auto got = dev.download<float>(out, dirs);
    const int64_t ext[3] = {F, F, 1};
    for (uint32_t i = 0; i < dirs; ++i) {
      int face;
      double fs, ft;
      reference::cube_face(d[i * 4], d[i * 4 + 1], d[i * 4 + 2], face, fs, ft);
      const auto at = [&](int64_t x, int64_t y, int64_t) {
        return im.element[(uint64_t(face) * F + uint64_t(y)) * F + uint64_t(x)];
      };
      const double c[3] = {fs, ft, 0};
      check.add(got[i], float(reference::texture_fetch(at, 2, ext, reference_sampler(s), c)[0]), 0,
                fmt::format("cube direction ({}, {}, {}) face {}", d[i * 4], d[i * 4 + 1],
                            d[i * 4 + 2], face));
    }
  }
  return check.result(
      fmt::format("texture_layered: {}x{}x{} layered 2D (mirror, linear), {}x{} layered 1D, "
                  "a cubemap",
                  W, H, L, W, L));
}

// Surfaces: an RGBA8 image inverted into a second surface, a float row scaled in place with
// clamped reads and dropped writes past its end, and a 3D surface filled by one kernel and read
// back through a point-sampled texture over the same array.
AppResult surfaces(AppDevice& dev, uint64_t n) {
  dev.load("texture.ptx");
  const uint32_t W = uint32_t(n), H = uint32_t(n / 2 + 3);
  Check check;
  const tex::TexelFormat rgba8{tex::ChannelKind::Unsigned, 8, 4};
  const HostImage im = random_image(rgba8, uint64_t(W) * H, 91);
  const tex::Resource a = dev.create_array({rgba8, W, H, 0, tex::kArraySurfaceLoadStore, 1});
  const tex::Resource b = dev.create_array({rgba8, W, H, 0, tex::kArraySurfaceLoadStore, 1});
  dev.upload_array(a, im.bytes.data());
  dev.run("surface_invert", {grid2d(W, H), Dim3(kBlock, kBlock)}, dev.create_surface(a),
          dev.create_surface(b), int32_t(W), int32_t(H));
  std::vector<uint8_t> inverted(im.bytes.size());
  dev.download_array(b, inverted.data());
  for (uint64_t i = 0; i < inverted.size(); ++i)
    check.add(inverted[i], i % 4 == 3 ? im.bytes[i] : 255 - im.bytes[i], 0,
              fmt::format("byte {}", i));

  const HostImage row = random_image(kFloat1, W, 92);
  const tex::Resource r = dev.create_array({kFloat1, W, 0, 0, tex::kArraySurfaceLoadStore, 1});
  dev.upload_array(r, row.bytes.data());
  dev.run("surface_scale", {(W + 8 + 63) / 64, 64}, dev.create_surface(r), int32_t(W), 2.5f);
  std::vector<float> scaled(W);
  dev.download_array(r, scaled.data());
  for (uint32_t x = 0; x < W; ++x)
    check.add(scaled[x], double(float(row.element[x][0]) * 2.5f), 0, fmt::format("scaled {}", x));

  const uint32_t D = 4;
  const tex::Resource v = dev.create_array({kFloat1, W, H, D, tex::kArraySurfaceLoadStore, 1});
  dev.run("surface_fill3d", {grid2d(W, H), Dim3(kBlock, kBlock)}, dev.create_surface(v), int32_t(W),
          int32_t(H), int32_t(D));
  std::vector<float> filled(uint64_t(W) * H * D);
  dev.download_array(v, filled.data());
  for (uint32_t z = 0; z < D; ++z)
    for (uint32_t y = 0; y < H; ++y)
      for (uint32_t x = 0; x < W; ++x)
        check.add(filled[(uint64_t(z) * H + y) * W + x], x + 10.0 * y + 100.0 * z, 0,
                  fmt::format("3D surface ({}, {}, {})", x, y, z));
  return check.result(fmt::format(
      "surfaces: {}x{} RGBA8 inverted, {} floats scaled, {}x{}x{} 3D filled", W, H, W, W, H, D));
}

}  // namespace gpusoc::apps::detail::texture
