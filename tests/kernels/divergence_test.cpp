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
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

constexpr int kTraceSlots = 16;
constexpr int kOrderSlots = 10;

struct Launch {
  int grid, block;
  int pattern;  // 0: mixed per lane, 1: random, 2: uniform (no divergence)
};

std::vector<uint32_t> inputs(const Launch& l) {
  int n = l.grid * l.block;
  std::vector<uint32_t> v(n);
  Rng rng(141);
  for (int t = 0; t < n; ++t) {
    int lane = (t % l.block) % 32, warp = (t % l.block) / 32;
    v[t] = l.pattern == 0   ? uint32_t((lane * 13 + warp * 7 + t / l.block) & 31)
           : l.pattern == 1 ? rng.next32() & 31
                            : 0u;
  }
  return v;
}

// Lanes (bit i = lane i) of the warp holding thread t, that exist and satisfy `pred`.
template <typename Pred>
uint32_t warp_lanes(const Launch& l, const std::vector<uint32_t>& v, int t, Pred pred) {
  int block_start = t / l.block * l.block;
  int warp_start = block_start + (t - block_start) / 32 * 32;
  uint32_t mask = 0;
  for (int lane = 0; lane < 32; ++lane) {
    int u = warp_start + lane;
    if (u < block_start + l.block && pred(v[u])) mask |= 1u << lane;
  }
  return mask;
}

class DivergenceTest : public KernelTestWithParam<Launch> {};

// Each thread's tags follow its own path; beside each tag, __activemask() must be exactly the
// lanes of its warp on the same path at that point: split at each if/else, whole again at each
// join (reconvergence at the immediate post-dominator), shrinking with the loop's trip counts.
TEST_P(DivergenceTest, TraceShowsPathsAndReconvergence) {
  const Launch& l = GetParam();
  const int n = l.grid * l.block;
  auto v = inputs(l);
  Kernel k = load("divergence.ptx").kernel("divergence_trace");
  DevicePtr din = dev.upload(v), tags = dev.malloc(n * kTraceSlots * 4),
            masks = dev.malloc(n * kTraceSlots * 4), counts = dev.malloc(n * 4);
  dev.launch(k, Dim3(l.grid), Dim3(l.block), din, tags, masks, counts);
  auto got_tags = dev.download<uint32_t>(tags, n * kTraceSlots);
  auto got_masks = dev.download<uint32_t>(masks, n * kTraceSlots);
  auto got_counts = dev.download<int>(counts, n);

  for (int t = 0; t < n; ++t) {
    const uint32_t x = v[t];
    auto all = [](uint32_t) { return true; };
    std::vector<std::pair<uint32_t, uint32_t>> want;  // (tag, mask)
    want.push_back({1, warp_lanes(l, v, t, all)});
    if (x & 1) {
      auto then_side = [](uint32_t u) { return (u & 1) != 0; };
      want.push_back({10, warp_lanes(l, v, t, then_side)});
      if (x & 2)
        want.push_back({11, warp_lanes(l, v, t, [](uint32_t u) { return (u & 1) && (u & 2); })});
      else
        want.push_back({12, warp_lanes(l, v, t, [](uint32_t u) { return (u & 1) && !(u & 2); })});
      want.push_back({13, warp_lanes(l, v, t, then_side)});
    } else {
      auto else_side = [](uint32_t u) { return (u & 1) == 0; };
      want.push_back({20, warp_lanes(l, v, t, else_side)});
      if (x & 4)
        want.push_back({21, warp_lanes(l, v, t, [](uint32_t u) { return !(u & 1) && (u & 4); })});
      else
        want.push_back({22, warp_lanes(l, v, t, [](uint32_t u) { return !(u & 1) && !(u & 4); })});
      want.push_back({23, warp_lanes(l, v, t, else_side)});
    }
    want.push_back({2, warp_lanes(l, v, t, all)});
    for (uint32_t i = 0; i < ((x >> 3) & 3); ++i)
      want.push_back({30 + i, warp_lanes(l, v, t, [i](uint32_t u) { return ((u >> 3) & 3) > i; })});
    want.push_back({3, warp_lanes(l, v, t, all)});

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
  auto v = inputs(l);
  Kernel k = load("divergence.ptx").kernel("divergence_order");
  DevicePtr din = dev.upload(v), counter = dev.malloc(4);
  dev.memset(counter, 0, 4);
  DevicePtr seq = dev.upload(std::vector<uint32_t>(size_t(n) * kOrderSlots, 0xFFFFFFFFu));
  dev.launch(k, Dim3(l.grid), Dim3(l.block), din, counter, seq);
  auto tickets = dev.download<uint32_t>(seq, size_t(n) * kOrderSlots);

  auto runs = [](uint32_t x, int slot) {
    bool t = x & 1;
    switch (slot) {
      case 0:
      case 9:
        return true;
      case 1:
      case 4:
        return t;
      case 2:
        return t && (x & 2) != 0;
      case 3:
        return t && (x & 2) == 0;
      case 5:
      case 8:
        return !t;
      case 6:
        return !t && (x & 4) != 0;
      case 7:
        return !t && (x & 4) == 0;
    }
    return false;
  };
  // Which slots ran, per thread.
  size_t total = 0;
  for (int t = 0; t < n; ++t)
    for (int s = 0; s < kOrderSlots; ++s) {
      bool ran = tickets[t * kOrderSlots + s] != 0xFFFFFFFFu;
      ASSERT_EQ(ran, runs(v[t], s)) << "thread " << t << " slot " << s << " v=" << v[t];
      total += ran;
    }
  // All tickets distinct and dense: 0 .. total-1.
  std::vector<uint32_t> all;
  for (uint32_t x : tickets)
    if (x != 0xFFFFFFFFu) all.push_back(x);
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i);
  ASSERT_EQ(all.size(), total);
  EXPECT_EQ(dev.download<uint32_t>(counter, 1)[0], total);

  // Order within each warp.
  // Warps start every 32 threads within each block; the last one of a block may be partial.
  for (int w0 = 0, warp_end = 0; w0 < n; w0 = warp_end) {
    warp_end = std::min(w0 + 32, (w0 / l.block + 1) * l.block);
    uint32_t prev_max = 0;
    bool have_prev = false;
    int prev_slot = -1;
    for (int s = 0; s < kOrderSlots; ++s) {
      uint32_t lo = 0xFFFFFFFFu, hi = 0;
      for (int t = w0; t < warp_end; ++t) {
        uint32_t x = tickets[t * kOrderSlots + s];
        if (x == 0xFFFFFFFFu) continue;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
      if (lo == 0xFFFFFFFFu) continue;  // no lane of this warp ran slot s
      if (have_prev) {
        ASSERT_LT(prev_max, lo) << "warp at thread " << w0 << ": slot " << s
                                << " ran before (or interleaved with) slot " << prev_slot;
      }
      prev_max = hi;
      prev_slot = s;
      have_prev = true;
    }
  }
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
