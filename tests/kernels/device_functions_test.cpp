// sw/kernels/device_functions.cu: calls to __noinline__ functions (several arguments, a return
// value, structs by value in both directions, a pointer into the caller's local array, doubles)
// and recursion (factorial with a store after the call, doubly recursive fib). Exact.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

int host_fib(int n) {
  return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2);
}

// factorial recurses up to 20 deep. The default 1 KiB stack holds that, as on hardware: each
// call charges only its .local depot and 16 bytes of call overhead (docs/ptx-coverage.md).
class DeviceFunctionsTest : public ::testing::TestWithParam<int> {
 protected:
  Module load(const std::string& file) { return dev.load_module_file(kernel_path(file)); }
  FunctionalDevice dev;
};

TEST_P(DeviceFunctionsTest, CallsAndRecursion) {
  const int n = GetParam();
  Kernel k = load("device_functions.ptx").kernel("device_calls");
  // |v| <= 10000 keeps every intermediate inside int (sum of 8 squares < 2^31).
  auto in = random_ints(n, -10000, 10000, 121);
  const unsigned long long kUntouched = 0xDEADBEEFDEADBEEFull;
  DevicePtr din = dev.upload(in), dout = dev.malloc(n * 8 * sizeof(int)),
            dd = dev.malloc(n * sizeof(double));
  DevicePtr dfacts = dev.upload(std::vector<unsigned long long>(size_t(n) * 21, kUntouched));
  dev.launch(k, Dim3(ceil_div(n, 32)), Dim3(32), din, n, dout, dd, dfacts);
  auto out = dev.download<int>(dout, n * 8);
  auto outd = dev.download<double>(dd, n);
  auto facts = dev.download<unsigned long long>(dfacts, size_t(n) * 21);

  for (int t = 0; t < n; ++t) {
    const int v = in[t];
    long long d = v * 1000003LL;
    int mix = v * 3 + static_cast<int>(unsigned(t) >> 1) + static_cast<int>(v * 0.5f * 4.0f) +
              static_cast<int>(d % 1000) - t;
    EXPECT_EQ(out[t * 8 + 0], mix) << "mix, thread " << t;
    int cnt = std::min(4, n - t);
    auto [lo, hi] = std::minmax_element(in.begin() + t, in.begin() + t + cnt);
    EXPECT_EQ(out[t * 8 + 1], (*hi - *lo) * 3) << "span(min_max), thread " << t;
    EXPECT_EQ(out[t * 8 + 2], host_fib(t % 16)) << "fib, thread " << t;
    int sum = 0;
    for (int i = 0; i < 8; ++i) sum += (v + i) * (v + i);
    EXPECT_EQ(out[t * 8 + 3], sum) << "fill_squares sum, thread " << t;
    EXPECT_EQ(out[t * 8 + 4], (v + (v & 7)) * (v + (v & 7))) << "local array, thread " << t;
    EXPECT_EQ(d2u(outd[t]), d2u(std::fma(double(v), 0.25, double(float(t))))) << "dmix " << t;
    const int m = t % 21;
    unsigned long long f = 1;
    for (int i = 0; i <= 20; ++i) {
      if (i > 0) f *= i;
      unsigned long long want = (i >= 1 && i <= m) || (i == 0 && m == 0) ? f : kUntouched;
      ASSERT_EQ(facts[t * 21 + i], want) << "factorial slot " << i << ", thread " << t;
    }
  }
}

// 1 thread; a partial warp; a warp and a bit; enough threads for every fib(0..15) and every
// factorial depth 0..20 several times over.
INSTANTIATE_TEST_SUITE_P(Sizes, DeviceFunctionsTest, ::testing::Values(1, 31, 33, 100));

}  // namespace
}  // namespace gpusoc::kernel_test
