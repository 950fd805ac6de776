// sw/kernels/conv2d.cu: 5x5 correlation with clamped borders; the filter in __constant__ memory
// (fixed in the .cu) or passed by value as a 100-byte struct parameter.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

struct Filter5x5 {
  float w[25];
};

// The constant filter of conv2d.cu: w[k] = ((7k mod 11) - 5) / 16 (keep in sync with W(k)).
Filter5x5 constant_filter() {
  Filter5x5 f;
  for (int k = 0; k < 25; ++k) f.w[k] = static_cast<float>((k * 7) % 11 - 5) / 16.0f;
  return f;
}

class Conv2dTest : public KernelTestWithParam<std::tuple<int, int>> {
 protected:
  // Each output is a chain of 25 multiply-adds (fma-contracted): dependent chain 25 against
  // sum |w * x| (kernel_test_util.h).
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
        double acc = 0, abs_sum = 0;
        for (int fy = -2; fy <= 2; ++fy) {
          int sy = std::clamp(y + fy, 0, h - 1);
          for (int fx = -2; fx <= 2; ++fx) {
            int sx = std::clamp(x + fx, 0, w - 1);
            double t = double(f.w[(fy + 2) * 5 + fx + 2]) * img[size_t(sy) * w + sx];
            acc += t;
            abs_sum += std::fabs(t);
          }
        }
        ASSERT_TRUE(
            near_with_tolerance(got[size_t(y) * w + x], acc, float_sum_tolerance(abs_sum, 25)))
            << kernel_name << " (" << x << "," << y << ")";
      }
    }
  }
};

TEST_P(Conv2dTest, ConstantMemoryFilter) {
  check("conv2d_5x5_const", constant_filter(), false);
}

TEST_P(Conv2dTest, FilterPassedByValue) {
  Rng rng(92);
  Filter5x5 f;
  for (float& v : f.w) v = rng.uniform(-1, 1);
  check("conv2d_5x5_param", f, true);
}

INSTANTIATE_TEST_SUITE_P(Sizes, Conv2dTest,
                         ::testing::Values(std::make_tuple(1, 1), std::make_tuple(2, 3),
                                           std::make_tuple(31, 33), std::make_tuple(33, 31),
                                           std::make_tuple(64, 48), std::make_tuple(100, 75)));

}  // namespace
}  // namespace gpusoc::kernel_test
