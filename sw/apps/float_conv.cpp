// Conversions and explicitly rounded arithmetic (float_conv.cu): float <-> integer in every
// rounding mode, rounding functions, __half and __nv_bfloat16. All correctly rounded, so every
// result is compared bit for bit (any NaN matching any NaN). The host reference switches
// rounding modes: this file is compiled with -frounding-math.
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/float_conv.h"

namespace gpusoc::apps::detail {
namespace {

constexpr uint32_t kBlock = 64;

Tally float_to_int(AppDevice& dev, int count) {
  const std::vector<float> in = reference::conversion_inputs(count, 81);
  const int n = int(in.size());
  const DevicePtr din = dev.upload(in), di = dev.malloc(n * 16), du = dev.malloc(n * 16),
                  dll = dev.malloc(n * 32);
  dev.run("float_to_int", {blocks_of(n, kBlock), kBlock}, din, di, du, dll, n);
  const auto oi = dev.download<int32_t>(di, n * 4);
  const auto ou = dev.download<uint32_t>(du, n * 4);
  const auto oll = dev.download<int64_t>(dll, n * 4);
  Tally t;
  for (int i = 0; i < n; ++i) {
    const reference::FloatToInt want = reference::float_to_int_expected(in[i]);
    for (int m = 0; m < 4; ++m) {
      t.exact(oi[i * 4 + m] == want.s32[m]);
      t.exact(ou[i * 4 + m] == want.u32[m]);
      t.exact(oll[i * 4 + m] == want.s64[m]);
    }
  }
  return t;
}

Tally int_to_float(AppDevice& dev, int count) {
  const reference::IntToFloatInputs in = reference::int_to_float_inputs(count, 82);
  const int n = int(in.a.size());
  const DevicePtr da = dev.upload(in.a), db = dev.upload(in.b), out = dev.malloc(n * 40);
  dev.run("int_to_float", {blocks_of(n, kBlock), kBlock}, da, db, out, n);
  const auto got = dev.download<float>(out, n * 10);
  Tally t;
  for (int i = 0; i < n; ++i) {
    const auto want = reference::int_to_float_expected(in.a[i], in.b[i]);
    for (int j = 0; j < 10; ++j)
      t.exact(reference::f2u(got[i * 10 + j]) == reference::f2u(want[j]));
  }
  return t;
}

Tally float_round(AppDevice& dev, int count) {
  const reference::FloatPairs in = reference::float_round_inputs(count, 83);
  const int n = int(in.a.size());
  const DevicePtr da = dev.upload(in.a), db = dev.upload(in.b), out = dev.malloc(n * 64);
  dev.run("float_round", {blocks_of(n, kBlock), kBlock}, da, db, out, n);
  const auto got = dev.download<float>(out, n * 16);
  Tally t;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 16; ++j)
      t.exact(reference::float_round_matches(j, got[i * 16 + j],
                                             reference::float_round_expected(j, in.a[i], in.b[i])));
  return t;
}

Tally half_convert(AppDevice& dev, int count) {
  const std::vector<float> in = reference::half_convert_inputs(count, 84);
  const int n = int(in.size());
  const DevicePtr din = dev.upload(in), dbits = dev.malloc(n * 16), dback = dev.malloc(n * 8);
  dev.run("half_convert", {blocks_of(n, kBlock), kBlock}, din, dbits, dback, n);
  const auto bits = dev.download<uint16_t>(dbits, n * 8);
  const auto back = dev.download<float>(dback, n * 2);
  Tally t;
  for (int i = 0; i < n; ++i) {
    if (std::isnan(in[i])) {
      t.exact(reference::half_convert_of_nan_ok(&bits[i * 8], &back[i * 2]));
      continue;
    }
    const reference::HalfConvert want = reference::half_convert_expected(in[i]);
    for (int j = 0; j < 8; ++j) t.exact(bits[i * 8 + j] == want.bits[j]);
    for (int j = 0; j < 2; ++j) t.exact(reference::same_float(back[i * 2 + j], want.back[j]));
  }
  return t;
}

Tally half_arith(AppDevice& dev, int count) {
  const reference::HalfArithInputs in = reference::half_arith_inputs(count, 85);
  const int n = int(in.a.size());
  const DevicePtr da = dev.upload(in.a), db = dev.upload(in.b), dc = dev.upload(in.c),
                  dp = dev.upload(in.p), dq = dev.upload(in.q), out = dev.malloc(n * 20);
  dev.run("half_arith", {blocks_of(n, kBlock), kBlock}, da, db, dc, dp, dq, out, n);
  const auto got = dev.download<uint16_t>(out, n * 10);
  Tally t;
  for (int i = 0; i < n; ++i) {
    const auto want = reference::half_arith_expected(in, i);
    for (int j = 0; j < 10; ++j) t.exact(got[i * 10 + j] == want[j]);
  }
  return t;
}

AppResult float_conv(AppDevice& dev, uint64_t size) {
  dev.load("float_conv.ptx");
  const int count = int(size);
  const Tally to_int = float_to_int(dev, count), to_float = int_to_float(dev, count),
              rounded = float_round(dev, count), half = half_convert(dev, count),
              arith = half_arith(dev, count);
  AppResult r;
  r.verified = to_int.ok() && to_float.ok() && rounded.ok() && half.ok() && arith.ok();
  r.summary = fmt::format(
      "float_conv {} random inputs (+ specials), bit-exact: float->int {}; int->float {}; "
      "rounding and rounded arithmetic {}; f16/bf16 conversions {}; f16/bf16 arithmetic {}",
      count, to_int.wrong_of(), to_float.wrong_of(), rounded.wrong_of(), half.wrong_of(),
      arith.wrong_of());
  return r;
}

}  // namespace

std::vector<App> float_conv_apps() {
  return {{"float_conv",
           "conversions in every rounding mode, rounded arithmetic, __half and __nv_bfloat16",
           1 << 12, "random inputs", float_conv}};
}

}  // namespace gpusoc::apps::detail
