// Texture apps: every sampler setting on 2D textures, a bilinear resize, a separable convolution,
// a volume ray march and lookup tables, each checked against the appendix-based host reference
// (reference/texture.h), which shares no code with the model. Gathers, layered and cubemap
// textures and surfaces: texture_shapes.cpp.
#include "sw/apps/texture_support.h"

namespace gpusoc::apps::detail {
namespace texture {
namespace {

AppResult texture_sampling(AppDevice& dev, uint64_t size) {
  dev.load("texture.ptx");
  const uint32_t W = uint32_t(size), H = uint32_t(size * 2 / 3 + 1);
  struct Format {
    tex::TexelFormat f;
    bool normalized_read;
  };
  const Format formats[] = {
      {{tex::ChannelKind::Float, 32, 1}, false},   {{tex::ChannelKind::Float, 32, 4}, false},
      {{tex::ChannelKind::Float, 16, 2}, false},   {{tex::ChannelKind::Unsigned, 8, 4}, true},
      {{tex::ChannelKind::Signed, 16, 2}, true},   {{tex::ChannelKind::Signed, 8, 1}, true},
      {{tex::ChannelKind::Unsigned, 16, 1}, true}, {{tex::ChannelKind::Signed, 32, 1}, false},
      {{tex::ChannelKind::Unsigned, 8, 4}, false}, {{tex::ChannelKind::Signed, 16, 2}, false}};
  const uint32_t GW = 24, GH = 20;  // sample grid, reaching past every edge
  Check check;
  uint32_t seed = 10;
  for (const Format& fm : formats) {
    const HostImage im = random_image(fm.f, uint64_t(W) * H, seed++);
    const tex::Resource array = dev.create_array({fm.f, W, H, 0, 0, 1});
    dev.upload_array(array, im.bytes.data());
    const bool floats = fm.f.kind == tex::ChannelKind::Float || fm.normalized_read;
    const std::vector<Texel>& values = fm.normalized_read ? im.normalized : im.element;
    for (int mode = 0; mode < 4; ++mode)
      for (int linear = 0; linear < (floats ? 2 : 1); ++linear)
        for (int normalized = 0; normalized < 2; ++normalized) {
          tex::SamplerState s;
          s.address = {tex::AddressMode(mode), tex::AddressMode(3 - mode), tex::AddressMode(mode)};
          s.filter = linear ? tex::FilterMode::Linear : tex::FilterMode::Point;
          s.normalized_read = fm.normalized_read;
          s.normalized_coords = normalized;
          const uint64_t t = dev.create_texture(array, s);
          // Steps that are not whole texels, so that every weight and edge case comes up.
          const float x0 = normalized ? -1.37f : -3.3f, y0 = normalized ? -1.21f : -2.7f;
          const float dx = normalized ? 3.9f / GW : (W + 6.9f) / GW,
                      dy = normalized ? 3.7f / GH : (H + 5.8f) / GH;
          const DevicePtr out = dev.malloc(uint64_t(GW) * GH * 16);
          dev.run(floats ? "tex2d_sample" : "tex2d_sample_int",
                  {grid2d(GW, GH), Dim3(kBlock, kBlock)}, t, out, int32_t(GW), int32_t(GH), x0, y0,
                  dx, dy);
          std::vector<float> got_f;
          std::vector<int32_t> got_i;
          if (floats)
            got_f = dev.download<float>(out, uint64_t(GW) * GH * 4);
          else
            got_i = dev.download<int32_t>(out, uint64_t(GW) * GH * 4);
          const int64_t n[3] = {W, H, 1};
          const TexSampler rs = reference_sampler(s);
          const auto at = [&](int64_t i, int64_t j, int64_t) {
            return values[uint64_t(j) * W + uint64_t(i)];
          };
          const double tol = linear ? linear_tolerance(im, fm.normalized_read) : 0;
          for (uint32_t y = 0; y < GH; ++y)
            for (uint32_t x = 0; x < GW; ++x) {
              const float cx = std::fma(float(x), dx, x0),
                          cy = std::fma(float(y), dy, y0);  // as nvcc
              const double cf[3] = {double(cx), double(cy), 0};
              const Texel want = reference::texture_fetch(at, 2, n, rs, cf);
              for (int ch = 0; ch < 4; ++ch) {
                const uint64_t k = (uint64_t(y) * GW + x) * 4 + uint64_t(ch);
                // Point samples are one texel, rounded to float once: exact.
                check.add(floats ? double(got_f[k]) : double(got_i[k]),
                          floats && !linear ? double(float(want[size_t(ch)])) : want[size_t(ch)],
                          tol,
                          fmt::format("{} mode {} {} {} at ({}, {}) channel {}",
                                      format_name(fm.f, fm.normalized_read), mode,
                                      linear ? "linear" : "point",
                                      normalized ? "normalized" : "texels", cx, cy, ch));
              }
            }
        }
  }
  return check.result(fmt::format(
      "texture_sampling {}x{}: 10 formats x address, filter and coordinate modes", W, H));
}

AppResult texture_resize(AppDevice& dev, uint64_t n) {
  dev.load("texture.ptx");
  const uint32_t N = uint32_t(n), W = uint32_t(n * 3 / 2), H = uint32_t(n * 2 / 3 + 1);
  const HostImage im = random_image(kFloat1, uint64_t(N) * N, 31);
  const tex::Resource a = dev.create_array({kFloat1, N, N, 0, 0, 1});
  dev.upload_array(a, im.bytes.data());
  const tex::SamplerState s = sampler(tex::AddressMode::Clamp, true, true);
  const uint64_t t = dev.create_texture(a, s);
  const DevicePtr out = dev.malloc(uint64_t(W) * H * 4);
  dev.run("resize_bilinear", {grid2d(W, H), Dim3(kBlock, kBlock)}, t, out, int32_t(W), int32_t(H));
  const auto got = dev.download<float>(out, uint64_t(W) * H);
  const int64_t ext[3] = {N, N, 1};
  const auto at = [&](int64_t i, int64_t j, int64_t) {
    return im.element[uint64_t(j) * N + uint64_t(i)];
  };
  Check check;
  const double tol = linear_tolerance(im, false);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      const double c[3] = {double((x + 0.5f) / float(W)), double((y + 0.5f) / float(H)), 0};
      check.add(got[uint64_t(y) * W + x],
                reference::texture_fetch(at, 2, ext, reference_sampler(s), c)[0], tol,
                fmt::format("pixel ({}, {})", x, y));
    }
  return check.result(fmt::format("texture_resize {}x{} -> {}x{} bilinear", N, N, W, H));
}

// A separable 7-tap convolution: rows from a 2D array texture, columns from a texture over the
// pitched intermediate buffer; borders clamp. Taps sit on texel centres, so each reads one texel.
AppResult texture_convolution(AppDevice& dev, uint64_t n) {
  dev.load("texture.ptx");
  const uint32_t W = uint32_t(n), H = uint32_t(n * 3 / 4 + 1);
  const int radius = 3;
  const std::vector<float> weights = {0.03125f, -0.125f, 0.25f, 0.6875f, 0.25f, -0.125f, 0.0625f};
  const HostImage im = random_image(kFloat1, uint64_t(W) * H, 41);
  const tex::Resource a = dev.create_array({kFloat1, W, H, 0, 0, 1});
  dev.upload_array(a, im.bytes.data());
  const tex::SamplerState s = sampler(tex::AddressMode::Clamp, false, false);
  const DevicePtr dw = dev.upload(weights);
  const uint64_t pitch = (uint64_t(W) * 4 + 255) / 256 * 256;
  const DevicePtr mid = dev.malloc(pitch * H), out = dev.malloc(uint64_t(W) * H * 4);
  const uint64_t rows = dev.create_texture(a, s);
  const uint64_t cols = dev.create_texture(tex::pitch2d_resource(mid, kFloat1, W, H, pitch), s);
  // The row pass writes the pitched buffer as a W-wide image with rows `pitch` bytes apart: the
  // kernel's w is the pitch in floats there.
  dev.run("convolve_pass", {grid2d(pitch / 4, H), Dim3(kBlock, kBlock)}, rows, mid,
          int32_t(pitch / 4), int32_t(H), dw, int32_t(radius), int32_t(0));
  dev.run("convolve_pass", {grid2d(W, H), Dim3(kBlock, kBlock)}, cols, out, int32_t(W), int32_t(H),
          dw, int32_t(radius), int32_t(1));
  const auto got = dev.download<float>(out, uint64_t(W) * H);
  auto clamp = [](int64_t v, int64_t hi) { return std::clamp<int64_t>(v, 0, hi - 1); };
  std::vector<double> row(uint64_t(W) * H);
  double magnitude = 0;
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x) {
      double sum = 0;
      for (int k = -radius; k <= radius; ++k)
        sum += double(weights[size_t(k + radius)]) *
               im.element[uint64_t(y) * W + uint64_t(clamp(x + k, W))][0];
      row[uint64_t(y) * W + uint64_t(x)] = sum;
      magnitude = std::max(magnitude, std::fabs(sum));
    }
  Check check;
  for (int64_t y = 0; y < H; ++y)
    for (int64_t x = 0; x < W; ++x) {
      double sum = 0;
      for (int k = -radius; k <= radius; ++k)
        sum +=
            double(weights[size_t(k + radius)]) * row[uint64_t(clamp(y + k, H)) * W + uint64_t(x)];
      check.add(got[uint64_t(y) * W + uint64_t(x)], sum, 64 * 4 * std::ldexp(1.0, -24) * 2,
                fmt::format("pixel ({}, {})", x, y));
    }
  return check.result(
      fmt::format("texture_convolution {}x{}: 7 taps along rows (array) then columns (pitched "
                  "2D memory)",
                  W, H));
}

// A ray march through a 3D float volume: the sum of trilinear samples along z per pixel.
AppResult texture_volume(AppDevice& dev, uint64_t n) {
  dev.load("texture.ptx");
  const uint32_t N = uint32_t(n), D = uint32_t(n / 2 + 3), W = 24, H = 20;
  const int steps = 9;
  const HostImage im = random_image(kFloat1, uint64_t(N) * N * D, 51);
  const tex::Resource a = dev.create_array({kFloat1, N, N, D, 0, 1});
  dev.upload_array(a, im.bytes.data());
  const tex::SamplerState s = sampler(tex::AddressMode::Wrap, true, true);
  const uint64_t t = dev.create_texture(a, s);
  const DevicePtr out = dev.malloc(uint64_t(W) * H * 4);
  dev.run("raymarch", {grid2d(W, H), Dim3(kBlock, kBlock)}, t, out, int32_t(W), int32_t(H),
          int32_t(steps));
  const auto got = dev.download<float>(out, uint64_t(W) * H);
  const int64_t ext[3] = {N, N, D};
  const auto at = [&](int64_t i, int64_t j, int64_t k) {
    return im.element[(uint64_t(k) * N + uint64_t(j)) * N + uint64_t(i)];
  };
  Check check;
  const double tol = steps * 2 * linear_tolerance(im, false);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      const float u = (x + 0.5f) / float(W), v = (y + 0.5f) / float(H);
      double sum = 0;
      for (int st = 0; st < steps; ++st) {
        const float cx = std::fma(u, 0.9f, 0.05f * float(st) / float(steps));
        const double c[3] = {double(cx), double(v), double((float(st) + 0.5f) / float(steps))};
        sum += reference::texture_fetch(at, 3, ext, reference_sampler(s), c)[0];
      }
      check.add(got[uint64_t(y) * W + x], sum, tol, fmt::format("ray ({}, {})", x, y));
    }
  return check.result(
      fmt::format("texture_volume {}x{}x{}: {} trilinear samples per ray", N, N, D, steps));
}

