// Host reference for sw/kernels/scan.cu (tests/kernels/scan_test.cpp, the scan app): prefix
// sums and per-block totals of 32-bit integers (exact; int overflow cannot occur with the
// inputs used, |x| <= 1000 and n < 2^21).
#pragma once

#include <algorithm>
#include <vector>

namespace gpusoc::apps::reference {

inline std::vector<int> exclusive_scan(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  int running = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = running;
    running += in[i];
  }
  return out;
}

inline std::vector<int> inclusive_scan(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  int running = 0;
  for (size_t i = 0; i < in.size(); ++i) out[i] = running += in[i];
  return out;
}

/// The total of each segment of `per_block` elements (the last one possibly partial).
inline std::vector<int> block_totals(const std::vector<int>& in, size_t per_block) {
  std::vector<int> totals;
  for (size_t b = 0; b < in.size(); b += per_block) {
    int total = 0;
    for (size_t i = b; i < std::min(in.size(), b + per_block); ++i) total += in[i];
    totals.push_back(total);
  }
  return totals;
}

}  // namespace gpusoc::apps::reference
