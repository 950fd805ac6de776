// sw/kernels/conv2d.cu: 5x5 correlation with clamped borders; the filter in __constant__ memory
// (fixed in the .cu) or passed by value as a 100-byte struct parameter.
#include "sw/apps/reference/conv2d.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class Conv2dTest : public KernelTestWithParam<std::tuple<int, int>> {
 protected:
  // Each output is a chain of 25 multiply-adds (fma-contracted): dependent chain 25 against
  // sum |w * x| (sw/apps/reference/conv2d.h).
  void check(const std::string& kernel_name, const Filter5x5& f, bool by_value) {
    const auto [w, h] = GetParam();
    Kernel k = load("conv2d.ptx").kernel(kernel_name);
    auto img = random_floats(size_t(w) * h, -4.f, 4.f, 91);
    DevicePtr in = dev.upload(img), out = dev.malloc(img.size() * sizeof(float));
    Dim3 grid(ceil_div(w, 16), ceil_div(h, 16)), block(16, 16);
    if (by_value)
      dev.launch(k, grid, block, in, out, w, h, f);
    else
      dev.launch(k, grid, block, in, out, w, h);
    auto got = dev.download<float>(out, img.size());
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const Correlation c = correlate_5x5(img, w, h, f, x, y);
        ASSERT_TRUE(near_with_tolerance(got[size_t(y) * w + x], c.value, c.tolerance()))
            << kernel_name << " (" << x << "," << y << ")";
      }
    }
  }
};

TEST_P(Conv2dTest, ConstantMemoryFilter) {
  check("conv2d_5x5_const", constant_filter(), false);
}

TEST_P(Conv2dTest, FilterPassedByValue) {
  check("conv2d_5x5_param", random_filter(92), true);
}

INSTANTIATE_TEST_SUITE_P(Sizes, Conv2dTest,
                         ::testing::Values(std::make_tuple(1, 1), std::make_tuple(2, 3),
                                           std::make_tuple(31, 33), std::make_tuple(33, 31),
                                           std::make_tuple(64, 48), std::make_tuple(100, 75)));

}  // namespace
}  // namespace gpusoc::kernel_test
