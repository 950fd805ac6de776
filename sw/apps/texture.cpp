// Texture and surface apps: every sampler setting on 2D textures, a bilinear resize, a separable
// convolution, a volume ray march, lookup tables, gathers, layered and cubemap textures, and
// surfaces written and read back, each checked against the appendix-based host reference
// (reference/texture.h), which shares no code with the model.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "sw/apps/apps.h"
#include "sw/apps/reference/texture.h"

namespace gpusoc::apps::detail {
namespace {

using reference::TexAddress;
using reference::Texel;
using reference::TexSampler;

constexpr uint32_t kBlock = 16;

Dim3 grid2d(uint64_t w, uint64_t h) {
  return Dim3(uint32_t((w + kBlock - 1) / kBlock), uint32_t((h + kBlock - 1) / kBlock));
}

// A host image in some texel format: its bytes, and each texel's channels as the texture unit
// returns them (normalized where the read mode says so), for the reference.
struct HostImage {
  tex::TexelFormat format;
  uint64_t texels = 0;
  std::vector<uint8_t> bytes;
  std::vector<Texel> element, normalized;  // per texel
};

HostImage random_image(tex::TexelFormat f, uint64_t texels, uint32_t seed) {
  std::mt19937 rng(seed);
  HostImage im;
  im.format = f;
  im.texels = texels;
  im.bytes.resize(texels * f.bytes());
  im.element.assign(texels, Texel{0, 0, 0, 0});
  im.normalized = im.element;
  const unsigned size = f.bits / 8;
  for (uint64_t t = 0; t < texels; ++t) {
    for (unsigned c = 0; c < f.channels; ++c) {
      uint8_t* p = im.bytes.data() + t * f.bytes() + c * size;
      double e = 0, n = 0;
      if (f.kind == tex::ChannelKind::Float && f.bits == 32) {
        const float v = std::uniform_real_distribution<float>(-4, 4)(rng);
        std::memcpy(p, &v, 4);
        e = n = v;
      } else if (f.kind == tex::ChannelKind::Float) {  // halves k/64 in [-4, 4): exact
        const int k = std::uniform_int_distribution<int>(-256, 255)(rng);
        const float v = float(k) / 64;
        uint16_t h = 0;
        if (k != 0) {
          const int exponent = int(std::floor(std::log2(std::fabs(v))));
          const uint16_t mantissa =
              uint16_t(std::lround((std::fabs(v) / std::ldexp(1.0, exponent) - 1) * 1024));
          h = uint16_t((v < 0 ? 0x8000 : 0) | (exponent + 15) << 10 | mantissa);
        }
        std::memcpy(p, &h, 2);
        e = n = v;
      } else {
        const bool sign = f.kind == tex::ChannelKind::Signed;
        const int64_t max = (int64_t(1) << (f.bits - (sign ? 1 : 0))) - 1;
        const int64_t lo = sign ? -max - 1 : 0;
        const int64_t hi = f.bits == 32 ? (int64_t(1) << 30) : max;  // int4 results: stay in range
        const int64_t v =
            std::uniform_int_distribution<int64_t>(sign && f.bits == 32 ? -hi : lo, hi)(rng);
        std::memcpy(p, &v, size);  // little endian: the low bytes
        e = double(v);
        n = sign ? std::max(double(v) / double(max), -1.0) : double(v) / double(max);
      }
      im.element[t][c] = e;
      im.normalized[t][c] = n;
    }
  }
  return im;
}

TexAddress reference_mode(tex::AddressMode m) {
  return TexAddress(int(m));
}

TexSampler reference_sampler(const tex::SamplerState& s) {
  TexSampler r;
  for (int d = 0; d < 3; ++d) r.address[d] = reference_mode(s.address[size_t(d)]);
  r.linear = s.filter == tex::FilterMode::Linear;
  r.normalized = s.normalized_coords;
  return r;
}

std::string format_name(const tex::TexelFormat& f, bool normalized) {
  const char* kind = f.kind == tex::ChannelKind::Float    ? "f"
                     : f.kind == tex::ChannelKind::Signed ? "s"
                                                          : "u";
  return fmt::format("{}{}x{}{}", kind, f.bits, f.channels, normalized ? "n" : "");
}

// Worst difference from the reference, in units of the tolerance; above 1 fails.
struct Check {
  uint64_t compared = 0, wrong = 0;
  double worst = 0;
  std::string first;
  void add(double got, double want, double tolerance, const std::string& where) {
    ++compared;
    const double err = std::fabs(got - want);
    const double ratio = tolerance > 0 ? err / tolerance : (err == 0 ? 0 : 2);
    worst = std::max(worst, ratio);
    if (ratio > 1) {
      if (wrong++ == 0) first = fmt::format("{}: got {}, expected {}", where, got, want);
    }
  }
  AppResult result(const std::string& what) const {
    AppResult r;
    r.verified = wrong == 0 && compared > 0;
    r.summary = fmt::format("{}: {} values, {} wrong (worst error {:.2f} of the tolerance){}{}",
                            what, compared, wrong, worst, wrong ? "; first: " : "", first);
    return r;
  }
};

// Linear filtering blends up to 8 texels in single precision with weights exact in float.
double linear_tolerance(const HostImage& im, bool normalized) {
  double m = 0;
  for (const Texel& t : normalized ? im.normalized : im.element)
    for (double v : t) m = std::max(m, std::fabs(v));
  return 16 * m * std::ldexp(1.0, -24);
}

// Every sampler setting over one 2D image per format: address modes, point and linear
// filtering, normalized and unnormalized coordinates, element and normalized reads.
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

tex::SamplerState sampler(tex::AddressMode mode, bool linear, bool normalized) {
  tex::SamplerState s;
  s.address = {mode, mode, mode};
  s.filter = linear ? tex::FilterMode::Linear : tex::FilterMode::Point;
  s.normalized_coords = normalized;
  return s;
}

const tex::TexelFormat kFloat1{tex::ChannelKind::Float, 32, 1};

// Bilinear resize of an N x N float image to (3N/2) x (2N/3 + 1) through normalized coordinates.
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
  tex::Resource pitched;
  pitched.kind = tex::Resource::Kind::Pitch2D;
  pitched.base = mid;
  pitched.format = kFloat1;
  pitched.width = W;
  pitched.height = H;
  pitched.pitch = pitch;
  const uint64_t cols = dev.create_texture(pitched, s);
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
}  // namespace

std::vector<App> texture_apps() {
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
  };
}

}  // namespace gpusoc::apps::detail
