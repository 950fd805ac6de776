// What the texture apps share (texture.cpp, texture_shapes.cpp): host images in any texel format
// with their values as the reference reads them, the reference's sampler, and a checker that
// states the worst error against a tolerance.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sw/apps/apps.h"
#include "sw/apps/reference/texture.h"

namespace gpusoc::apps::detail::texture {

using reference::TexAddress;
using reference::Texel;
using reference::TexSampler;

constexpr uint32_t kBlock = 16;

inline Dim3 grid2d(uint64_t w, uint64_t h) {
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

inline HostImage random_image(tex::TexelFormat f, uint64_t texels, uint32_t seed) {
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

inline TexAddress reference_mode(tex::AddressMode m) {
  return TexAddress(int(m));
}

inline TexSampler reference_sampler(const tex::SamplerState& s) {
  TexSampler r;
  for (int d = 0; d < 3; ++d) r.address[d] = reference_mode(s.address[size_t(d)]);
  r.linear = s.filter == tex::FilterMode::Linear;
  r.normalized = s.normalized_coords;
  return r;
}

inline std::string format_name(const tex::TexelFormat& f, bool normalized) {
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
inline double linear_tolerance(const HostImage& im, bool normalized) {
  double m = 0;
  for (const Texel& t : normalized ? im.normalized : im.element)
    for (double v : t) m = std::max(m, std::fabs(v));
  return 16 * m * std::ldexp(1.0, -24);
}

// Every sampler setting over one 2D image per format: address modes, point and linear
// filtering, normalized and unnormalized coordinates, element and normalized reads.
inline tex::SamplerState sampler(tex::AddressMode mode, bool linear, bool normalized) {
  tex::SamplerState s;
  s.address = {mode, mode, mode};
  s.filter = linear ? tex::FilterMode::Linear : tex::FilterMode::Point;
  s.normalized_coords = normalized;
  return s;
}

inline const tex::TexelFormat kFloat1{tex::ChannelKind::Float, 32, 1};

// Bilinear resize of an N x N float image to (3N/2) x (2N/3 + 1) through normalized coordinates.

AppResult texture_gather(AppDevice& dev, uint64_t n);
AppResult texture_layered(AppDevice& dev, uint64_t n);
AppResult surfaces(AppDevice& dev, uint64_t n);

}  // namespace gpusoc::apps::detail::texture
