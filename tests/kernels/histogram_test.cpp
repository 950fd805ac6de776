// sw/kernels/histogram.cu: 256-bin byte histograms, shared-memory and global atomics (exact).
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
    int blocks = std::min<int>(64, ceil_div(n, 256));
    dev.launch(k, Dim3(blocks), Dim3(256), d, n, bins);
    auto got = dev.download<uint32_t>(bins, 256);
    std::vector<uint32_t> expected(256, 0);
    for (int i = 0; i < n; ++i) ++expected[data[i]];
    for (int b = 0; b < 256; ++b) ASSERT_EQ(got[b], expected[b]) << name << " bin " << b;
  }
};

TEST_P(HistogramTest, UniformBytes) {
  Rng rng(51);
  std::vector<uint8_t> data(std::get<1>(GetParam()));
  for (auto& b : data) b = static_cast<uint8_t>(rng.next32());
  check(data);
}

// Heavy contention: most bytes land in a handful of bins.
TEST_P(HistogramTest, SkewedBytes) {
  Rng rng(52);
  std::vector<uint8_t> data(std::get<1>(GetParam()));
  for (auto& b : data) b = rng.next32() % 8 ? static_cast<uint8_t>(rng.next32() % 3) : 0xFF;
  check(data);
}

INSTANTIATE_TEST_SUITE_P(Sizes, HistogramTest,
                         ::testing::Combine(::testing::Values("histogram_shared",
                                                              "histogram_global"),
                                            ::testing::Values(1, 31, 33, 1000, 100003, 1 << 20)));

}  // namespace
}  // namespace gpusoc::kernel_test
