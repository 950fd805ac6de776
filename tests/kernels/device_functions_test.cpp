// sw/kernels/device_functions.cu: calls to __noinline__ functions (several arguments, a return
// value, structs by value in both directions, a pointer into the caller's local array, doubles)
// and recursion (factorial with a store after the call, doubly recursive fib). Exact; the host
// reference is sw/apps/reference/device_functions.h.
#include "sw/apps/reference/device_functions.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

// factorial recurses up to 20 deep. The default 1 KiB stack holds that, as on hardware: each
// call charges only its .local depot and 16 bytes of call overhead (docs/ptx-coverage.md).
class DeviceFunctionsTest : public ::testing::TestWithParam<int> {
 protected:
  Module load(const std::string& file) { return dev.load_module_file(kernel_path(file)); }
  FunctionalDevice dev{suite_options()};
};

TEST_P(DeviceFunctionsTest, CallsAndRecursion) {
  const int n = GetParam();
  Kernel k = load("device_functions.ptx").kernel("device_calls");
  auto in = device_call_inputs(n, 121);
  DevicePtr din = dev.upload(in), dout = dev.malloc(n * 8 * sizeof(int)),
            dd = dev.malloc(n * sizeof(double));
  DevicePtr dfacts =
      dev.upload(std::vector<unsigned long long>(size_t(n) * 21, kUntouchedFactorial));
  dev.launch(k, Dim3(ceil_div(n, 32)), Dim3(32), din, n, dout, dd, dfacts);
  auto out = dev.download<int>(dout, n * 8);
  auto outd = dev.download<double>(dd, n);
  auto facts = dev.download<unsigned long long>(dfacts, size_t(n) * 21);

  const char* names[5] = {"mix", "span(min_max)", "fib", "fill_squares sum", "local array"};
  for (int t = 0; t < n; ++t) {
    const auto want = device_call_ints(in, t);
    for (int j = 0; j < 5; ++j) EXPECT_EQ(out[t * 8 + j], want[j]) << names[j] << ", thread " << t;
    EXPECT_EQ(d2u(outd[t]), d2u(device_call_double(in, t))) << "dmix " << t;
    for (int i = 0; i <= 20; ++i)
      ASSERT_EQ(facts[t * 21 + i], factorial_slot(t, i))
          << "factorial slot " << i << ", thread " << t;
  }
}

// 1 thread; a partial warp; a warp and a bit; enough threads for every fib(0..15) and every
// factorial depth 0..20 several times over.
INSTANTIATE_TEST_SUITE_P(Sizes, DeviceFunctionsTest, ::testing::Values(1, 31, 33, 100));

}  // namespace
}  // namespace gpusoc::kernel_test
