// Host reference for sw/kernels/fp64.cu (tests/kernels/fp64_test.cpp, the fp64 app).
//  * daxpy and the dops operations are correctly rounded: the host gives the same bits.
//  * The dot product (ddot_partial + dsum_final) is within double_sum_tolerance(sum |x*y|, depth)
//    of the exact value (numeric.h), with the dependent chain `depth` of dot_depth(); the
//    reference is a compensated (Neumaier) sum in long double, far more accurate than that.
#pragma once

#include <array>
#include <cmath>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

constexpr int kDotBlockThreads = 256;  // ddot_partial and dsum_final need blockDim.x == 256
constexpr int kDotMaxBlocks = 64;

struct DoublePairs {
  std::vector<double> x, y;
};
/// n pairs uniform in [lo, hi), drawn x then y.
inline DoublePairs double_pairs(int n, double lo, double hi, uint64_t seed) {
  Rng rng(seed);
  DoublePairs p{std::vector<double>(n), std::vector<double>(n)};
  for (int i = 0; i < n; ++i) {
    p.x[i] = rng.uniform_double(lo, hi);
    p.y[i] = rng.uniform_double(lo, hi);
  }
  return p;
}

/// ddot_partial's grid for n elements.
inline int dot_blocks(int n) {
  return std::max(1, std::min(kDotMaxBlocks, (n + kDotBlockThreads - 1) / kDotBlockThreads));
}

/// Longest dependent chain of the dot product: the per-thread fma loop ceil(n / (blocks*256)),
/// 8 tree levels in ddot_partial, then ceil(blocks/256) adds, 3 tree levels and 5 shuffle
/// levels in dsum_final.
inline double dot_depth(int n, int blocks) {
  const double threads = double(blocks) * kDotBlockThreads;
  return std::ceil(n / threads) + 8 + std::ceil(blocks / double(kDotBlockThreads)) + 3 + 5;
}

struct DotReference {
  double value;
  double abs_sum;  // sum |x_i * y_i|
};
inline DotReference dot_reference(const std::vector<double>& x, const std::vector<double>& y) {
  long double sum = 0, comp = 0, abs_sum = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    long double p = static_cast<long double>(x[i]) * y[i];
    long double t = sum + p;
    comp += std::fabs(sum) >= std::fabs(p) ? (sum - t) + p : (p - t) + sum;
    sum = t;
    abs_sum += std::fabs(p);
  }
  return {static_cast<double>(sum + comp), static_cast<double>(abs_sum)};
}

struct DopsInputs {
  std::vector<double> a, b, c;
};
/// Specials (signed zeros, huge, tiny, subnormal, integer-range edges) and random values.
inline DopsInputs dops_inputs(int random_count, uint64_t seed) {
  DopsInputs in;
  in.a = {2.5,
          -2.5,
          3.5,
          -0.5,
          0.0,
          -0.0,
          1e300,
          -1e-300,
          4.9e-324,
          9.3e18,
          -9.3e18,
          1e30,
          123456789.123456789,
          1.0 / 3.0,
          -7.0};
  in.b = {3.0, 7.0, -0.1, 0.0, 0.0, 2.0, 1e-10, 1e300, 0.5, 1.5, -1e-5, 3.0, -8.25, 3.0, -0.0};
  Rng rng(seed);
  for (int i = 0; i < random_count; ++i) {
    in.a.push_back(rng.uniform_double(-1e6, 1e6));
    in.b.push_back(rng.uniform_double(-100, 100));
  }
  in.c.resize(in.a.size());
  for (size_t i = 0; i < in.a.size(); ++i) in.c[i] = rng.uniform_double(-1, 1) * std::fabs(in.a[i]);
  return in;
}

inline constexpr const char* kDopsNames[6] = {"add", "mul", "div", "sqrt", "fma", "f32 round trip"};

/// dops: the six double results of (x, y, z).
inline std::array<double, 6> dops_expected(double x, double y, double z) {
  return {x + y,
          x * y,
          x / y,
          std::sqrt(std::fabs(x)),
          std::fma(x, y, z),
          static_cast<double>(static_cast<float>(x))};
}

/// dops: x as long long, rounded to nearest, toward zero, down and up.
inline std::array<long long, 4> dops_expected_ll(double x) {
  return {cvt_to_int<long long>(x, Round::Nearest), cvt_to_int<long long>(x, Round::Zero),
          cvt_to_int<long long>(x, Round::Down), cvt_to_int<long long>(x, Round::Up)};
}

}  // namespace gpusoc::apps::reference
