// sw/kernels/spmv.cu: CSR sparse matrix times vector, one thread per row.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class SpmvTest : public KernelTestWithParam<int> {};

// Each y[r] is a sequential chain of nnz(r) multiply-adds: dependent chain nnz(r) against
// sum |a * x| (kernel_test_util.h).
TEST_P(SpmvTest, MatchesHostProduct) {
  const int rows = GetParam(), cols = 500;
  Kernel k = load("spmv.ptx").kernel("spmv_csr");
  Rng rng(101);
  std::vector<int> row_ptr{0}, col_idx;
  std::vector<float> vals;
  for (int r = 0; r < rows; ++r) {
    // Row lengths 0..40, with every 9th row empty and every 13th row long (divergent loop).
    int len = r % 9 == 8 ? 0 : r % 13 == 0 ? 120 : static_cast<int>(rng.integer(1, 40));
    for (int e = 0; e < len; ++e) {
      col_idx.push_back(static_cast<int>(rng.integer(0, cols - 1)));
      vals.push_back(rng.uniform(-2, 2));
    }
    row_ptr.push_back(static_cast<int>(col_idx.size()));
  }
  if (col_idx.empty()) {  // keep the allocations non-empty
    col_idx.push_back(0);
    vals.push_back(0);
  }
  auto x = random_floats(cols, -1, 1, 102);
  DevicePtr drp = dev.upload(row_ptr), dci = dev.upload(col_idx), dv = dev.upload(vals),
            dx = dev.upload(x), dy = dev.malloc(rows * sizeof(float));
  dev.launch(k, Dim3(ceil_div(rows, 128)), Dim3(128), rows, drp, dci, dv, dx, dy);
  auto y = dev.download<float>(dy, rows);
  for (int r = 0; r < rows; ++r) {
    double acc = 0, abs_sum = 0;
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e) {
      double t = double(vals[e]) * x[col_idx[e]];
      acc += t;
      abs_sum += std::fabs(t);
    }
    ASSERT_TRUE(
        near_with_tolerance(y[r], acc, float_sum_tolerance(abs_sum, row_ptr[r + 1] - row_ptr[r])))
        << "row " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SpmvTest, ::testing::Values(1, 9, 31, 33, 1000, 4096));

}  // namespace
}  // namespace gpusoc::kernel_test
