// sw/kernels/scan.cu: block scans (Blelloch exclusive; shuffle-based inclusive) composed into
// multi-block scans with a scan of the block sums and scan_add_offsets. Integers: exact (host
// reference: sw/apps/reference/scan.h).
#include "sw/apps/reference/scan.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

constexpr int kThreads = 256;
constexpr int kExclusivePerBlock = 512;

class ScanTest : public KernelTestWithParam<int> {
 protected:
  void SetUp() override {
    Module m = load("scan.ptx");
    exclusive_ = m.kernel("scan_exclusive_block");
    inclusive_ = m.kernel("scan_inclusive_shfl");
    add_offsets_ = m.kernel("scan_add_offsets");
  }

  // Exclusive scan of n ints at `in` into `out`, recursing on the block sums.
  void device_exclusive_scan(DevicePtr in, DevicePtr out, int n) {
    int blocks = ceil_div(n, kExclusivePerBlock);
    if (blocks == 1) {
      dev.launch(*exclusive_, Dim3(1), Dim3(kThreads), in, out, DevicePtr(0), n);
      return;
    }
    DevicePtr sums = dev.malloc(blocks * sizeof(int)), offsets = dev.malloc(blocks * sizeof(int));
    dev.launch(*exclusive_, Dim3(blocks), Dim3(kThreads), in, out, sums, n);
    device_exclusive_scan(sums, offsets, blocks);
    dev.launch(*add_offsets_, Dim3(blocks), Dim3(kThreads), out, offsets, n, kExclusivePerBlock);
  }

  // Inclusive scan: per-block shuffle scans, then the exclusive scan of the block totals.
  void device_inclusive_scan(DevicePtr in, DevicePtr out, int n) {
    int blocks = ceil_div(n, kThreads);
    if (blocks == 1) {
      dev.launch(*inclusive_, Dim3(1), Dim3(kThreads), in, out, DevicePtr(0), n);
      return;
    }
    DevicePtr sums = dev.malloc(blocks * sizeof(int)), offsets = dev.malloc(blocks * sizeof(int));
    dev.launch(*inclusive_, Dim3(blocks), Dim3(kThreads), in, out, sums, n);
    device_exclusive_scan(sums, offsets, blocks);
    dev.launch(*add_offsets_, Dim3(blocks), Dim3(kThreads), out, offsets, n, kThreads);
  }

  std::optional<Kernel> exclusive_, inclusive_, add_offsets_;
};

TEST_P(ScanTest, ExclusiveMatchesHost) {
  const int n = GetParam();
  auto data = random_ints(n, -100, 100, 61);
  DevicePtr in = dev.upload(data), out = dev.malloc(n * sizeof(int));
  device_exclusive_scan(in, out, n);
  auto got = dev.download<int>(out, n);
  const std::vector<int> want = exclusive_scan(data);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], want[i]) << "i=" << i;
}

TEST_P(ScanTest, InclusiveMatchesHost) {
  const int n = GetParam();
  auto data = random_ints(n, -100, 100, 62);
  DevicePtr in = dev.upload(data), out = dev.malloc(n * sizeof(int));
  device_inclusive_scan(in, out, n);
  auto got = dev.download<int>(out, n);
  const std::vector<int> want = inclusive_scan(data);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], want[i]) << "i=" << i;
}

// The single-block kernel's block_sums output is the block's total.
TEST_P(ScanTest, BlockSumsAreBlockTotals) {
  const int n = GetParam();
  auto data = random_ints(n, 0, 1000, 63);
  int blocks = ceil_div(n, kExclusivePerBlock);
  DevicePtr in = dev.upload(data), out = dev.malloc(n * sizeof(int));
  DevicePtr sums = dev.malloc(blocks * sizeof(int));
  dev.launch(*exclusive_, Dim3(blocks), Dim3(kThreads), in, out, sums, n);
  auto got = dev.download<int>(sums, blocks);
  const std::vector<int> want = block_totals(data, kExclusivePerBlock);
  for (int b = 0; b < blocks; ++b) ASSERT_EQ(got[b], want[b]) << "block " << b;
}

INSTANTIATE_TEST_SUITE_P(Sizes, ScanTest,
                         ::testing::Values(1, 31, 33, 255, 256, 257, 512, 513, 1000, 100000, 262144,
                                           262145));

}  // namespace
}  // namespace gpusoc::kernel_test
