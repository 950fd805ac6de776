// sw/kernels/saxpy.cu: y = a*x + y.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class SaxpyTest : public KernelTestWithParam<int> {};

// nvcc contracts a*x + y into one fma.rn.f32 (see saxpy.ptx), which is correctly rounded, so
// the host's std::fma gives the identical bits: exact comparison.
TEST_P(SaxpyTest, MatchesFusedMultiplyAdd) {
  const int n = GetParam();
  const float a = 2.5f;
  Kernel k = load("saxpy.ptx").kernel("saxpy");
  auto x = random_floats(n, -10.f, 10.f, 11), y = random_floats(n, -10.f, 10.f, 12);
  DevicePtr dx = dev.upload(x), dy = dev.upload(y);
  dev.launch(k, Dim3(ceil_div(n, 256)), Dim3(256), n, a, dx, dy);
  auto out = dev.download<float>(dy, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(f2u(out[i]), f2u(std::fma(a, x[i], y[i]))) << "i=" << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, SaxpyTest, ::testing::Values(1, 31, 33, 256, 257, 10000));

}  // namespace
}  // namespace gpusoc::kernel_test
