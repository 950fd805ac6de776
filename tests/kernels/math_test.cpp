// sw/kernels/math.cu: library functions, fast intrinsics and classification. The inputs, the
// host results and the documented bounds (with where they come from) are in
// sw/apps/reference/math.h.
#include "sw/apps/reference/math.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class MathTest : public KernelTestWithParam<int> {};

TEST_P(MathTest, LibraryFunctionsWithinDocumentedUlps) {
  auto in = math_precise_inputs(GetParam());
  const int n = static_cast<int>(in.size());
  Kernel k = load("math.ptx").kernel("math_precise");
  DevicePtr din = dev.upload(in), dout = dev.malloc(n * 32);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), din, dout, n);
  auto out = dev.download<float>(dout, n * 8);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 8; ++j) {
      const auto c = math_precise_check(j, in[i], out[i * 8 + j]);
      if (!c) continue;  // outside the documented range
      EXPECT_TRUE(c->ok()) << kMathPreciseNames[j] << " of " << in[i] << ": got " << out[i * 8 + j]
                           << ", error " << c->error << " > " << c->bound;
    }
  }
}

TEST_P(MathTest, FastIntrinsicsWithinDocumentedBounds) {
  const auto [a, b] = math_fast_inputs(GetParam() * 4);
  const int n = static_cast<int>(a.size());
  Kernel k = load("math.ptx").kernel("math_fast");
  DevicePtr da = dev.upload(a), db = dev.upload(b), dout = dev.malloc(n * 28);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dout, n);
  auto out = dev.download<float>(dout, n * 7);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 7; ++j) {
      const BoundedError c = math_fast_check(j, a[i], b[i], out[i * 7 + j]);
      EXPECT_TRUE(c.ok()) << kMathFastNames[j] << " of " << a[i] << ", " << b[i] << ": got "
                          << out[i * 7 + j] << ", error " << c.error << " > " << c.bound;
    }
  }
}

TEST_P(MathTest, Classification) {
  auto in = math_classify_inputs(GetParam(), 183);
  const int n = static_cast<int>(in.size());
  Kernel k = load("math.ptx").kernel("math_classify");
  DevicePtr din = dev.upload(in), dout = dev.malloc(n * 32);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), din, dout, n);
  auto out = dev.download<int32_t>(dout, n * 8);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_TRUE(math_classify_matches(j, in[i], out[i * 8 + j]))
          << kMathClassifyNames[j] << " of 0x" << std::hex << f2u(in[i]) << ": got 0x"
          << out[i * 8 + j];
}

INSTANTIATE_TEST_SUITE_P(Sizes, MathTest, ::testing::Values(1, 200));

}  // namespace
}  // namespace gpusoc::kernel_test
