// Host reference for sw/kernels/spmv.cu (tests/kernels/spmv_test.cpp, the spmv app): the test
// matrix and y = A x in double precision.
//
// Tolerance: each y[r] is a sequential chain of nnz(r) multiply-adds, so it is within
// float_sum_tolerance(sum |a * x|, nnz(r)) of the exact value (numeric.h).
#pragma once

#include <cmath>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

struct CsrMatrix {
  int rows = 0, cols = 0;
  std::vector<int> row_ptr, col_idx;  // col_idx and vals hold one dummy entry when empty
  std::vector<float> vals;
};

/// Row lengths 1..40, with every 9th row empty and every 13th row long (120 entries): the row
/// loop diverges.
inline CsrMatrix random_csr(int rows, int cols, uint64_t seed) {
  Rng rng(seed);
  CsrMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.row_ptr.push_back(0);
  for (int r = 0; r < rows; ++r) {
    int len = r % 9 == 8 ? 0 : r % 13 == 0 ? 120 : static_cast<int>(rng.integer(1, 40));
    for (int e = 0; e < len; ++e) {
      m.col_idx.push_back(static_cast<int>(rng.integer(0, cols - 1)));
      m.vals.push_back(rng.uniform(-2, 2));
    }
    m.row_ptr.push_back(static_cast<int>(m.col_idx.size()));
  }
  if (m.col_idx.empty()) {  // keep the allocations non-empty
    m.col_idx.push_back(0);
    m.vals.push_back(0);
  }
  return m;
}

struct RowProduct {
  double value;
  double tolerance;
};
inline RowProduct spmv_row(const CsrMatrix& m, const std::vector<float>& x, int r) {
  double acc = 0, abs_sum = 0;
  for (int e = m.row_ptr[r]; e < m.row_ptr[r + 1]; ++e) {
    double t = double(m.vals[e]) * x[m.col_idx[e]];
    acc += t;
    abs_sum += std::fabs(t);
  }
  return {acc, float_sum_tolerance(abs_sum, m.row_ptr[r + 1] - m.row_ptr[r])};
}

}  // namespace gpusoc::apps::reference
