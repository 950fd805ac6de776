// Instruction-coverage apps: integer instruction families (int_ops.cu), single-precision math
// (math.cu) and double precision (fp64.cu). Each runs its kernels over fixed special values
// plus `size` random inputs and checks every result against the host.
#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/fp64.h"
#include "sw/apps/reference/int_ops.h"
#include "sw/apps/reference/math.h"

namespace gpusoc::apps::detail {
namespace {

constexpr uint32_t kBlock = 64;

// Exact: every result is an integer the host computes the same way.
AppResult int_ops(AppDevice& dev, uint64_t size) {
  dev.load("int_ops.ptx");
  const int count = int(size);
  Tally bits, mul64, divrem;
  {
    const auto [a, b] = reference::int_bits_inputs(count, 61, 62);
    const int n = int(a.size());
    const DevicePtr da = dev.upload(a), db = dev.upload(b), out = dev.malloc(n * 20 * 4);
    dev.run("int_bits", {blocks_of(n, kBlock), kBlock}, da, db, out, n);
    const auto got = dev.download<uint32_t>(out, n * 20);
    for (int i = 0; i < n; ++i) {
      const auto want = reference::int_bits_expected(a[i], b[i]);
      for (int j = 0; j < 20; ++j) bits.exact(got[i * 20 + j] == want[j]);
    }
  }
  {
    const auto [a, b] = reference::int_mul64_inputs(count, 63);
    const int n = int(a.size());
    const DevicePtr da = dev.upload(a), db = dev.upload(b), out = dev.malloc(n * 6 * 8);
    dev.run("int_mul64", {blocks_of(n, kBlock), kBlock}, da, db, out, n);
    const auto got = dev.download<uint64_t>(out, n * 6);
    for (int i = 0; i < n; ++i) {
      const auto want = reference::int_mul64_expected(a[i], b[i]);
      for (int j = 0; j < 6; ++j) mul64.exact(got[i * 6 + j] == want[j]);
    }
  }
  {
    const auto [a, b, c, d] = reference::int_divrem_inputs(count, 64);
    const int n = int(a.size());
    const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c), dd = dev.upload(d),
                    out = dev.malloc(n * 14 * 8);
    dev.run("int_divrem", {blocks_of(n, kBlock), kBlock}, da, db, dc, dd, out, n);
    const auto got = dev.download<long long>(out, n * 14);
    for (int i = 0; i < n; ++i) {
      const auto want = reference::int_divrem_expected(a[i], b[i], c[i], d[i]);
      for (int j = 0; j < 14; ++j) divrem.exact(got[i * 14 + j] == want[j]);
    }
  }
  AppResult r;
  r.verified = bits.ok() && mul64.ok() && divrem.ok();
  r.summary = fmt::format(
      "int_ops {} random inputs (+ specials): bit manipulation {}, 64-bit multiply/shift {}, "
      "division/remainder {}",
      count, bits.wrong_of(), mul64.wrong_of(), divrem.wrong_of());
  return r;
}

// Library functions and fast intrinsics within the CUDA Programming Guide's bounds (ulps or
// absolute, see reference/math.h); correctly rounded operations and classification exact.
AppResult math(AppDevice& dev, uint64_t size) {
  dev.load("math.ptx");
  const int count = int(size);
  Tally precise, fast, classify;
  auto add = [](Tally& t, const reference::BoundedError& e) { t.bounded(e.error, e.bound); };
  {
    const std::vector<float> in = reference::math_precise_inputs(count);
    const int n = int(in.size());
    const DevicePtr din = dev.upload(in), out = dev.malloc(n * 8 * 4);
    dev.run("math_precise", {blocks_of(n, kBlock), kBlock}, din, out, n);
    const auto got = dev.download<float>(out, n * 8);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 8; ++j)
        if (const auto e = reference::math_precise_check(j, in[i], got[i * 8 + j]))
          add(precise, *e);
  }
  {
    const auto [a, b] = reference::math_fast_inputs(count);
    const int n = int(a.size());
    const DevicePtr da = dev.upload(a), db = dev.upload(b), out = dev.malloc(n * 7 * 4);
    dev.run("math_fast", {blocks_of(n, kBlock), kBlock}, da, db, out, n);
    const auto got = dev.download<float>(out, n * 7);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 7; ++j)
        add(fast, reference::math_fast_check(j, a[i], b[i], got[i * 7 + j]));
  }
  {
    const std::vector<float> in = reference::math_classify_inputs(count, 65);
    const int n = int(in.size());
    const DevicePtr din = dev.upload(in), out = dev.malloc(n * 8 * 4);
    dev.run("math_classify", {blocks_of(n, kBlock), kBlock}, din, out, n);
    const auto got = dev.download<int32_t>(out, n * 8);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < 8; ++j)
        classify.exact(reference::math_classify_matches(j, in[i], got[i * 8 + j]));
  }
  AppResult r;
  r.verified = precise.ok() && fast.ok() && classify.ok();
  r.summary = fmt::format(
      "math {} random inputs (+ specials): library functions {}; fast intrinsics {}; "
      "classification {}",
      count, precise.bounded_summary(), fast.bounded_summary(), classify.wrong_of());
  return r;
}

