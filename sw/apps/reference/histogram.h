// Host reference for sw/kernels/histogram.cu (tests/kernels/histogram_test.cpp, the histogram
// app): byte data, uniform or skewed, and its 256-bin histogram (exact).
#pragma once

#include <algorithm>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

constexpr int kHistogramBlockThreads = 256;
constexpr int kHistogramMaxBlocks = 64;

inline std::vector<uint8_t> uniform_bytes(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint8_t> data(n);
  for (auto& b : data) b = static_cast<uint8_t>(rng.next32());
  return data;
}

/// Heavy contention: most bytes land in a handful of bins.
inline std::vector<uint8_t> skewed_bytes(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint8_t> data(n);
  for (auto& b : data) b = rng.next32() % 8 ? static_cast<uint8_t>(rng.next32() % 3) : 0xFF;
  return data;
}

inline std::vector<uint32_t> host_histogram(const std::vector<uint8_t>& data) {
  std::vector<uint32_t> bins(256, 0);
  for (uint8_t b : data) ++bins[b];
  return bins;
}

/// The grid the histogram kernels run with: grid-stride loops over at most 64 blocks.
inline int histogram_blocks(size_t n) {
  return static_cast<int>(std::max<size_t>(
      1, std::min<size_t>(kHistogramMaxBlocks,
                          (n + kHistogramBlockThreads - 1) / kHistogramBlockThreads)));
}

}  // namespace gpusoc::apps::reference
