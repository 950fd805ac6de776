// sw/kernels/bitonic.cu: the global compare-exchange step launched for every (k, j), and the
// shared-memory sort of one segment per block. Keys are exact (sw/apps/reference/bitonic.h).
#include "sw/apps/reference/bitonic.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class BitonicStepTest : public KernelTestWithParam<int> {};

TEST_P(BitonicStepTest, HostLoopSortsPaddedArray) {
  const int n = GetParam();
  Kernel k = load("bitonic.ptx").kernel("bitonic_step");
  auto keys = bitonic_keys(n, 111);
  int padded = 1;
  while (padded < n) padded <<= 1;
  std::vector<uint32_t> data(keys);
  data.resize(padded, 0xFFFFFFFFu);
  DevicePtr d = dev.upload(data);
  for (int kk = 2; kk <= padded; kk <<= 1)
    for (int j = kk >> 1; j > 0; j >>= 1)
      dev.launch(k, Dim3(ceil_div(padded, 256)), Dim3(256), d, padded, j, kk);
  auto got = dev.download<uint32_t>(d, padded);
  std::sort(data.begin(), data.end());
  EXPECT_EQ(got, data);
}

INSTANTIATE_TEST_SUITE_P(Sizes, BitonicStepTest, ::testing::Values(1, 2, 31, 33, 1000, 4096));

class BitonicSharedTest : public KernelTestWithParam<std::tuple<int, int>> {};

// Every segment of 2*blockDim keys comes back sorted (the last one possibly partial).
TEST_P(BitonicSharedTest, SortsEachSegment) {
  const auto [n, block] = GetParam();
  const int seg = 2 * block;
  Kernel k = load("bitonic.ptx").kernel("bitonic_sort_shared");
  auto keys = bitonic_keys(n, 112);
  DevicePtr d = dev.upload(keys);
  dev.launch(k, LaunchConfig{Dim3(ceil_div(n, seg)), Dim3(block), uint32_t(seg * sizeof(uint32_t))},
             KernelArgs(d, n));
  auto got = dev.download<uint32_t>(d, n);
  EXPECT_EQ(got, sorted_segments(keys, seg));
}

INSTANTIATE_TEST_SUITE_P(Sizes, BitonicSharedTest,
                         ::testing::Combine(::testing::Values(1, 31, 33, 256, 1000, 5000),
                                            ::testing::Values(32, 128, 512)));

}  // namespace
}  // namespace gpusoc::kernel_test