// DAXPY and the correctly rounded operations bit for bit; the dot product within the summation
// bound of reference/fp64.h.
AppResult fp64(AppDevice& dev, uint64_t size) {
  dev.load("fp64.ptx");
  const int n = int(size);
  const double alpha = -1.75;
  const auto [x, y] = reference::double_pairs(n, -1, 1, 66);
  const DevicePtr dx = dev.upload(x), dy = dev.upload(y);
  const int blocks = reference::dot_blocks(n);
  const DevicePtr partial = dev.malloc(blocks * 8), dot = dev.malloc(8);
  dev.run("ddot_partial", {uint32_t(blocks), uint32_t(reference::kDotBlockThreads)}, n, dx, dy,
          partial);
  dev.run("dsum_final", {1, uint32_t(reference::kDotBlockThreads)}, partial, blocks, dot);
  const double got_dot = dev.download<double>(dot, 1)[0];
  const reference::DotReference want_dot = reference::dot_reference(x, y);
  const double dot_error = std::fabs(got_dot - want_dot.value);
  const double dot_bound =
      reference::double_sum_tolerance(want_dot.abs_sum, reference::dot_depth(n, blocks));
  dev.run("daxpy", {blocks_of(n, 128), 128}, n, alpha, dx, dy);  // after the dot: y changes
  const auto got_y = dev.download<double>(dy, n);
  Tally axpy, ops;
  for (int i = 0; i < n; ++i)
    axpy.exact(reference::d2u(got_y[i]) == reference::d2u(std::fma(alpha, x[i], y[i])));

  const auto [a, b, c] = reference::dops_inputs(n, 67);
  const int m = int(a.size());
  const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c),
                  out = dev.malloc(m * 6 * 8), out_f = dev.malloc(m * 4),
                  out_ll = dev.malloc(m * 32);
  dev.run("dops", {blocks_of(m, kBlock), kBlock}, m, da, db, dc, out, out_f, out_ll);
  const auto o = dev.download<double>(out, m * 6);
  const auto of = dev.download<float>(out_f, m);
  const auto ol = dev.download<long long>(out_ll, m * 4);
  for (int i = 0; i < m; ++i) {
    const auto want = reference::dops_expected(a[i], b[i], c[i]);
    for (int j = 0; j < 6; ++j) ops.exact(reference::same_double(o[i * 6 + j], want[j]));
    ops.exact(reference::same_float(of[i], float(a[i])));
    const auto want_ll = reference::dops_expected_ll(a[i]);
    for (int j = 0; j < 4; ++j) ops.exact(ol[i * 4 + j] == want_ll[j]);
  }
  AppResult r;
  r.verified = dot_error <= dot_bound && axpy.ok() && ops.ok();
  r.summary = fmt::format(
      "fp64 n={}: dot product error {:.3g} (bound {:.3g}); daxpy {}; correctly rounded "
      "operations and conversions {}",
      n, dot_error, dot_bound, axpy.wrong_of(), ops.wrong_of());
  return r;
}

}  // namespace

std::vector<App> coverage_apps() {
  return {
      {"int_ops", "integer instructions: bits, permutes, funnel shifts, SIMD, 64-bit, div/rem",
       1 << 14, "random inputs", int_ops},
      {"math", "single-precision library functions, fast intrinsics, classification", 1 << 14,
       "random inputs", math},
      {"fp64", "double precision: dot product, DAXPY, correctly rounded operations", 1 << 16,
       "elements", fp64},
  };
}

}  // namespace gpusoc::apps::detail
