// sw/kernels/memory.cu: volatile global/shared accesses and a dynamically indexed local array.
// Host reference: sw/apps/reference/memory.h.
#include "sw/apps/reference/memory.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class MemoryTest : public KernelTestWithParam<std::tuple<int, int>> {};

TEST_P(MemoryTest, VolatileAccesses) {
  const auto [n, block] = GetParam();
  Kernel k = load("memory.ptx").kernel("volatile_ops");
  auto in = volatile_inputs(n, 201);
  const int blocks = ceil_div(n, block);
  DevicePtr din = dev.upload(in), scratch = dev.malloc(n * 4), out = dev.malloc(n * 12);
  dev.launch(k, Dim3(blocks), Dim3(block), din, scratch, out, n);
  auto got = dev.download<int>(out, n * 3);
  auto sc = dev.download<int>(scratch, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(sc[i], 2 * in[i]) << "volatile store, i=" << i;
    EXPECT_EQ(got[i * 3 + 0], 2 * in[i]) << "first volatile load, i=" << i;
    EXPECT_EQ(got[i * 3 + 1], 2 * in[i]) << "second volatile load, i=" << i;
    EXPECT_EQ(got[i * 3 + 2], volatile_neighbour(in, i, block)) << "volatile shared, i=" << i;
  }
}

TEST_P(MemoryTest, DynamicallyIndexedLocalArray) {
  const auto [n, block] = GetParam();
  Kernel k = load("memory.ptx").kernel("local_array");
  auto idx = local_array_indices(n, 202);
  DevicePtr din = dev.upload(idx), out = dev.malloc(n * 4);
  dev.launch(k, Dim3(ceil_div(n, block)), Dim3(block), din, out, n);
  auto got = dev.download<int>(out, n);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], local_array_result(i, idx[i])) << "i=" << i;
}

INSTANTIATE_TEST_SUITE_P(Sizes, MemoryTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(31, 32),
                                           std::make_tuple(33, 64), std::make_tuple(1000, 256)));

}  // namespace
}  // namespace gpusoc::kernel_test
