// sw/kernels/spmv.cu: CSR sparse matrix times vector, one thread per row.
#include "sw/apps/reference/spmv.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class SpmvTest : public KernelTestWithParam<int> {};

// Each y[r] is a sequential chain of nnz(r) multiply-adds: dependent chain nnz(r) against
// sum |a * x| (sw/apps/reference/spmv.h).
TEST_P(SpmvTest, MatchesHostProduct) {
  const int rows = GetParam(), cols = 500;
  Kernel k = load("spmv.ptx").kernel("spmv_csr");
  const CsrMatrix m = random_csr(rows, cols, 101);
  auto x = random_floats(cols, -1, 1, 102);
  DevicePtr drp = dev.upload(m.row_ptr), dci = dev.upload(m.col_idx), dv = dev.upload(m.vals),
            dx = dev.upload(x), dy = dev.malloc(rows * sizeof(float));
  dev.launch(k, Dim3(ceil_div(rows, 128)), Dim3(128), rows, drp, dci, dv, dx, dy);
  auto y = dev.download<float>(dy, rows);
  for (int r = 0; r < rows; ++r) {
    const RowProduct want = spmv_row(m, x, r);
    ASSERT_TRUE(near_with_tolerance(y[r], want.value, want.tolerance)) << "row " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SpmvTest, ::testing::Values(1, 9, 31, 33, 1000, 4096));

}  // namespace
}  // namespace gpusoc::kernel_test
