// Reduction apps: shared-memory tree and warp-shuffle sums of n floats.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sw/apps/app_util.h"

namespace gpusoc::apps::detail {
namespace {

constexpr uint32_t kBlock = 256;
constexpr uint32_t kMaxBlocks = 1024;

// The first pass leaves one partial per block (each thread first sums its grid-stride slice),
// the second folds the partials in one block.
// `dynamic_shared`: the kernel keeps one float per thread in dynamic shared memory.
AppResult reduce(AppDevice& dev, uint64_t n, const char* kernel, bool dynamic_shared) {
  AppResult r;
  dev.load("reduction.ptx");
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> in(n);
  for (float& x : in) x = dist(rng);
  const uint32_t blocks = uint32_t(std::clamp<uint64_t>((n + kBlock - 1) / kBlock, 1, kMaxBlocks));
  const DevicePtr din = dev.upload(in), partial = dev.malloc(blocks * 4), out = dev.malloc(4);
  const uint32_t shared = dynamic_shared ? kBlock * 4 : 0;
  const double ns = simulated_ns(dev, [&] {
    dev.run(kernel, {blocks, kBlock, shared}, din, partial, int32_t(n));
    dev.run("reduce_final", {1, 256, 0}, partial, out, int32_t(blocks));
  });
  r.figures.push_back(rate("bw", 4.0 * n, ns, "GB/s", "input bytes over both passes' time"));
  const float sum = dev.download<float>(out, 1)[0];
  double exact = 0, magnitude = 0;
  for (float x : in) {
    exact += x;
    magnitude += std::fabs(x);
  }
  // Each partial sum adds at most ceil(n / (blocks*kBlock)) values serially, then two trees of
  // log2(1024) levels: every term passes through at most that many float additions.
  const double serial = std::ceil(double(n) / (double(blocks) * kBlock));
  const double bound = (serial + 20) * std::ldexp(1.0, -24) * magnitude;
  const double err = std::fabs(double(sum) - exact);
  r.verified = err <= bound;
  r.summary = fmt::format("{} n={}: sum {} vs exact {:.6f}, error {:.3g} (bound {:.3g})", kernel, n,
                          sum, exact, err, bound);
  return r;
}

}  // namespace

std::vector<App> reduction_apps() {
  return {
      {"reduce_shared", "sum of n floats, shared-memory tree", 1 << 22, "elements",
       [](AppDevice& d, uint64_t n) { return reduce(d, n, "reduce_shared", true); }},
      {"reduce_shuffle", "sum of n floats, warp shuffles", 1 << 22, "elements",
       [](AppDevice& d, uint64_t n) { return reduce(d, n, "reduce_shuffle", false); }},
  };
}

}  // namespace gpusoc::apps::detail
