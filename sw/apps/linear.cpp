// Element-wise and matrix apps: vector add, SAXPY, SGEMM (naive and tiled), GEMV by rows.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sw/apps/app_util.h"

namespace gpusoc::apps::detail {
namespace {

constexpr double kFloatEps = 1.0 / (1 << 24);  // unit roundoff of float (2^-24)

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

uint32_t blocks_for(uint64_t n, uint32_t block) {
  return uint32_t((n + block - 1) / block);
}

AppResult vector_add(AppDevice& dev, uint64_t n) {
  AppResult r;
  dev.load("vector_add.ptx");
  const auto a = random_floats(n, 1), b = random_floats(n, 2);
  const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.malloc(n * 4);
  dev.run("vector_add", {blocks_for(n, 256), 256}, da, db, dc, int32_t(n));
  const auto c = dev.download<float>(dc, n);
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];  // one rounding, same as the host
  r.verified = wrong == 0;
  r.summary = fmt::format("vector_add n={}: {} of {} elements differ from the CPU", n, wrong, n);
  return r;
}

AppResult saxpy(AppDevice& dev, uint64_t n) {
  AppResult r;
  dev.load("saxpy.ptx");
  const float alpha = 1.75f;
  const auto x = random_floats(n, 3), y = random_floats(n, 4);
  const DevicePtr dx = dev.upload(x), dy = dev.upload(y);
  dev.run("saxpy", {blocks_for(n, 256), 256}, int32_t(n), alpha, dx, dy);
  const auto out = dev.download<float>(dy, n);
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; ++i) wrong += out[i] != std::fma(alpha, x[i], y[i]);  // nvcc fuses
  r.verified = wrong == 0;
  r.summary = fmt::format("saxpy n={}: {} of {} elements differ from fma(a, x, y)", n, wrong, n);
  return r;
}

// C = alpha*A*B + beta*C with a per-element error bound: the K-term float dot product in any
// order is within (K+2) * 2^-24 * (|alpha| * sum|a_ik * b_kj| + |beta * c_ij|) of the exact value.
AppResult sgemm(AppDevice& dev, uint64_t n, const char* kernel) {
  AppResult r;
  dev.load("sgemm.ptx");
  const int32_t N = int32_t(n);
  const float alpha = 1.5f, beta = -0.5f;
  const auto a = random_floats(n * n, 5), b = random_floats(n * n, 6), c0 = random_floats(n * n, 7);
  const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c0);
  const Dim3 grid(blocks_for(n, 16), blocks_for(n, 16));
  const double ns = simulated_ns(
      dev, [&] { dev.run(kernel, {grid, Dim3(16, 16)}, N, N, N, alpha, da, db, beta, dc); });
  r.figures.push_back(rate("gflops", 2.0 * double(n) * n * n, ns, "GFLOP/s", "2 N^3 flops"));
  const auto c = dev.download<float>(dc, n * n);
  uint64_t wrong = 0;
  double worst = 0;
  for (uint64_t i = 0; i < n; ++i) {
    for (uint64_t j = 0; j < n; ++j) {
      double exact = 0, magnitude = 0;
      for (uint64_t k = 0; k < n; ++k) {
        const double p = double(a[i * n + k]) * b[k * n + j];
        exact += p;
        magnitude += std::fabs(p);
      }
      exact = alpha * exact + beta * double(c0[i * n + j]);
      const double bound = (double(n) + 2) * kFloatEps *
                           (std::fabs(alpha) * magnitude + std::fabs(beta * c0[i * n + j]));
      const double err = std::fabs(double(c[i * n + j]) - exact);
      worst = std::max(worst, bound > 0 ? err / bound : err);
      wrong += err > bound;
    }
  }
  r.verified = wrong == 0;
  r.summary =
      fmt::format("{} {}x{}: {} elements outside the rounding bound (worst at {:.3f} of it)",
                  kernel, n, n, wrong, worst);
  return r;
}

// y = A*x with one thread per row; each element within the K-term rounding bound.
AppResult gemv_rows(AppDevice& dev, uint64_t n) {
  AppResult r;
  dev.load("gemv.ptx");
  const auto a = random_floats(n * n, 8), x = random_floats(n, 9);
  const DevicePtr da = dev.upload(a), dx = dev.upload(x), dy = dev.malloc(n * 4);
  dev.run("gemv_rows", {blocks_for(n, 128), 128}, int32_t(n), da, dx, dy);
  const auto y = dev.download<float>(dy, n);
  uint64_t wrong = 0;
  double worst = 0;
  for (uint64_t i = 0; i < n; ++i) {
    double exact = 0, magnitude = 0;
    for (uint64_t k = 0; k < n; ++k) {
      const double p = double(a[i * n + k]) * x[k];
      exact += p;
      magnitude += std::fabs(p);
    }
    const double bound = (double(n) + 2) * kFloatEps * magnitude;
    const double err = std::fabs(double(y[i]) - exact);
    worst = std::max(worst, bound > 0 ? err / bound : err);
    wrong += err > bound;
  }
  r.verified = wrong == 0;
  r.summary = fmt::format(
      "gemv_rows {}x{}: {} elements outside the rounding bound (worst at "
      "{:.3f} of it)",
      n, n, wrong, worst);
  return r;
}

}  // namespace

std::vector<App> linear_algebra_apps() {
  return {
      {"vecadd", "c = a + b over n floats (kernel vector_add)", 1 << 20, "elements", vector_add},
      {"saxpy", "y = a*x + y over n floats", 1 << 20, "elements", saxpy},
      {"sgemm_naive",
       "C = alpha*A*B + beta*C, N x N, one thread per element",
       128,
       {"matrix order N", 1, 4096},
       [](AppDevice& d, uint64_t n) { return sgemm(d, n, "sgemm_naive"); }},
      {"sgemm_tiled",
       "C = alpha*A*B + beta*C, N x N, 16x16 shared-memory tiles",
       256,
       {"matrix order N", 1, 4096},
       [](AppDevice& d, uint64_t n) { return sgemm(d, n, "sgemm_tiled"); }},
      {"gemv_rows",
       "y = A*x, N x N, one thread per row walking its own row",
       1024,
       {"matrix order N", 1, 8192},
       gemv_rows},
  };
}

}  // namespace gpusoc::apps::detail
