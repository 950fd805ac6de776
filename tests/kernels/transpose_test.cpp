// sw/kernels/transpose.cu: naive and 32x33 shared-tile transposes (pure data movement: exact).
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class TransposeTest : public KernelTestWithParam<std::tuple<std::string, int, int>> {};

TEST_P(TransposeTest, MatchesHostTranspose) {
  const auto& [name, rows, cols] = GetParam();
  Kernel k = load("transpose.ptx").kernel(name);
  auto in = random_floats(size_t(rows) * cols, -1e3f, 1e3f, 31);
  DevicePtr din = dev.upload(in);
  // One spare element past the end, to catch stray writes.
  std::vector<float> sentinel(size_t(rows) * cols + 1, -1.0f);
  DevicePtr dout = dev.upload(sentinel);
  if (name == "transpose_naive")
    dev.launch(k, Dim3(ceil_div(cols, 16), ceil_div(rows, 8)), Dim3(16, 8), din, dout, rows, cols);
  else
    dev.launch(k, Dim3(ceil_div(cols, 32), ceil_div(rows, 32)), Dim3(32, 8), din, dout, rows, cols);
  auto out = dev.download<float>(dout, sentinel.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      ASSERT_EQ(f2u(out[size_t(c) * rows + r]), f2u(in[size_t(r) * cols + c])) << r << "," << c;
  EXPECT_EQ(out.back(), -1.0f);
}

INSTANTIATE_TEST_SUITE_P(Shapes, TransposeTest,
                         ::testing::Combine(::testing::Values("transpose_naive", "transpose_tiled"),
                                            ::testing::Values(1, 31, 32, 33, 100),
                                            ::testing::Values(1, 33, 64, 37)));

}  // namespace
}  // namespace gpusoc::kernel_test
