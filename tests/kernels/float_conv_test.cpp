// sw/kernels/float_conv.cu: float <-> integer conversions in all rounding modes, rounding to
// integral values, explicitly rounded arithmetic, and __half / __nv_bfloat16 conversions and
// arithmetic. Everything here is correctly rounded by definition, so comparisons are exact
// (bit for bit; any NaN matches any NaN).
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

const Round kModes[4] = {Round::Nearest, Round::Zero, Round::Down, Round::Up};

// Specials: ties, integer-range boundaries, infinities, subnormals; then random values of all
// magnitudes (random bit patterns, NaNs excluded) and of moderate size.
std::vector<float> conversion_inputs(int random_count, uint64_t seed) {
  std::vector<float> v = {0.0f,
                          -0.0f,
                          0.5f,
                          1.5f,
                          2.5f,
                          -0.5f,
                          -1.5f,
                          -2.5f,
                          0.49999997f,
                          1e10f,
                          -1e10f,
                          2147483520.0f,
                          2147483648.0f,
                          -2147483648.0f,
                          -2147483904.0f,
                          4294967040.0f,
                          4294967296.0f,
                          1e20f,
                          -1e20f,
                          9223371487098961920.0f,
                          9223372036854775808.0f,
                          -9223372036854775808.0f,
                          1.8446743e19f,
                          1.8446744e19f,
                          HUGE_VALF,
                          -HUGE_VALF,
                          123.456f,
                          -123.456f,
                          1e-40f,
                          -1e-40f,
                          0.99999994f,
                          -0.99999994f,
                          8388609.0f,
                          16777217.0f};
  Rng rng(seed);
  for (int i = 0; i < random_count; ++i) {
    float f;
    do f = u2f(rng.next32());
    while (std::isnan(f));
    v.push_back(f);
    v.push_back(rng.uniform(-1e6f, 1e6f));
    v.push_back(rng.uniform(-4.f, 4.f));
  }
  return v;
}

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
  for (int i = 0; i < n; ++i) {
    const float x = in[i];
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ(oi[i * 4 + m], cvt_to_int<int32_t>(x, kModes[m]))
          << "f32->s32 mode " << m << " x=" << x;
      EXPECT_EQ(ou[i * 4 + m], cvt_to_int<uint32_t>(x, kModes[m]))
          << "f32->u32 mode " << m << " x=" << x;
    }
    EXPECT_EQ(oll[i * 4 + 0], cvt_to_int<int64_t>(x, Round::Nearest)) << "f32->s64 rn x=" << x;
    EXPECT_EQ(oll[i * 4 + 1], cvt_to_int<int64_t>(x, Round::Zero)) << "f32->s64 rz x=" << x;
    EXPECT_EQ(uint64_t(oll[i * 4 + 2]), cvt_to_int<uint64_t>(x, Round::Down))
        << "f32->u64 rm x=" << x;
    EXPECT_EQ(uint64_t(oll[i * 4 + 3]), cvt_to_int<uint64_t>(x, Round::Up))
        << "f32->u64 rp x=" << x;
  }
}

TEST_P(FloatConvTest, IntegerToFloatAllRoundingModes) {
  Rng rng(172);
  std::vector<int> a = {0, 1, -1, 16777217, -16777217, 16777219, INT32_MAX, INT32_MIN, 33554435};
  std::vector<long long> b = {0,
                              -1,
                              (1LL << 53) + 1,
                              INT64_MAX,
                              INT64_MIN,
                              -((1LL << 40) + 3),
                              (1LL << 24) + 1,
                              9007199791611905LL,
                              -7};
  for (int i = 0; i < GetParam() * 3; ++i) {
    a.push_back(static_cast<int>(rng.next32()) >> (i % 31));
    b.push_back(static_cast<long long>(rng.next64()) >> (i % 63));
  }
  const int n = static_cast<int>(a.size());
  Kernel k = load("float_conv.ptx").kernel("int_to_float");
  DevicePtr da = dev.upload(a), db = dev.upload(b), dout = dev.malloc(n * 40);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dout, n);
  auto out = dev.download<float>(dout, n * 10);
  for (int i = 0; i < n; ++i) {
    const long double x = a[i], ux = static_cast<uint32_t>(a[i]), y = b[i],
                      uy = static_cast<uint64_t>(b[i]);
    const float want[10] = {round_to_float(x, Round::Nearest),  round_to_float(x, Round::Zero),
                            round_to_float(x, Round::Down),     round_to_float(x, Round::Up),
                            round_to_float(ux, Round::Nearest), round_to_float(ux, Round::Zero),
                            round_to_float(y, Round::Nearest),  round_to_float(y, Round::Up),
                            round_to_float(uy, Round::Down),    round_to_float(x, Round::Nearest)};
    for (int j = 0; j < 10; ++j)
      EXPECT_EQ(f2u(out[i * 10 + j]), f2u(want[j]))
          << "conversion " << j << " of " << a[i] << " / " << b[i];
  }
}

