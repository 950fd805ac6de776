// sw/kernels/vector_add.cu: element-wise addition, one thread per element and grid-stride.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class VectorAddTest : public KernelTestWithParam<int> {};

// float addition is correctly rounded on both sides: exact comparison.
TEST_P(VectorAddTest, MatchesHostSum) {
  const int n = GetParam();
  Kernel k = load("vector_add.ptx").kernel("vector_add");
  auto a = random_floats(n, -100.f, 100.f, 1), b = random_floats(n, -100.f, 100.f, 2);
  DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.malloc(n * sizeof(float));
  dev.launch(k, Dim3(ceil_div(n, 128)), Dim3(128), da, db, dc, n);
  auto c = dev.download<float>(dc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(f2u(c[i]), f2u(a[i] + b[i])) << "i=" << i;
}

// Threads past n must not write: the element after the end keeps its sentinel.
TEST_P(VectorAddTest, DoesNotWritePastTheEnd) {
  const int n = GetParam();
  Kernel k = load("vector_add.ptx").kernel("vector_add");
  std::vector<float> ones(n + 1, 1.0f);
  DevicePtr da = dev.upload(ones), db = dev.upload(ones);
  std::vector<float> sentinel(n + 1, -7.0f);
  DevicePtr dc = dev.upload(sentinel);
  dev.launch(k, Dim3(ceil_div(n, 64) + 1), Dim3(64), da, db, dc, n);
  auto c = dev.download<float>(dc, n + 1);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], 2.0f) << "i=" << i;
  EXPECT_EQ(c[n], -7.0f);
}

// A grid much smaller than n: every thread loops; 64-bit element count.
TEST_P(VectorAddTest, GridStrideIntegers) {
  const int n = GetParam();
  Kernel k = load("vector_add.ptx").kernel("vector_add_i32_grid_stride");
  auto a = random_ints(n, -1000000, 1000000, 3), b = random_ints(n, -1000000, 1000000, 4);
  DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.malloc(n * sizeof(int));
  dev.launch(k, Dim3(3), Dim3(96), da, db, dc, static_cast<long long>(n));
  auto c = dev.download<int>(dc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "i=" << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, VectorAddTest, ::testing::Values(1, 31, 32, 33, 127, 1000, 4099));

}  // namespace
}  // namespace gpusoc::kernel_test
