// Host reference for sw/kernels/memory.cu (tests/kernels/memory_test.cpp, the memory app):
// volatile global/shared accesses and a dynamically indexed local array. Exact.
#pragma once

#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

inline std::vector<int> volatile_inputs(int n, uint64_t seed) {
  return random_ints(n, -100000, 100000, seed);
}
inline std::vector<int> local_array_indices(int n, uint64_t seed) {
  return random_ints(n, 0, 1 << 20, seed);
}

/// volatile_ops, element i: the stored and twice reloaded 2 * in[i] is checked directly; this is
/// the third word, the value of the next thread of the block (cyclically) through volatile
/// shared memory, plus 1 (threads past n hold 0).
inline int volatile_neighbour(const std::vector<int>& in, int i, int block) {
  const int n = static_cast<int>(in.size());
  int b = i / block, t = i % block;
  int j = b * block + (t + 1) % block;  // the neighbour's slot in shared memory
  return (j < n ? in[j] : 0) + 1;
}

/// local_array of thread i with index word j.
inline int local_array_result(int i, int j) {
  int buf[64];
  for (int q = 0; q < 64; ++q) buf[q] = (q * q) ^ i;
  buf[j & 63] += 1000;
  return buf[(j >> 8) & 63] + buf[((j & 63) * 7) & 63];
}

}  // namespace gpusoc::apps::reference
