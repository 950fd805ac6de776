// Host reference for sw/kernels/device_functions.cu (tests/kernels/device_functions_test.cpp,
// the device_calls app): what device_calls writes for each thread. Exact.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

/// |v| <= 10000 keeps every intermediate of device_calls inside int (sum of 8 squares < 2^31).
inline std::vector<int> device_call_inputs(int n, uint64_t seed) {
  return random_ints(n, -10000, 10000, seed);
}

inline int host_fib(int n) {
  return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2);
}

/// out_i[t*8 + 0..4] of thread t: mix, span(min_max), fib, sum of the local squares, and the
/// local array entry selected by v & 7.
inline std::array<int, 5> device_call_ints(const std::vector<int>& in, int t) {
  const int n = static_cast<int>(in.size());
  const int v = in[t];
  long long d = v * 1000003LL;
  int mix = v * 3 + static_cast<int>(unsigned(t) >> 1) + static_cast<int>(v * 0.5f * 4.0f) +
            static_cast<int>(d % 1000) - t;
  int cnt = std::min(4, n - t);
  auto [lo, hi] = std::minmax_element(in.begin() + t, in.begin() + t + cnt);
  int sum = 0;
  for (int i = 0; i < 8; ++i) sum += (v + i) * (v + i);
  return {mix, (*hi - *lo) * 3, host_fib(t % 16), sum, (v + (v & 7)) * (v + (v & 7))};
}

/// out_d[t]: dmix(v, 0.25, t) = v * 0.25 + (double)(float)t, fused (correctly rounded fma).
inline double device_call_double(const std::vector<int>& in, int t) {
  return std::fma(double(in[t]), 0.25, double(float(t)));
}

/// What the factorial slots hold before the launch, so untouched ones can be told apart.
constexpr unsigned long long kUntouchedFactorial = 0xDEADBEEFDEADBEEFull;

/// facts[t*21 + i] after the launch: i! for 1 <= i <= t % 21, 0! = 1 in slot 0 only when
/// t % 21 == 0, kUntouchedFactorial elsewhere.
inline unsigned long long factorial_slot(int t, int i) {
  const int m = t % 21;
  unsigned long long f = 1;
  for (int k = 1; k <= i; ++k) f *= k;
  return (i >= 1 && i <= m) || (i == 0 && m == 0) ? f : kUntouchedFactorial;
}

}  // namespace gpusoc::apps::reference