// Host side of float_round, operation by operation, each under its rounding mode.
float host_round_op(int j, float x, float y) {
  auto op = [&](Round r, auto f) {
    return in_rounding_mode(r, [&] {
      volatile float vx = x, vy = y;
      volatile float out = f(static_cast<float>(vx), static_cast<float>(vy));
      return static_cast<float>(out);
    });
  };
  switch (j) {
    case 0:
      return std::nearbyint(x);
    case 1:
      return std::trunc(x);
    case 2:
      return std::floor(x);
    case 3:
      return std::ceil(x);
    case 4:
      return std::round(x);
    case 5:
      return op(Round::Zero, [](float a, float b) { return a + b; });
    case 6:
      return op(Round::Up, [](float a, float b) { return a + b; });
    case 7:
      return op(Round::Down, [](float a, float b) { return a * b; });
    case 8:
      return op(Round::Up, [](float a, float b) { return a * b; });
    case 9:
      return op(Round::Zero, [](float a, float b) { return a / b; });
    case 10:
      return op(Round::Nearest, [](float a, float b) { return a / b; });
    case 11:
      return op(Round::Down, [](float a, float) { return std::sqrt(std::fabs(a)); });
    case 12:
      return op(Round::Nearest, [](float, float b) { return 1.0f / b; });
    case 13:
      return op(Round::Zero, [](float a, float b) { return std::fma(a, b, 1.0f); });
    case 14:
      return std::isnan(x) ? 0.0f : std::min(1.0f, std::max(0.0f, x));  // __saturatef
    case 15:
      return std::fmin(x, y) - std::fmax(x, y);
  }
  return 0;
}

TEST_P(FloatConvTest, RoundingFunctionsAndRoundedArithmetic) {
  std::vector<float> a = {0.5f,   1.5f,       2.5f,       -0.5f,      -2.5f,        1e-45f, 3e38f,
                          -3e38f, 1.0000001f, 8388609.0f, 0.0f,       1.0f,         -1.0f,  0.75f,
                          1.25f,  -7.5f,      HUGE_VALF,  -HUGE_VALF, std::nanf("")};
  std::vector<float> b = {3.0f, -3.0f,  0.1f, 1e-30f, -7.0f, 1e30f, 3.0f, 3.0f, 0.7f, -0.3f,
                          5.0f, 1e-38f, 2.0f, -1.0f,  4.0f,  3.0f,  2.0f, 2.0f, 1.0f};
  Rng rng(173);
  for (int i = 0; i < GetParam(); ++i) {
    a.push_back(rng.uniform(-1000, 1000));
    float y = rng.uniform(0.01f, 100.f);
    b.push_back(i % 2 ? y : -y);
  }
  const int n = static_cast<int>(a.size());
  Kernel k = load("float_conv.ptx").kernel("float_round");
  DevicePtr da = dev.upload(a), db = dev.upload(b), dout = dev.malloc(n * 64);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dout, n);
  auto out = dev.download<float>(dout, n * 16);
  const char* names[16] = {"rintf",     "truncf",    "floorf",      "ceilf",
                           "roundf",    "__fadd_rz", "__fadd_ru",   "__fmul_rd",
                           "__fmul_ru", "__fdiv_rz", "__fdiv_rn",   "__fsqrt_rd",
                           "__frcp_rn", "__fmaf_rz", "__saturatef", "fminf-fmaxf"};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 16; ++j) {
      float want = host_round_op(j, a[i], b[i]);
      float got = out[i * 16 + j];
      // __saturatef: the value matters, not the sign of a zero.
      bool ok = j == 14 ? got == want : same_float(got, want);
      EXPECT_TRUE(ok) << names[j] << "(" << a[i] << ", " << b[i] << "): got " << got << " (0x"
                      << std::hex << f2u(got) << ") want " << want << " (0x" << f2u(want) << ")";
    }
  }
}

