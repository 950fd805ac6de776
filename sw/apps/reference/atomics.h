// Host reference for sw/kernels/atomics.cu (tests/kernels/atomics_test.cpp, the atomics app).
// Atomic results depend on the order threads reach them only through the returned old values:
// the final counters are order-independent by construction (float sums use exactly representable
// values), and the returned values are checked as multisets. All exact.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sw/apps/reference/numeric.h"
#include "sw/kernels/atomic_counters.h"

namespace gpusoc::apps::reference {

inline std::vector<int> atomic_inputs(int n, uint64_t seed) {
  return random_ints(n, -1000, 1000, seed);
}

/// The counters before atomics_global: the identity of each operation.
inline AtomicCounters initial_counters() {
  AtomicCounters c{};
  c.min_i = INT32_MAX;
  c.max_i = INT32_MIN;
  c.min_u = UINT32_MAX;
  c.min_ll = INT64_MAX;
  c.max_ll = INT64_MIN;
  c.and_u = ~0u;
  c.and_ull = ~0ull;
  c.cas_max_f = -HUGE_VALF;
  c.cas_mul_ull = 1;
  return c;
}

/// The counters after atomics_global over `vals`, from initial_counters().
inline AtomicCounters expected_counters(const std::vector<int>& vals) {
  const int n = static_cast<int>(vals.size());
  AtomicCounters want = initial_counters();
  unsigned mul_count = 0;
  for (int i = 0; i < n; ++i) {
    const int v = vals[i];
    const unsigned h = unsigned(i) * 2654435761u;
    want.add_i += v;
    want.add_u += unsigned(v) * 3u;
    want.add_ull += (unsigned long long)(v + 1000) << 24;
    want.add_f += float(v) * 0.25f;  // multiples of 1/4 below 2^20: exact in any order
    want.sub_i -= v;
    want.add_d += double(v) * 0.125;
    want.min_i = std::min(want.min_i, v);
    want.max_i = std::max(want.max_i, v);
    want.min_u = std::min(want.min_u, unsigned(v));
    want.max_u = std::max(want.max_u, unsigned(v));
    want.min_ll = std::min(want.min_ll, v * 1000000007LL);
    want.max_ll = std::max(want.max_ll, v * 1000000007LL);
    want.max_ull = std::max(want.max_ull, (unsigned long long)h << 20);
    want.and_u &= ~(1u << (i & 31)) | h;
    want.or_u |= 1u << (h >> 27);
    want.xor_u ^= h;
    want.and_ull &= ~(1ull << (i & 63));
    want.or_ull |= 1ull << (h >> 26);
    want.xor_ull ^= (unsigned long long)h << 16;
    want.cas_max_f = std::max(want.cas_max_f, float(v) * 0.5f);
    if ((i & 7) == 0) ++mul_count;
  }
  // atomicInc(p, 16) counts 0..16 and wraps to 0; atomicDec(p, 16) from 0 wraps to 16.
  want.inc_u = n % 17;
  want.dec_u = (17 - n % 17) % 17;
  for (unsigned j = 0; j < mul_count; ++j) want.cas_mul_ull *= 3;
  want.ticket = n;
  want.block_scope = n;
  want.system_scope = 2 * n;
  want.exch_f = n > 0 ? 1.5f : 0.0f;
  return want;
}

/// The fields that differ (exch_i excepted: it is the end of the exchange chain), one
/// "name: got G, want W" each.
inline std::vector<std::string> counter_mismatches(const AtomicCounters& got,
                                                   const AtomicCounters& want) {
  std::vector<std::string> out;
  auto check = [&](const char* name, auto g, auto w) {
    if (g == w) return;
    std::ostringstream s;
    s << name << ": got " << g << ", want " << w;
    out.push_back(s.str());
  };
#define GPUSOC_CHECK_FIELD(f) check(#f, got.f, want.f)
  GPUSOC_CHECK_FIELD(add_i);
  GPUSOC_CHECK_FIELD(add_u);
  GPUSOC_CHECK_FIELD(add_ull);
  GPUSOC_CHECK_FIELD(add_f);
  GPUSOC_CHECK_FIELD(sub_i);
  GPUSOC_CHECK_FIELD(add_d);
  GPUSOC_CHECK_FIELD(min_i);
  GPUSOC_CHECK_FIELD(max_i);
  GPUSOC_CHECK_FIELD(min_u);
  GPUSOC_CHECK_FIELD(max_u);
  GPUSOC_CHECK_FIELD(min_ll);
  GPUSOC_CHECK_FIELD(max_ll);
  GPUSOC_CHECK_FIELD(max_ull);
  GPUSOC_CHECK_FIELD(inc_u);
  GPUSOC_CHECK_FIELD(dec_u);
  GPUSOC_CHECK_FIELD(and_u);
  GPUSOC_CHECK_FIELD(or_u);
  GPUSOC_CHECK_FIELD(xor_u);
  GPUSOC_CHECK_FIELD(and_ull);
  GPUSOC_CHECK_FIELD(or_ull);
  GPUSOC_CHECK_FIELD(xor_ull);
  GPUSOC_CHECK_FIELD(exch_f);
  GPUSOC_CHECK_FIELD(cas_max_f);
  GPUSOC_CHECK_FIELD(cas_mul_ull);
  GPUSOC_CHECK_FIELD(ticket);
  GPUSOC_CHECK_FIELD(block_scope);
  GPUSOC_CHECK_FIELD(system_scope);
#undef GPUSOC_CHECK_FIELD
  return out;
}
constexpr int kCheckedCounters = 27;  // the fields counter_mismatches compares

/// atomicAdd(+1) old values: each of 0..n-1 exactly once.
inline bool is_ticket_sequence(std::vector<uint32_t> tickets) {
  std::sort(tickets.begin(), tickets.end());
  for (size_t i = 0; i < tickets.size(); ++i)
    if (tickets[i] != i) return false;
  return true;
}

/// atomicExch(p, i + 1) from 0: the old values plus the final value are 0, 1, ..., n.
inline bool is_exchange_chain(std::vector<int32_t> old_values, int32_t final_value) {
  old_values.push_back(final_value);
  std::sort(old_values.begin(), old_values.end());
  for (size_t i = 0; i < old_values.size(); ++i)
    if (old_values[i] != int32_t(i)) return false;
  return true;
}

/// atomicInc(p, 16) old values, in whatever order: k mod 17 for k = 0..n-1.
inline bool is_wrapping_increment(const std::vector<uint32_t>& old_values) {
  std::map<uint32_t, size_t> seen, expected;
  for (uint32_t x : old_values) ++seen[x];
  for (size_t i = 0; i < old_values.size(); ++i) ++expected[uint32_t(i % 17)];
  return seen == expected;
}

/// What atomics_shared writes for the block holding vals[begin, end): sum, min, max, or of bits,
/// xor, CAS-loop count, float sum (bits), atomicInc ticket count.
inline std::array<int32_t, 8> shared_block_results(const std::vector<int>& vals, size_t begin,
                                                   size_t end) {
  int sum = 0, mn = INT32_MAX, mx = INT32_MIN, count = 0;
  unsigned bits = 0, x = 0;
  float fsum = 0;  // multiples of 1/2 below 2^19: exact in any order
  for (size_t i = begin; i < end; ++i) {
    sum += vals[i];
    mn = std::min(mn, vals[i]);
    mx = std::max(mx, vals[i]);
    bits |= 1u << (vals[i] & 31);
    x ^= unsigned(vals[i]);
    fsum += float(vals[i]) * 0.5f;
    ++count;
  }
  return {sum, mn, mx, int32_t(bits), int32_t(x), count, int32_t(f2u(fsum)), count};
}

/// Word j of atomics_shared's block results: the float sum (j == 6) compared as a value.
inline bool shared_result_matches(int j, int32_t got, int32_t want) {
  return j == 6 ? u2f(uint32_t(got)) == u2f(uint32_t(want)) : got == want;
}

}  // namespace gpusoc::apps::reference
