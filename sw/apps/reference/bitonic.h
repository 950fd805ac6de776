// Host reference for sw/kernels/bitonic.cu (tests/kernels/bitonic_test.cpp, the bitonic_sort
// app): the keys and the sorted results. Keys are exact.
#pragma once

#include <algorithm>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

/// Keys with many duplicates (low 10 bits only for a third) and some extreme values.
inline std::vector<uint32_t> bitonic_keys(size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> keys(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t r = rng.next32();
    keys[i] = i % 3 == 0 ? (r & 0x3ff) : i % 17 == 0 ? 0xFFFFFFFFu : r;
  }
  return keys;
}

/// `keys` with each segment of `segment` keys sorted ascending (the last one possibly partial).
inline std::vector<uint32_t> sorted_segments(std::vector<uint32_t> keys, size_t segment) {
  for (size_t b = 0; b < keys.size(); b += segment)
    std::sort(keys.begin() + b, keys.begin() + std::min(keys.size(), b + segment));
  return keys;
}

}  // namespace gpusoc::apps::reference
