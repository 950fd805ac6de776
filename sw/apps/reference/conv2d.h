// Host reference for sw/kernels/conv2d.cu (tests/kernels/conv2d_test.cpp, the conv2d app): the
// filters and the 5x5 correlation with clamped borders, in double precision.
//
// Tolerance: each output is a chain of 25 multiply-adds (fma-contracted), so it is within
// float_sum_tolerance(sum |w * x|, 25) of the exact value (numeric.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

/// The kernel parameter of conv2d_5x5_param (100 bytes, passed by value).
struct Filter5x5 {
  float w[25];
};

/// The constant filter of conv2d.cu: w[k] = ((7k mod 11) - 5) / 16 (keep in sync with W(k)).
inline Filter5x5 constant_filter() {
  Filter5x5 f;
  for (int k = 0; k < 25; ++k) f.w[k] = static_cast<float>((k * 7) % 11 - 5) / 16.0f;
  return f;
}

inline Filter5x5 random_filter(uint64_t seed) {
  Rng rng(seed);
  Filter5x5 f;
  for (float& v : f.w) v = rng.uniform(-1, 1);
  return f;
}

struct Correlation {
  double value;    // exact up to double rounding
  double abs_sum;  // sum of |w * x| over the 25 terms
  double tolerance() const { return float_sum_tolerance(abs_sum, 25); }
};

/// Output pixel (x, y) of a width x height row-major image; edge pixels are clamped.
inline Correlation correlate_5x5(const std::vector<float>& img, int width, int height,
                                 const Filter5x5& f, int x, int y) {
  Correlation c{0, 0};
  for (int fy = -2; fy <= 2; ++fy) {
    int sy = std::clamp(y + fy, 0, height - 1);
    for (int fx = -2; fx <= 2; ++fx) {
      int sx = std::clamp(x + fx, 0, width - 1);
      double t = double(f.w[(fy + 2) * 5 + fx + 2]) * img[size_t(sy) * width + sx];
      c.value += t;
      c.abs_sum += std::fabs(t);
    }
  }
  return c;
}

}  // namespace gpusoc::apps::reference
