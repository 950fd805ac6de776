// sw/kernels/histogram.cu: 256-bin byte histograms, shared-memory and global atomics (exact).
// Data and host histogram: sw/apps/reference/histogram.h.
#include "sw/apps/reference/histogram.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class HistogramTest : public KernelTestWithParam<std::tuple<std::string, int>> {
 protected:
  void check(const std::vector<uint8_t>& data) {
    const auto& [name, n] = GetParam();
    Kernel k = load("histogram.ptx").kernel(name);
    DevicePtr d = dev.upload(data), bins = dev.malloc(256 * sizeof(uint32_t));
    dev.memset(bins, 0, 256 * sizeof(uint32_t));
    dev.launch(k, Dim3(histogram_blocks(n)), Dim3(kHistogramBlockThreads), d, n, bins);
    auto got = dev.download<uint32_t>(bins, 256);
    const std::vector<uint32_t> expected = host_histogram(data);
    for (int b = 0; b < 256; ++b) ASSERT_EQ(got[b], expected[b]) << name << " bin " << b;
  }
};

TEST_P(HistogramTest, UniformBytes) {
  check(uniform_bytes(std::get<1>(GetParam()), 51));
}

// Heavy contention: most bytes land in a handful of bins.
TEST_P(HistogramTest, SkewedBytes) {
  check(skewed_bytes(std::get<1>(GetParam()), 52));
}

INSTANTIATE_TEST_SUITE_P(Sizes, HistogramTest,
                         ::testing::Combine(::testing::Values("histogram_shared",
                                                              "histogram_global"),
                                            ::testing::Values(1, 31, 33, 1000, 100003, 1 << 20)));

}  // namespace
}  // namespace gpusoc::kernel_test
