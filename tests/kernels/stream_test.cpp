// sw/kernels/stream.cu: the four STREAM kernels, bit-exact against the host (each element is one
// correctly rounded operation: a copy, a product, a sum, or an fma for triad), with grids both
// covering n and far smaller than n.
#include <cmath>

#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

struct StreamCase {
  int n;
  uint32_t blocks;  // 0: one thread per element
};

class StreamTest : public KernelTestWithParam<StreamCase> {
 protected:
  Dim3 grid() const {
    const StreamCase c = GetParam();
    return Dim3(c.blocks ? c.blocks : ceil_div(c.n, 128));
  }
};

constexpr float kQ = 3.0f;

TEST_P(StreamTest, CopyMovesEveryElementAndNothingPastTheEnd) {
  const int n = GetParam().n;
  Kernel k = load("stream.ptx").kernel("stream_copy");
  const auto a = random_floats(n, -100.f, 100.f, 1);
  DevicePtr da = dev.upload(a), dc = dev.upload(std::vector<float>(n + 1, -7.0f));
  dev.launch(k, grid(), Dim3(128), da, dc, static_cast<long long>(n));
  const auto c = dev.download<float>(dc, n + 1);
  for (int i = 0; i < n; ++i) ASSERT_EQ(f2u(c[i]), f2u(a[i])) << "i=" << i;
  EXPECT_EQ(c[n], -7.0f);
}

TEST_P(StreamTest, ScaleAddTriadMatchTheHostExactly) {
  const int n = GetParam().n;
  Module m = load("stream.ptx");
  const auto a = random_floats(n, -100.f, 100.f, 2), b = random_floats(n, -100.f, 100.f, 3),
             c = random_floats(n, -100.f, 100.f, 4);
  DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c);
  const long long len = n;
  dev.launch(m.kernel("stream_scale"), grid(), Dim3(128), db, dc, kQ, len);  // b = q c
  const auto scaled = dev.download<float>(db, n);
  dev.launch(m.kernel("stream_add"), grid(), Dim3(128), da, db, dc, len);  // c = a + b
  const auto added = dev.download<float>(dc, n);
  dev.launch(m.kernel("stream_triad"), grid(), Dim3(128), da, db, dc, kQ, len);  // a = b + q c
  const auto triad = dev.download<float>(da, n);
  for (int i = 0; i < n; ++i) {
    const float s = kQ * c[i], sum = a[i] + s;
    ASSERT_EQ(f2u(scaled[i]), f2u(s)) << "scale i=" << i;
    ASSERT_EQ(f2u(added[i]), f2u(sum)) << "add i=" << i;
    ASSERT_EQ(f2u(triad[i]), f2u(std::fma(kQ, sum, s))) << "triad i=" << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, StreamTest,
                         ::testing::Values(StreamCase{1, 0}, StreamCase{33, 0}, StreamCase{4099, 0},
                                           StreamCase{4099, 3}, StreamCase{1000, 1}),
                         [](const auto& info) {
                           return "n" + std::to_string(info.param.n) + "_blocks" +
                                  std::to_string(info.param.blocks);
                         });

}  // namespace
}  // namespace gpusoc::kernel_test
