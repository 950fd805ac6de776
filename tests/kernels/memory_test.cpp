// sw/kernels/memory.cu: volatile global/shared accesses and a dynamically indexed local array.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class MemoryTest : public KernelTestWithParam<std::tuple<int, int>> {};

TEST_P(MemoryTest, VolatileAccesses) {
  const auto [n, block] = GetParam();
  Kernel k = load("memory.ptx").kernel("volatile_ops");
  auto in = random_ints(n, -100000, 100000, 201);
  const int blocks = ceil_div(n, block);
  DevicePtr din = dev.upload(in), scratch = dev.malloc(n * 4), out = dev.malloc(n * 12);
  dev.launch(k, Dim3(blocks), Dim3(block), din, scratch, out, n);
  auto got = dev.download<int>(out, n * 3);
  auto sc = dev.download<int>(scratch, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(sc[i], 2 * in[i]) << "volatile store, i=" << i;
    EXPECT_EQ(got[i * 3 + 0], 2 * in[i]) << "first volatile load, i=" << i;
    EXPECT_EQ(got[i * 3 + 1], 2 * in[i]) << "second volatile load, i=" << i;
    int b = i / block, t = i % block;
    int j = b * block + (t + 1) % block;  // the neighbour's slot in shared memory
    EXPECT_EQ(got[i * 3 + 2], (j < n ? in[j] : 0) + 1) << "volatile shared, i=" << i;
  }
}

TEST_P(MemoryTest, DynamicallyIndexedLocalArray) {
  const auto [n, block] = GetParam();
  Kernel k = load("memory.ptx").kernel("local_array");
  auto idx = random_ints(n, 0, 1 << 20, 202);
  DevicePtr din = dev.upload(idx), out = dev.malloc(n * 4);
  dev.launch(k, Dim3(ceil_div(n, block)), Dim3(block), din, out, n);
  auto got = dev.download<int>(out, n);
  for (int i = 0; i < n; ++i) {
    int buf[64];
    for (int q = 0; q < 64; ++q) buf[q] = (q * q) ^ i;
    const int j = idx[i];
    buf[j & 63] += 1000;
    EXPECT_EQ(got[i], buf[(j >> 8) & 63] + buf[((j & 63) * 7) & 63]) << "i=" << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, MemoryTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(31, 32),
                                           std::make_tuple(33, 64), std::make_tuple(1000, 256)));

}  // namespace
}  // namespace gpusoc::kernel_test