TEST_P(FloatConvTest, HalfAndBfloat16Conversions) {
  std::vector<float> in = {
      0.0f,          -0.0f,         1.0f,   -1.0f,     1.0f / 3,      65504.0f,     65519.996f,
      65520.0f,      -65520.0f,     1e5f,   -1e5f,     6.1035156e-5f, 6.0e-8f,      5.9604645e-8f,
      2.9802322e-8f, 2.9802326e-8f, 1e-10f, -1e-10f,   3.3895314e38f, 3.39e38f,     -3.4e38f,
      1.00390625f,   1.005859375f,  1e-40f, HUGE_VALF, -HUGE_VALF,    std::nanf("")};
  Rng rng(174);
  for (int i = 0; i < GetParam() * 2; ++i) {
    float f;
    do f = u2f(rng.next32());
    while (std::isnan(f));
    in.push_back(f);
    in.push_back(rng.uniform(-70000, 70000));
    in.push_back(rng.uniform(-1e-4f, 1e-4f));
  }
  const int n = static_cast<int>(in.size());
  Kernel k = load("float_conv.ptx").kernel("half_convert");
  DevicePtr din = dev.upload(in), dbits = dev.malloc(n * 16), dback = dev.malloc(n * 8);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), din, dbits, dback, n);
  auto bits = dev.download<uint16_t>(dbits, n * 8);
  auto back = dev.download<float>(dback, n * 2);
  for (int i = 0; i < n; ++i) {
    const float x = in[i];
    if (std::isnan(x)) {
      for (int m = 0; m < 4; ++m) {
        EXPECT_TRUE(half_is_nan(bits[i * 8 + m])) << "f16 of NaN, mode " << m;
        EXPECT_TRUE(bf16_is_nan(bits[i * 8 + 4 + m])) << "bf16 of NaN, mode " << m;
      }
      EXPECT_TRUE(std::isnan(back[i * 2]) && std::isnan(back[i * 2 + 1]));
      continue;
    }
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ(bits[i * 8 + m], to_half_bits(x, kModes[m]))
          << std::hex << "f32->f16 mode " << m << " of " << x << " (0x" << f2u(x) << ")";
      EXPECT_EQ(bits[i * 8 + 4 + m], to_bf16_bits(x, kModes[m]))
          << std::hex << "f32->bf16 mode " << m << " of " << x << " (0x" << f2u(x) << ")";
    }
    EXPECT_TRUE(same_float(back[i * 2], float(half_value(to_half_bits(x))))) << "f16->f32 of " << x;
    EXPECT_TRUE(same_float(back[i * 2 + 1], float(bf16_value(to_bf16_bits(x)))))
        << "bf16->f32 of " << x;
  }
}

// 16-bit arithmetic rounds the exact result once. Operands are kept where the exact results
// are representable in double (|operands| in [2^-6, 8] for f16 and [2^-8, 2^8] for bf16, plus
// a few overflow and subnormal cases), so rounding the double result once is the reference.
TEST_P(FloatConvTest, HalfAndBfloat16Arithmetic) {
  Rng rng(175);
  auto moderate = [&](double lo_exp, double hi_exp) {
    double mag = std::ldexp(rng.uniform_double(1, 2),
                            static_cast<int>(rng.integer(int64_t(lo_exp), int64_t(hi_exp))));
    return rng.next32() & 1 ? -mag : mag;
  };
  std::vector<uint16_t> a = {to_half_bits(65504), to_half_bits(-65504), to_half_bits(0x1p-10),
                             to_half_bits(1)};
  std::vector<uint16_t> b = {to_half_bits(65504), to_half_bits(-1), to_half_bits(0x1p-10),
                             to_half_bits(1)};
  std::vector<uint16_t> c = {to_half_bits(1), to_half_bits(2), to_half_bits(0x1p-20),
                             to_half_bits(-1)};
  std::vector<uint16_t> p = {to_bf16_bits(3), to_bf16_bits(0x1p-8), to_bf16_bits(-255),
                             to_bf16_bits(1)};
  std::vector<uint16_t> q = {to_bf16_bits(1.0 / 3), to_bf16_bits(0x1p-8), to_bf16_bits(255),
                             to_bf16_bits(-1)};
  for (int i = 0; i < GetParam() * 3; ++i) {
    a.push_back(to_half_bits(moderate(-6, 2)));
    b.push_back(to_half_bits(moderate(-6, 2)));
    c.push_back(to_half_bits(moderate(-6, 2)));
    p.push_back(to_bf16_bits(moderate(-8, 7)));
    q.push_back(to_bf16_bits(moderate(-8, 7)));
  }
  const int n = static_cast<int>(a.size());
  Kernel k = load("float_conv.ptx").kernel("half_arith");
  DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c), dp = dev.upload(p),
            dq = dev.upload(q), dout = dev.malloc(n * 20);
  dev.launch(k, Dim3(ceil_div(n, 64)), Dim3(64), da, db, dc, dp, dq, dout, n);
  auto out = dev.download<uint16_t>(dout, n * 10);
  for (int i = 0; i < n; ++i) {
    const double x = half_value(a[i]), y = half_value(b[i]), z = half_value(c[i]);
    const double s = bf16_value(p[i]), t = bf16_value(q[i]);
    const uint16_t want[10] = {to_half_bits(x + y),     to_half_bits(x * y),
                               to_half_bits(x * y + z), to_half_bits(x + y),
                               x > y ? a[i] : b[i],     uint16_t(x < y ? 1 : 0),
                               to_half_bits(x * y + z), to_half_bits(y * z + x),
                               to_bf16_bits(s * t + s), to_bf16_bits(s * t)};
    const char* names[10] = {"__hadd", "__hmul",      "__hfma",       "__hsub(x, -y)", "__hmax",
                             "__hlt",  "__hfma2 low", "__hfma2 high", "bf16 fma",      "bf16 mul"};
    for (int j = 0; j < 10; ++j)
      EXPECT_EQ(out[i * 10 + j], want[j])
          << std::hex << names[j] << " of 0x" << a[i] << ", 0x" << b[i] << ", 0x" << c[i]
          << " / bf16 0x" << p[i] << ", 0x" << q[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, FloatConvTest, ::testing::Values(1, 100));

}  // namespace
}  // namespace gpusoc::kernel_test
