// sw/kernels/sgemm.cu: C = alpha*A*B + beta*C, row-major, naive and 16x16 shared-memory tiles.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

struct GemmShape {
  int m, n, k;
};

void PrintTo(const GemmShape& s, std::ostream* os) {
  *os << s.m << "x" << s.n << "x" << s.k;
}

class SgemmTest : public KernelTestWithParam<std::tuple<std::string, GemmShape>> {};

// Each element of C is a chain of K fused multiply-adds (in k order, both kernels), then
// alpha*acc + beta*c (a mul and an fma). Error model: a sum of K products plus one more term,
// dependent chain length K + 2, against sum|alpha*a*b| + |beta*c| (kernel_test_util.h).
TEST_P(SgemmTest, MatchesHostProduct) {
  const auto& [name, s] = GetParam();
  Kernel kernel = load("sgemm.ptx").kernel(name);
  const float alpha = 1.25f, beta = -0.5f;
  auto A = random_floats(size_t(s.m) * s.k, -1.f, 1.f, 21);
  auto B = random_floats(size_t(s.k) * s.n, -1.f, 1.f, 22);
  auto C = random_floats(size_t(s.m) * s.n, -1.f, 1.f, 23);
  DevicePtr dA = dev.upload(A), dB = dev.upload(B), dC = dev.upload(C);
  dev.launch(kernel, Dim3(ceil_div(s.n, 16), ceil_div(s.m, 16)), Dim3(16, 16), s.m, s.n, s.k, alpha,
             dA, dB, beta, dC);
  auto out = dev.download<float>(dC, C.size());
  for (int r = 0; r < s.m; ++r) {
    for (int c = 0; c < s.n; ++c) {
      double acc = 0, abs_acc = 0;
      for (int k = 0; k < s.k; ++k) {
        double p = double(A[r * s.k + k]) * B[k * s.n + c];
        acc += p;
        abs_acc += std::fabs(p);
      }
      double ref = alpha * acc + beta * double(C[r * s.n + c]);
      double abs_sum = std::fabs(alpha) * abs_acc + std::fabs(beta * C[r * s.n + c]);
      ASSERT_TRUE(near_with_tolerance(out[r * s.n + c], ref, float_sum_tolerance(abs_sum, s.k + 2)))
          << name << " C[" << r << "][" << c << "]";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SgemmTest,
    ::testing::Combine(::testing::Values("sgemm_naive", "sgemm_tiled"),
                       ::testing::Values(GemmShape{1, 1, 1}, GemmShape{16, 16, 16},
                                         GemmShape{31, 33, 17}, GemmShape{33, 31, 47},
                                         GemmShape{1, 40, 3}, GemmShape{64, 64, 64},
                                         GemmShape{100, 70, 129}, GemmShape{128, 128, 128})));

}  // namespace
}  // namespace gpusoc::kernel_test
