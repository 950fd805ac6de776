// sw/kernels/fp64.cu: DAXPY, dot product (fma chains, shared-memory tree, 64-bit shuffles),
// and the correctly rounded double operations and conversions.
#include "sw/apps/reference/fp64.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class Fp64Test : public KernelTestWithParam<int> {
 protected:
  double dot(const std::vector<double>& x, const std::vector<double>& y, int* blocks_out) {
    const int n = static_cast<int>(x.size());
    Module m = load("fp64.ptx");
    int blocks = dot_blocks(n);
    DevicePtr dx = dev.upload(x), dy = dev.upload(y), partial = dev.malloc(blocks * 8),
              out = dev.malloc(8);
    dev.launch(m.kernel("ddot_partial"), Dim3(blocks), Dim3(256), n, dx, dy, partial);
    dev.launch(m.kernel("dsum_final"), Dim3(1), Dim3(256), partial, blocks, out);
    *blocks_out = blocks;
    return dev.download<double>(out, 1)[0];
  }
};

// fma is correctly rounded: the host's std::fma gives the same bits.
TEST_P(Fp64Test, Daxpy) {
  const int n = GetParam();
  const double a = -1.75;
  const auto [x, y] = double_pairs(n, -1e3, 1e3, 131);
  DevicePtr dx = dev.upload(x), dy = dev.upload(y);
  dev.launch(load("fp64.ptx").kernel("daxpy"), Dim3(ceil_div(n, 128)), Dim3(128), n, a, dx, dy);
  auto got = dev.download<double>(dy, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(d2u(got[i]), d2u(std::fma(a, x[i], y[i]))) << "i=" << i;
}

// Small integers: every product and partial sum is an integer far below 2^53, exact in any order.
TEST_P(Fp64Test, IntegerDotIsExact) {
  const int n = GetParam();
  auto xi = random_ints(n, -1000, 1000, 132), yi = random_ints(n, -1000, 1000, 133);
  std::vector<double> x(xi.begin(), xi.end()), y(yi.begin(), yi.end());
  long long expected = 0;
  for (int i = 0; i < n; ++i) expected += static_cast<long long>(xi[i]) * yi[i];
  int blocks = 0;
  EXPECT_EQ(dot(x, y, &blocks), static_cast<double>(expected));
}

// Within the summation bound of dot_depth (sw/apps/reference/fp64.h) against a compensated
// long double reference.
TEST_P(Fp64Test, DotWithinSummationBound) {
  const int n = GetParam();
  const auto [x, y] = double_pairs(n, -1, 1, 134);
  int blocks = 0;
  double got = dot(x, y, &blocks);
  const DotReference want = dot_reference(x, y);
  EXPECT_TRUE(near_with_tolerance(got, want.value,
                                  double_sum_tolerance(want.abs_sum, dot_depth(n, blocks))));
}

INSTANTIATE_TEST_SUITE_P(Sizes, Fp64Test, ::testing::Values(1, 31, 33, 1000, 65537, 1 << 20));

// Correctly rounded operations and conversions: exact, NaN matching any NaN.
TEST(Fp64Ops, CorrectlyRoundedOperationsMatchHost) {
  FunctionalDevice dev(suite_options());
  Kernel k = dev.load_module_file(kernel_path("fp64.ptx")).kernel("dops");
  const auto [a, b, c] = dops_inputs(50, 135);
  const int n = static_cast<int>(a.size());
  DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c);
  DevicePtr out = dev.malloc(n * 6 * 8), out_f = dev.malloc(n * 4), out_ll = dev.malloc(n * 4 * 8);
  dev.launch(k, Dim3(ceil_div(n, 32)), Dim3(32), n, da, db, dc, out, out_f, out_ll);
  auto o = dev.download<double>(out, n * 6);
  auto of = dev.download<float>(out_f, n);
  auto ol = dev.download<long long>(out_ll, n * 4);
  for (int i = 0; i < n; ++i) {
    const double x = a[i], y = b[i], z = c[i];
    const auto want = dops_expected(x, y, z);
    for (int j = 0; j < 6; ++j)
      EXPECT_TRUE(same_double(o[i * 6 + j], want[j]))
          << kDopsNames[j] << " of " << x << ", " << y << ": got " << o[i * 6 + j] << " want "
          << want[j];
    EXPECT_TRUE(same_float(of[i], static_cast<float>(x))) << "cvt.rn.f32.f64 of " << x;
    const auto want_ll = dops_expected_ll(x);
    for (int m = 0; m < 4; ++m)
      EXPECT_EQ(ol[i * 4 + m], want_ll[m]) << "to ll, mode " << m << ", " << x;
  }
}

}  // namespace
}  // namespace gpusoc::kernel_test