// A 1D lookup table with linear filtering and normalized coordinates (an array), and integer
// fetches from the same values in linear memory, 3 before the start to past the end (zeros).
AppResult texture_lut(AppDevice& dev, uint64_t n) {
  dev.load("texture.ptx");
  const uint32_t entries = 37, N = uint32_t(n);
  const HostImage table = random_image(kFloat1, entries, 61);
  const tex::Resource a = dev.create_array({kFloat1, entries, 0, 0, 0, 1});
  dev.upload_array(a, table.bytes.data());
  const tex::SamplerState s = sampler(tex::AddressMode::Clamp, true, true);
  const uint64_t t = dev.create_texture(a, s);
  std::vector<float> in(N);
  std::mt19937 rng(62);
  for (float& v : in) v = std::uniform_real_distribution<float>(-0.2f, 1.2f)(rng);
  const DevicePtr din = dev.upload(in), out = dev.malloc(uint64_t(N) * 4);
  const uint32_t blocks = (N + 255) / 256;
  dev.run("lookup", {blocks, 256}, t, din, out, int32_t(N));
  const auto got = dev.download<float>(out, N);
  const int64_t ext[3] = {entries, 1, 1};
  const auto at = [&](int64_t i, int64_t, int64_t) { return table.element[uint64_t(i)]; };
  Check check;
  const double tol = linear_tolerance(table, false);
  for (uint32_t i = 0; i < N; ++i) {
    const double c[3] = {double(in[i]), 0, 0};
    check.add(got[i], reference::texture_fetch(at, 1, ext, reference_sampler(s), c)[0], tol,
              fmt::format("lookup {} of {}", i, in[i]));
  }
  const DevicePtr lin = dev.upload(std::vector<uint8_t>(table.bytes));
  const uint64_t f = dev.create_texture(tex::linear_resource(lin, kFloat1, table.bytes.size()),
                                        sampler(tex::AddressMode::Clamp, false, false));
  const uint32_t fetches = entries + 8;
  const DevicePtr fout = dev.malloc(fetches * 4);
  dev.run("fetch_linear", {1, 64}, f, fout, int32_t(fetches));
  const auto fetched = dev.download<float>(fout, fetches);
  for (uint32_t i = 0; i < fetches; ++i) {
    const int64_t k = int64_t(i) - 3;
    check.add(fetched[i], k >= 0 && k < entries ? table.element[uint64_t(k)][0] : 0.0, 0,
              fmt::format("tex1Dfetch {}", k));
  }
  return check.result(fmt::format(
      "texture_lut: {} linear lookups in a {}-entry table, {} tex1Dfetch", N, entries, fetches));
}

