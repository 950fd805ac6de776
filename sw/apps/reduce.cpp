// Reduction apps: sums of n floats by a shared-memory tree, warp shuffles, or unrolled (Harris 7).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sw/apps/app_util.h"

namespace gpusoc::apps::detail {
namespace {

// How a first-pass kernel is launched: threads a block, at most how many blocks, and whether it
// keeps one float a thread in dynamic shared memory.
struct FirstPass {
  const char* kernel;
  uint32_t block;
  uint32_t max_blocks;
  uint32_t elements_per_step;  // elements one thread adds per grid-stride step
  bool dynamic_shared;
};

// The first pass leaves one partial per block (each thread first sums its grid-stride slice),
// the second folds the partials in one block.
AppResult reduce(AppDevice& dev, uint64_t n, const FirstPass& pass) {
  AppResult r;
  dev.load("reduction.ptx");
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> in(n);
  for (float& x : in) x = dist(rng);
  const uint64_t per_block = uint64_t(pass.block) * pass.elements_per_step;
  const uint32_t blocks =
      uint32_t(std::clamp<uint64_t>((n + per_block - 1) / per_block, 1, pass.max_blocks));
  const DevicePtr din = dev.upload(in), partial = dev.malloc(blocks * 4), out = dev.malloc(4);
  const uint32_t shared = pass.dynamic_shared ? pass.block * 4 : 0;
  const double ns = simulated_ns(dev, [&] {
    dev.run(pass.kernel, {blocks, pass.block, shared}, din, partial, int32_t(n));
    dev.run("reduce_final", {1, 256, 0}, partial, out, int32_t(blocks));
  });
  r.figures.push_back(rate("bw", 4.0 * n, ns, "GB/s", "input bytes over both passes' time"));
  const float sum = dev.download<float>(out, 1)[0];
  double exact = 0, magnitude = 0;
  for (float x : in) {
    exact += x;
    magnitude += std::fabs(x);
  }
  // Each partial sum adds at most ceil(n / (blocks*block)) values serially, then two trees of
  // at most log2(1024) levels: every term passes through at most that many float additions.
  const double serial = std::ceil(double(n) / (double(blocks) * pass.block));
  const double bound = (serial + 20) * std::ldexp(1.0, -24) * magnitude;
  const double err = std::fabs(double(sum) - exact);
  r.verified = err <= bound;
  r.summary = fmt::format("{} n={}: sum {} vs exact {:.6f}, error {:.3g} (bound {:.3g})",
                          pass.kernel, n, sum, exact, err, bound);
  return r;
}

}  // namespace

std::vector<App> reduction_apps() {
  return {
      {"reduce_shared", "sum of n floats, shared-memory tree", 1 << 22, "elements",
       [](AppDevice& d, uint64_t n) {
         return reduce(d, n, {"reduce_shared", 256, 1024, 1, true});
       }},
      {"reduce_shuffle", "sum of n floats, warp shuffles", 1 << 22, "elements",
       [](AppDevice& d, uint64_t n) {
         return reduce(d, n, {"reduce_shuffle", 256, 1024, 1, false});
       }},
      // 128 threads (REDUCE_UNROLLED_THREADS) and at most 256 blocks: Harris's choice.
      {"reduce_unrolled",
       "sum of n floats, two loads a step and an unrolled tree (Harris's kernel 7)", 1 << 22,
       "elements",
       [](AppDevice& d, uint64_t n) {
         return reduce(d, n, {"reduce_unrolled", 128, 256, 2, false});
       }},
  };
}

}  // namespace gpusoc::apps::detail
