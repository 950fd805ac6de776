// sw/kernels/fp64.cu: DAXPY, dot product (fma chains, shared-memory tree, 64-bit shuffles),
// and the correctly rounded double operations and conversions.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class Fp64Test : public KernelTestWithParam<int> {
 protected:
  static constexpr int kMaxBlocks = 64;
  double dot(const std::vector<double>& x, const std::vector<double>& y, int* blocks_out) {
    const int n = static_cast<int>(x.size());
    Module m = load("fp64.ptx");
    int blocks = std::min<int>(kMaxBlocks, ceil_div(n, 256));
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
  Rng rng(131);
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = rng.uniform_double(-1e3, 1e3);
    y[i] = rng.uniform_double(-1e3, 1e3);
  }
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

// Dependent chain: per-thread fma loop ceil(n / (blocks*256)), 8 tree levels in ddot_partial,
// then ceil(blocks/256) adds, 3 tree levels and 5 shuffle levels in dsum_final. The reference
// is a compensated (Neumaier) sum in long double, far more accurate than the tolerance.
TEST_P(Fp64Test, DotWithinSummationBound) {
  const int n = GetParam();
  Rng rng(134);
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = rng.uniform_double(-1, 1);
    y[i] = rng.uniform_double(-1, 1);
  }
  int blocks = 0;
  double got = dot(x, y, &blocks);
  long double sum = 0, comp = 0, abs_sum = 0;
  for (int i = 0; i < n; ++i) {
    long double p = static_cast<long double>(x[i]) * y[i];
    long double t = sum + p;
    comp += std::fabs(sum) >= std::fabs(p) ? (sum - t) + p : (p - t) + sum;
    sum = t;
    abs_sum += std::fabs(p);
  }
  double depth = ceil_div(n, uint64_t(blocks) * 256) + 8 + ceil_div(blocks, 256) + 3 + 5;
  EXPECT_TRUE(near_with_tolerance(got, static_cast<double>(sum + comp),
                                  double_sum_tolerance(static_cast<double>(abs_sum), depth)));
}

INSTANTIATE_TEST_SUITE_P(Sizes, Fp64Test, ::testing::Values(1, 31, 33, 1000, 65537, 1 << 20));

// Correctly rounded operations and conversions: exact, NaN matching any NaN.
TEST(Fp64Ops, CorrectlyRoundedOperationsMatchHost) {
  FunctionalDevice dev;
  Kernel k = dev.load_module_file(kernel_path("fp64.ptx")).kernel("dops");
  std::vector<double> a = {2.5,
                           -2.5,
                           3.5,
                           -0.5,
                           0.0,
                           -0.0,
                           1e300,
                           -1e-300,
                           4.9e-324,
                           9.3e18,
                           -9.3e18,
                           1e30,
                           123456789.123456789,
                           1.0 / 3.0,
                           -7.0};
  std::vector<double> b = {3.0, 7.0, -0.1,  0.0, 0.0,   2.0, 1e-10, 1e300,
                           0.5, 1.5, -1e-5, 3.0, -8.25, 3.0, -0.0};
  Rng rng(135);
  for (int i = 0; i < 50; ++i) {
    a.push_back(rng.uniform_double(-1e6, 1e6));
    b.push_back(rng.uniform_double(-100, 100));
  }
  const int n = static_cast<int>(a.size());
  std::vector<double> c(n);
  for (int i = 0; i < n; ++i) c[i] = rng.uniform_double(-1, 1) * std::fabs(a[i]);
  DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c);
  DevicePtr out = dev.malloc(n * 6 * 8), out_f = dev.malloc(n * 4), out_ll = dev.malloc(n * 4 * 8);
  dev.launch(k, Dim3(ceil_div(n, 32)), Dim3(32), n, da, db, dc, out, out_f, out_ll);
  auto o = dev.download<double>(out, n * 6);
  auto of = dev.download<float>(out_f, n);
  auto ol = dev.download<long long>(out_ll, n * 4);
  for (int i = 0; i < n; ++i) {
    const double x = a[i], y = b[i], z = c[i];
    const double want[6] = {x + y,
                            x * y,
                            x / y,
                            std::sqrt(std::fabs(x)),
                            std::fma(x, y, z),
                            static_cast<double>(static_cast<float>(x))};
    const char* what[6] = {"add", "mul", "div", "sqrt", "fma", "f32 round trip"};
    for (int j = 0; j < 6; ++j)
      EXPECT_TRUE(same_double(o[i * 6 + j], want[j]))
          << what[j] << " of " << x << ", " << y << ": got " << o[i * 6 + j] << " want " << want[j];
    EXPECT_TRUE(same_float(of[i], static_cast<float>(x))) << "cvt.rn.f32.f64 of " << x;
    const Round modes[4] = {Round::Nearest, Round::Zero, Round::Down, Round::Up};
    for (int m = 0; m < 4; ++m)
      EXPECT_EQ(ol[i * 4 + m], cvt_to_int<long long>(x, modes[m]))
          << "to ll, mode " << m << ", " << x;
  }
}

}  // namespace
}  // namespace gpusoc::kernel_test
