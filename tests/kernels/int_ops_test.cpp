// sw/kernels/int_ops.cu: bit manipulation, permutes, funnel shifts, SIMD-in-word, high and
// 24-bit multiplies, 64-bit shifts and rotates, division and remainder. All exact; inputs and
// host results: sw/apps/reference/int_ops.h.
#include "sw/apps/reference/int_ops.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class IntOpsTest : public KernelTestWithParam<int> {};

TEST_P(IntOpsTest, BitManipulation) {
  const auto [a, b] = int_bits_inputs(GetParam(), 161, 162);
  const int n = static_cast<int>(a.size());
  Kernel k = load("int_ops.ptx").kernel("int_bits");
  DevicePtr da = dev.upload(a), db = dev.upload(b), dout = dev.malloc(n * 20 * 4);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dout, n);
  auto out = dev.download<uint32_t>(dout, n * 20);
  for (int i = 0; i < n; ++i) {
    const uint32_t x = a[i], y = b[i];
    const auto want = int_bits_expected(x, y);
    for (int j = 0; j < 20; ++j)
      EXPECT_EQ(out[i * 20 + j], want[j])
          << kIntBitsNames[j] << "(0x" << std::hex << x << ", 0x" << y << ")";
  }
}

TEST_P(IntOpsTest, SixtyFourBitMultiplyAndShift) {
  const auto [a, b] = int_mul64_inputs(GetParam(), 163);
  const int n = static_cast<int>(a.size());
  Kernel k = load("int_ops.ptx").kernel("int_mul64");
  DevicePtr da = dev.upload(a), db = dev.upload(b), dout = dev.malloc(n * 6 * 8);
  dev.launch(k, Dim3(ceil_div(n, 32)), Dim3(32), da, db, dout, n);
  auto out = dev.download<uint64_t>(dout, n * 6);
  for (int i = 0; i < n; ++i) {
    const uint64_t x = a[i], y = b[i];
    const auto want = int_mul64_expected(x, y);
    for (int j = 0; j < 6; ++j)
      EXPECT_EQ(out[i * 6 + j], want[j])
          << "result " << j << " of 0x" << std::hex << x << ", 0x" << y;
  }
}

// C++ (and PTX div/rem) truncate toward zero; the remainder takes the dividend's sign.
TEST_P(IntOpsTest, DivisionAndRemainder) {
  const auto [a, b, c, d] = int_divrem_inputs(GetParam(), 164);
  const int n = static_cast<int>(a.size());
  Kernel k = load("int_ops.ptx").kernel("int_divrem");
  DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c), dd = dev.upload(d),
            dout = dev.malloc(n * 14 * 8);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dc, dd, dout, n);
  auto out = dev.download<long long>(dout, n * 14);
  for (int i = 0; i < n; ++i) {
    const int x = a[i], y = b[i];
    const long long X = c[i], Y = d[i];
    const auto want = int_divrem_expected(x, y, X, Y);
    for (int j = 0; j < 14; ++j)
      EXPECT_EQ(out[i * 14 + j], want[j])
          << "result " << j << " for x=" << x << " y=" << y << " X=" << X << " Y=" << Y;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, IntOpsTest, ::testing::Values(1, 21, 500));

}  // namespace
}  // namespace gpusoc::kernel_test
