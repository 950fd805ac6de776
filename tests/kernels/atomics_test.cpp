// sw/kernels/atomics.cu: every atomic operation, global and shared. Atomic results depend on
// the order threads reach them only through the returned old values; the tests check final
// values (order-independent by construction: float sums use exactly representable values) and
// the multisets of returned values (tickets, exchanges, atomicInc). All exact.
#include <cstddef>
#include <map>

#include "sw/kernels/atomic_counters.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

// Offsets as the PTX uses them (atomics.ptx: exch_i at +120, cas_max_f at +128, ticket +144).
static_assert(offsetof(AtomicCounters, exch_i) == 120);
static_assert(offsetof(AtomicCounters, cas_max_f) == 128);
static_assert(offsetof(AtomicCounters, cas_mul_ull) == 136);
static_assert(offsetof(AtomicCounters, system_scope) == 152);

class AtomicsTest : public KernelTestWithParam<std::tuple<int, int>> {};

TEST_P(AtomicsTest, GlobalAtomics) {
  const auto [n, block] = GetParam();
  Kernel k = load("atomics.ptx").kernel("atomics_global");
  auto vals = random_ints(n, -1000, 1000, 191);
  AtomicCounters init{};
  init.min_i = INT32_MAX;
  init.max_i = INT32_MIN;
  init.min_u = UINT32_MAX;
  init.min_ll = INT64_MAX;
  init.max_ll = INT64_MIN;
  init.and_u = ~0u;
  init.and_ull = ~0ull;
  init.cas_max_f = -HUGE_VALF;
  init.cas_mul_ull = 1;
  DevicePtr dvals = dev.upload(vals), dc = dev.malloc(sizeof(AtomicCounters));
  dev.copy_to_device(dc, &init, sizeof init);
  DevicePtr tickets = dev.malloc(n * 4), exch_old = dev.malloc(n * 4), inc_old = dev.malloc(n * 4);
  dev.launch(k, Dim3(ceil_div(n, block)), Dim3(block), dvals, n, dc, tickets, exch_old, inc_old);
  AtomicCounters got;
  dev.copy_to_host(&got, dc, sizeof got);

  AtomicCounters want = init;
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
  want.cas_mul_ull = 1;
  for (unsigned j = 0; j < mul_count; ++j) want.cas_mul_ull *= 3;
  want.ticket = n;
  want.block_scope = n;
  want.system_scope = 2 * n;
  want.exch_f = n > 0 ? 1.5f : 0.0f;

#define CHECK_FIELD(f) EXPECT_EQ(got.f, want.f) << #f
  CHECK_FIELD(add_i);
  CHECK_FIELD(add_u);
  CHECK_FIELD(add_ull);
  CHECK_FIELD(add_f);
  CHECK_FIELD(sub_i);
  CHECK_FIELD(add_d);
  CHECK_FIELD(min_i);
  CHECK_FIELD(max_i);
  CHECK_FIELD(min_u);
  CHECK_FIELD(max_u);
  CHECK_FIELD(min_ll);
  CHECK_FIELD(max_ll);
  CHECK_FIELD(max_ull);
  CHECK_FIELD(inc_u);
  CHECK_FIELD(dec_u);
  CHECK_FIELD(and_u);
  CHECK_FIELD(or_u);
  CHECK_FIELD(xor_u);
  CHECK_FIELD(and_ull);
  CHECK_FIELD(or_ull);
  CHECK_FIELD(xor_ull);
  CHECK_FIELD(exch_f);
  CHECK_FIELD(cas_max_f);
  CHECK_FIELD(cas_mul_ull);
  CHECK_FIELD(ticket);
  CHECK_FIELD(block_scope);
  CHECK_FIELD(system_scope);
#undef CHECK_FIELD

  // atomicAdd(+1) old values: each of 0..n-1 exactly once.
  auto t = dev.download<uint32_t>(tickets, n);
  std::sort(t.begin(), t.end());
  for (int i = 0; i < n; ++i) ASSERT_EQ(t[i], uint32_t(i)) << "tickets";
  // atomicExch: the old values plus the final value are 0 (initial), 1, ..., n.
  auto e = dev.download<int32_t>(exch_old, n);
  e.push_back(got.exch_i);
  std::sort(e.begin(), e.end());
  for (int i = 0; i <= n; ++i) ASSERT_EQ(e[i], i) << "exchange chain";
  // atomicInc(p, 16) old values, in whatever order: k mod 17 for k = 0..n-1.
  auto inc = dev.download<uint32_t>(inc_old, n);
  std::map<uint32_t, int> seen, expected;
  for (uint32_t x : inc) ++seen[x];
  for (int i = 0; i < n; ++i) ++expected[uint32_t(i % 17)];
  EXPECT_EQ(seen, expected);
}

TEST_P(AtomicsTest, SharedAtomics) {
  const auto [n, block] = GetParam();
  Kernel k = load("atomics.ptx").kernel("atomics_shared");
  auto vals = random_ints(n, -1000, 1000, 192);
  const int blocks = ceil_div(n, block);
  DevicePtr dvals = dev.upload(vals), dout = dev.malloc(blocks * 8 * 4);
  dev.launch(k, Dim3(blocks), Dim3(block), dvals, n, dout);
  auto out = dev.download<int32_t>(dout, blocks * 8);
  for (int b = 0; b < blocks; ++b) {
    int sum = 0, mn = INT32_MAX, mx = INT32_MIN, count = 0;
    unsigned bits = 0, x = 0;
    float fsum = 0;  // multiples of 1/2 below 2^19: exact in any order
    for (int i = b * block; i < std::min(n, (b + 1) * block); ++i) {
      sum += vals[i];
      mn = std::min(mn, vals[i]);
      mx = std::max(mx, vals[i]);
      bits |= 1u << (vals[i] & 31);
      x ^= unsigned(vals[i]);
      fsum += float(vals[i]) * 0.5f;
      ++count;
    }
    const int32_t* o = &out[b * 8];
    EXPECT_EQ(o[0], sum) << "block " << b << " atomicAdd";
    EXPECT_EQ(o[1], mn) << "block " << b << " atomicMin";
    EXPECT_EQ(o[2], mx) << "block " << b << " atomicMax";
    EXPECT_EQ(uint32_t(o[3]), bits) << "block " << b << " atomicOr";
    EXPECT_EQ(uint32_t(o[4]), x) << "block " << b << " atomicXor";
    EXPECT_EQ(o[5], count) << "block " << b << " atomicCAS loop";
    EXPECT_EQ(u2f(uint32_t(o[6])), fsum) << "block " << b << " atomicAdd(float)";
    EXPECT_EQ(o[7], count) << "block " << b << " atomicInc";
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, AtomicsTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(31, 32),
                                           std::make_tuple(33, 32), std::make_tuple(1000, 128),
                                           std::make_tuple(4096, 256),
                                           std::make_tuple(2000, 1024)));

}  // namespace
}  // namespace gpusoc::kernel_test
