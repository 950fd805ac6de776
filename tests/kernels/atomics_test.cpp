// sw/kernels/atomics.cu: every atomic operation, global and shared. Atomic results depend on
// the order threads reach them only through the returned old values; the tests check final
// values (order-independent by construction: float sums use exactly representable values) and
// the multisets of returned values (tickets, exchanges, atomicInc). All exact. The host
// reference is sw/apps/reference/atomics.h.
#include <cstddef>

#include "sw/apps/reference/atomics.h"
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
  auto vals = atomic_inputs(n, 191);
  const AtomicCounters init = initial_counters();
  DevicePtr dvals = dev.upload(vals), dc = dev.malloc(sizeof(AtomicCounters));
  dev.copy_to_device(dc, &init, sizeof init);
  DevicePtr tickets = dev.malloc(n * 4), exch_old = dev.malloc(n * 4), inc_old = dev.malloc(n * 4);
  dev.launch(k, Dim3(ceil_div(n, block)), Dim3(block), dvals, n, dc, tickets, exch_old, inc_old);
  AtomicCounters got;
  dev.copy_to_host(&got, dc, sizeof got);
  for (const std::string& m : counter_mismatches(got, expected_counters(vals))) ADD_FAILURE() << m;

  EXPECT_TRUE(is_ticket_sequence(dev.download<uint32_t>(tickets, n))) << "tickets";
  EXPECT_TRUE(is_exchange_chain(dev.download<int32_t>(exch_old, n), got.exch_i))
      << "exchange chain";
  EXPECT_TRUE(is_wrapping_increment(dev.download<uint32_t>(inc_old, n))) << "atomicInc";
}

TEST_P(AtomicsTest, SharedAtomics) {
  const auto [n, block] = GetParam();
  Kernel k = load("atomics.ptx").kernel("atomics_shared");
  auto vals = atomic_inputs(n, 192);
  const int blocks = ceil_div(n, block);
  DevicePtr dvals = dev.upload(vals), dout = dev.malloc(blocks * 8 * 4);
  dev.launch(k, Dim3(blocks), Dim3(block), dvals, n, dout);
  auto out = dev.download<int32_t>(dout, blocks * 8);
  const char* names[8] = {"atomicAdd", "atomicMin",      "atomicMax",        "atomicOr",
                          "atomicXor", "atomicCAS loop", "atomicAdd(float)", "atomicInc"};
  for (int b = 0; b < blocks; ++b) {
    const auto want = shared_block_results(vals, b * block, std::min(n, (b + 1) * block));
    for (int j = 0; j < 8; ++j)
      EXPECT_TRUE(shared_result_matches(j, out[b * 8 + j], want[j]))
          << "block " << b << " " << names[j] << ": got " << out[b * 8 + j] << ", want " << want[j];
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, AtomicsTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(31, 32),
                                           std::make_tuple(33, 32), std::make_tuple(1000, 128),
                                           std::make_tuple(4096, 256),
                                           std::make_tuple(2000, 1024)));

}  // namespace
}  // namespace gpusoc::kernel_test