// tld4 of each channel of an RGBA float texture, wrapping and with border texels.

}  // namespace
}  // namespace texture

std::vector<App> texture_apps() {
  using namespace texture;
  return {
      {"texture_sampling",
       "2D textures in 10 texel formats under every address mode, point and linear filtering, "
       "normalized and texel coordinates, element and normalized reads",
       13, AppSize("texture width", 2, 512), texture_sampling},
      {"texture_resize", "bilinear resize of an N x N image to 3N/2 x 2N/3 through tex2D", 64,
       AppSize("image width", 2, 8192), texture_resize},
      {"texture_convolution",
       "separable 7-tap convolution through tex2D: rows from an array, columns from pitched memory",
       64, AppSize("image width", 2, 4096), texture_convolution},
      {"texture_volume", "volume ray march with trilinear tex3D samples, wrapping", 16,
       AppSize("volume width", 2, 256), texture_volume},
      {"texture_lut", "a 1D lookup table with linear filtering, and tex1Dfetch from linear memory",
       1000, AppSize("lookups"), texture_lut},
      {"texture_gather", "tld4 (tex2Dgather) of each channel, wrapping and with border texels", 16,
       AppSize("texture width", 2, 4096), texture_gather},
      {"texture_layered", "layered 2D and 1D textures in every layer, and a cubemap", 16,
       AppSize("texture width", 2, 4096), texture_layered},
      {"surfaces", "surface reads and writes: 2D RGBA8, 1D with clamp and zero modes, 3D", 40,
       AppSize("surface width", 2, 4096), surfaces},
  };
}

}  // namespace gpusoc::apps::detail
