// sw/kernels/divergence.cu: which paths each thread ran, which lanes ran them together, and in
// which order the divergent paths of one warp ran.
//
// The SIMT model under test (a pre-Volta reconvergence stack): at a divergent conditional
// branch the warp first runs the FALL-THROUGH (not-taken) lanes, then the TAKEN lanes; both
// reconverge at the branch's immediate post-dominator. So the expected order depends on how
// nvcc laid out each if/else, read from sw/kernels/divergence.ptx (nvcc 13.0, -O3, sm_80):
//
// divergence_order (line numbers in divergence.ptx as generated):
//   228  @%p4 bra $L__BB1_5      p4 = !(v & 1): TAKEN = outer else (v&1 == 0)
//   229  bra.uni $L__BB1_1       FALL-THROUGH = outer then (v&1 == 1) -> runs first
//   261  @%p5 bra $L__BB1_3      p5 = (v & 2) == 0: TAKEN = then/else (slot 3)
//   262  bra.uni $L__BB1_2       FALL-THROUGH = then/then (slot 2) -> first; join $L__BB1_4
//   240  @%p6 bra $L__BB1_7      p6 = (v & 4) == 0: TAKEN = else/else (slot 7)
//   241  bra.uni $L__BB1_6       FALL-THROUGH = else/then (slot 6) -> first; join $L__BB1_8
//   outer join $L__BB1_9 (slot 9).
// Hence, within one warp, every ticket of slot s is smaller than every ticket of the next
// non-empty slot: 0 < 1 < 2 < 3 < 4 < 5 < 6 < 7 < 8 < 9 (slot numbers were chosen to follow
// this order). divergence_trace has the same shape (lines 58/59, 90/91, 70/71; joins
// $L__BB0_4, $L__BB0_8, $L__BB0_9; the loop's back edge at line 169 exits to $L__BB0_12).
#include "sw/apps/reference/divergence.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

using Launch = DivergenceLaunch;

class DivergenceTest : public KernelTestWithParam<Launch> {};

// Each thread's tags follow its own path; beside each tag, __activemask() must be exactly the
// lanes of its warp on the same path at that point: split at each if/else, whole again at each
// join (reconvergence at the immediate post-dominator), shrinking with the loop's trip counts.
TEST_P(DivergenceTest, TraceShowsPathsAndReconvergence) {
  const Launch& l = GetParam();
  const int n = l.grid * l.block;
  auto v = divergence_inputs(l);
  Kernel k = load("divergence.ptx").kernel("divergence_trace");
  DevicePtr din = dev.upload(v), tags = dev.malloc(n * kTraceSlots * 4),
            masks = dev.malloc(n * kTraceSlots * 4), counts = dev.malloc(n * 4);
  dev.launch(k, Dim3(l.grid), Dim3(l.block), din, tags, masks, counts);
  auto got_tags = dev.download<uint32_t>(tags, n * kTraceSlots);
  auto got_masks = dev.download<uint32_t>(masks, n * kTraceSlots);
  auto got_counts = dev.download<int>(counts, n);

  for (int t = 0; t < n; ++t) {
    const uint32_t x = v[t];
    const auto want = expected_trace(l, v, t);  // (tag, mask)
    ASSERT_EQ(got_counts[t], static_cast<int>(want.size())) << "thread " << t << " v=" << x;
    for (size_t s = 0; s < want.size(); ++s) {
      ASSERT_EQ(got_tags[t * kTraceSlots + s], want[s].first) << "thread " << t << " slot " << s;
      ASSERT_EQ(got_masks[t * kTraceSlots + s], want[s].second)
          << std::hex << "thread " << std::dec << t << " tag " << want[s].first << " v=" << x;
    }
  }
}

// Tickets from one global counter: within each warp, the groups of tickets taken at slots
// 0..9 come strictly one after another (see the PTX walk-through at the top of this file).
TEST_P(DivergenceTest, DivergentPathsRunFallThroughFirst) {
  const Launch& l = GetParam();
  const int n = l.grid * l.block;
  auto v = divergence_inputs(l);
  Kernel k = load("divergence.ptx").kernel("divergence_order");
  DevicePtr din = dev.upload(v), counter = dev.malloc(4);
  dev.memset(counter, 0, 4);
  DevicePtr seq = dev.upload(std::vector<uint32_t>(size_t(n) * kOrderSlots, kNoTicket));
  dev.launch(k, Dim3(l.grid), Dim3(l.block), din, counter, seq);
  auto tickets = dev.download<uint32_t>(seq, size_t(n) * kOrderSlots);

  // Which slots ran, per thread.
  size_t total = 0;
  for (int t = 0; t < n; ++t)
    for (int s = 0; s < kOrderSlots; ++s) {
      bool ran = tickets[t * kOrderSlots + s] != kNoTicket;
      ASSERT_EQ(ran, order_slot_runs(v[t], s)) << "thread " << t << " slot " << s << " v=" << v[t];
      total += ran;
    }
  // All tickets distinct and dense: 0 .. total-1.
  ASSERT_TRUE(tickets_are_dense(tickets));
  EXPECT_EQ(dev.download<uint32_t>(counter, 1)[0], total);

  // Order within each warp.
  const std::string violation = ticket_order_violation(l, tickets);
  EXPECT_TRUE(violation.empty()) << violation;
}

INSTANTIATE_TEST_SUITE_P(Launches, DivergenceTest,
                         ::testing::Values(Launch{1, 32, 0}, Launch{1, 32, 1}, Launch{1, 32, 2},
                                           Launch{2, 48, 0}, Launch{3, 128, 1}, Launch{2, 33, 0}),
                         [](const ::testing::TestParamInfo<Launch>& info) {
                           return "grid" + std::to_string(info.param.grid) + "_block" +
                                  std::to_string(info.param.block) + "_pattern" +
                                  std::to_string(info.param.pattern);
                         });

}  // namespace
}  // namespace gpusoc::kernel_test
