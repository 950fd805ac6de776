// sw/kernels/float_conv.cu: float <-> integer conversions in all rounding modes, rounding to
// integral values, explicitly rounded arithmetic, and __half / __nv_bfloat16 conversions and
// arithmetic. Everything here is correctly rounded by definition, so comparisons are exact
// (bit for bit; any NaN matches any NaN). Inputs and host results: sw/apps/reference/float_conv.h.
#include "sw/apps/reference/float_conv.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class FloatConvTest : public KernelTestWithParam<int> {};

TEST_P(FloatConvTest, FloatToIntegerAllRoundingModes) {
  auto in = conversion_inputs(GetParam(), 171);
  const int n = static_cast<int>(in.size());
  Kernel k = load("float_conv.ptx").kernel("float_to_int");
  DevicePtr din = dev.upload(in), di = dev.malloc(n * 16), du = dev.malloc(n * 16),
            dll = dev.malloc(n * 32);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), din, di, du, dll, n);
  auto oi = dev.download<int32_t>(di, n * 4);
  auto ou = dev.download<uint32_t>(du, n * 4);
  auto oll = dev.download<int64_t>(dll, n * 4);
  const char* s64_names[4] = {"f32->s64 rn", "f32->s64 rz", "f32->u64 rm", "f32->u64 rp"};
  for (int i = 0; i < n; ++i) {
    const float x = in[i];
    const FloatToInt want = float_to_int_expected(x);
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ(oi[i * 4 + m], want.s32[m]) << "f32->s32 mode " << m << " x=" << x;
      EXPECT_EQ(ou[i * 4 + m], want.u32[m]) << "f32->u32 mode " << m << " x=" << x;
      EXPECT_EQ(oll[i * 4 + m], want.s64[m]) << s64_names[m] << " x=" << x;
    }
  }
}

TEST_P(FloatConvTest, IntegerToFloatAllRoundingModes) {
  const IntToFloatInputs in = int_to_float_inputs(GetParam() * 3, 172);
  const int n = static_cast<int>(in.a.size());
  Kernel k = load("float_conv.ptx").kernel("int_to_float");
  DevicePtr da = dev.upload(in.a), db = dev.upload(in.b), dout = dev.malloc(n * 40);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dout, n);
  auto out = dev.download<float>(dout, n * 10);
  for (int i = 0; i < n; ++i) {
    const auto want = int_to_float_expected(in.a[i], in.b[i]);
    for (int j = 0; j < 10; ++j)
      EXPECT_EQ(f2u(out[i * 10 + j]), f2u(want[j]))
          << "conversion " << j << " of " << in.a[i] << " / " << in.b[i];
  }
}

TEST_P(FloatConvTest, RoundingFunctionsAndRoundedArithmetic) {
  const FloatPairs in = float_round_inputs(GetParam(), 173);
  const int n = static_cast<int>(in.a.size());
  Kernel k = load("float_conv.ptx").kernel("float_round");
  DevicePtr da = dev.upload(in.a), db = dev.upload(in.b), dout = dev.malloc(n * 64);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dout, n);
  auto out = dev.download<float>(dout, n * 16);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 16; ++j) {
      float want = float_round_expected(j, in.a[i], in.b[i]);
      float got = out[i * 16 + j];
      EXPECT_TRUE(float_round_matches(j, got, want))
          << kFloatRoundNames[j] << "(" << in.a[i] << ", " << in.b[i] << "): got " << got << " (0x"
          << std::hex << f2u(got) << ") want " << want << " (0x" << f2u(want) << ")";
    }
  }
}

TEST_P(FloatConvTest, HalfAndBfloat16Conversions) {
  const std::vector<float> in = half_convert_inputs(GetParam() * 2, 174);
  const int n = static_cast<int>(in.size());
  Kernel k = load("float_conv.ptx").kernel("half_convert");
  DevicePtr din = dev.upload(in), dbits = dev.malloc(n * 16), dback = dev.malloc(n * 8);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), din, dbits, dback, n);
  auto bits = dev.download<uint16_t>(dbits, n * 8);
  auto back = dev.download<float>(dback, n * 2);
  for (int i = 0; i < n; ++i) {
    const float x = in[i];
    if (std::isnan(x)) {
      EXPECT_TRUE(half_convert_of_nan_ok(&bits[i * 8], &back[i * 2])) << "f16/bf16 of NaN";
      continue;
    }
    const HalfConvert want = half_convert_expected(x);
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ(bits[i * 8 + m], want.bits[m])
          << std::hex << "f32->f16 mode " << m << " of " << x << " (0x" << f2u(x) << ")";
      EXPECT_EQ(bits[i * 8 + 4 + m], want.bits[4 + m])
          << std::hex << "f32->bf16 mode " << m << " of " << x << " (0x" << f2u(x) << ")";
    }
    EXPECT_TRUE(same_float(back[i * 2], want.back[0])) << "f16->f32 of " << x;
    EXPECT_TRUE(same_float(back[i * 2 + 1], want.back[1])) << "bf16->f32 of " << x;
  }
}

// 16-bit arithmetic rounds the exact result once (see half_arith_inputs for why rounding the
// double result once is the reference).
TEST_P(FloatConvTest, HalfAndBfloat16Arithmetic) {
  const HalfArithInputs in = half_arith_inputs(GetParam() * 3, 175);
  const int n = static_cast<int>(in.a.size());
  Kernel k = load("float_conv.ptx").kernel("half_arith");
  DevicePtr da = dev.upload(in.a), db = dev.upload(in.b), dc = dev.upload(in.c),
            dp = dev.upload(in.p), dq = dev.upload(in.q), dout = dev.malloc(n * 20);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dc, dp, dq, dout, n);
  auto out = dev.download<uint16_t>(dout, n * 10);
  for (int i = 0; i < n; ++i) {
    const auto want = half_arith_expected(in, i);
    for (int j = 0; j < 10; ++j)
      EXPECT_EQ(out[i * 10 + j], want[j])
          << std::hex << kHalfArithNames[j] << " of 0x" << in.a[i] << ", 0x" << in.b[i] << ", 0x"
          << in.c[i] << " / bf16 0x" << in.p[i] << ", 0x" << in.q[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, FloatConvTest, ::testing::Values(1, 100));

}  // namespace
}  // namespace gpusoc::kernel_test
