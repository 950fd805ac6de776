// Host reference for sw/kernels/texture.cu (the texture apps): texture fetches written straight
// from the CUDA programming guide's texture-fetching appendix, independently of models/tex, in
// double precision. Texels are given as doubles per channel (already normalized where the read
// mode says so), so the reference never touches the formats the model decodes.
//
// Point sampling is exact: the reference and the GPU pick the same texel. Linear filtering uses
// the appendix's weights held in 9-bit fixed point (8 fractional bits); the GPU then blends in
// single precision, so results agree to a few units in the last place of the texel magnitudes.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>

namespace gpusoc::apps::reference {

enum class TexAddress { Wrap, Clamp, Mirror, Border };

struct TexSampler {
  TexAddress address[3] = {TexAddress::Clamp, TexAddress::Clamp, TexAddress::Clamp};
  bool linear = false;
  bool normalized = false;
};

using Texel = std::array<double, 4>;
/// Texel (i, j, k) of the image, every index within its extent.
using TexelAt = std::function<Texel(int64_t i, int64_t j, int64_t k)>;

namespace detail {

// The appendix's address modes on a coordinate (point sampling), with normalized coordinates
// x in [0, 1): wrap takes frac(x), mirror frac(x) or 1 - frac(x) as floor(x) is even or odd,
// clamp holds x in [0, 1 - 1/N]. Unnormalized coordinates know clamp and border only.
inline double point_coordinate(double x, int64_t n, TexAddress mode, bool normalized) {
  if (normalized) {
    if (mode == TexAddress::Wrap) x = x - std::floor(x);
    if (mode == TexAddress::Mirror)
      x = (int64_t(std::floor(x)) % 2 == 0) ? x - std::floor(x) : 1 - (x - std::floor(x));
    x *= double(n);
  }
  return x;
}

// A texel index outside [0, n) under the address mode; -1 stands for the border.
inline int64_t wrap_index(int64_t i, int64_t n, TexAddress mode, bool normalized) {
  if (i >= 0 && i < n) return i;
  if (mode == TexAddress::Border) return -1;
  if (normalized && mode == TexAddress::Wrap) return ((i % n) + n) % n;
  if (normalized && mode == TexAddress::Mirror) {
    int64_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  return i < 0 ? 0 : n - 1;
}

}  // namespace detail

/// tex1D/2D/3D at (x, y, z) of an image of extents n[0..dims-1].
inline Texel texture_fetch(const TexelAt& at, int dims, const int64_t n[3], const TexSampler& s,
                           const double c[3]) {
  int64_t lo[3] = {0, 0, 0};
  double alpha[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    const double x =
        detail::point_coordinate(std::isnan(c[d]) ? 0 : c[d], n[d], s.address[d], s.normalized);
    if (!s.linear) {
      lo[d] = int64_t(std::floor(x));
    } else {
      const double below = x - 0.5;
      lo[d] = int64_t(std::floor(below));
      alpha[d] = std::round((below - std::floor(below)) * 256.0) / 256.0;  // 9-bit fixed point
    }
  }
  Texel out{0, 0, 0, 0};
  const int corners = s.linear ? 1 << dims : 1;
  for (int corner = 0; corner < corners; ++corner) {
    double weight = 1;
    int64_t idx[3] = {0, 0, 0};
    bool border = false;
    for (int d = 0; d < dims; ++d) {
      const int up = (corner >> d) & 1;
      weight *= up ? alpha[d] : 1 - alpha[d];
      idx[d] = detail::wrap_index(lo[d] + up, n[d], s.address[d], s.normalized);
      border |= idx[d] < 0;
    }
    if (border || weight == 0) continue;
    const Texel t = at(idx[0], idx[1], idx[2]);
    for (int ch = 0; ch < 4; ++ch) out[ch] += weight * t[ch];
  }
  return out;
}

/// tex2Dgather: channel `ch` of the four texels of the bilinear footprint, in tld4's order
/// (i, j+1), (i+1, j+1), (i+1, j), (i, j).
inline Texel texture_gather(const TexelAt& at, const int64_t n[2], const TexSampler& s, int ch,
                            double x, double y) {
  int64_t i[2];
  const double c[2] = {x, y};
  for (int d = 0; d < 2; ++d)
    i[d] =
        int64_t(std::floor(detail::point_coordinate(c[d], n[d], s.address[d], s.normalized) - 0.5));
  const int64_t order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  Texel out{0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    const int64_t a = detail::wrap_index(i[0] + order[k][0], n[0], s.address[0], s.normalized);
    const int64_t b = detail::wrap_index(i[1] + order[k][1], n[1], s.address[1], s.normalized);
    if (a >= 0 && b >= 0) out[k] = at(a, b, 0)[ch];
  }
  return out;
}

/// The cubemap face and its normalized (s, t) for a direction (the guide's cubemap table).
inline void cube_face(double x, double y, double z, int& face, double& s, double& t) {
  const double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  double m, sc, tc;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
  }
  s = (sc / m + 1) / 2;
  t = (tc / m + 1) / 2;
}

}  // namespace gpusoc::apps::reference
