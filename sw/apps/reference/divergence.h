// Host reference for sw/kernels/divergence.cu (tests/kernels/divergence_test.cpp, the divergence
// app): the inputs, each thread's expected trace with its __activemask() values, which
// divergence_order slots each thread runs, and the order check on the tickets.
//
// The SIMT model (a pre-Volta reconvergence stack): at a divergent conditional branch the warp
// first runs the FALL-THROUGH (not-taken) lanes, then the TAKEN lanes; both reconverge at the
// branch's immediate post-dominator. divergence_test.cpp reads the layout nvcc chose for each
// if/else from divergence.ptx: within one warp, every ticket of slot s is smaller than every
// ticket of the next non-empty slot (slot numbers follow that order).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

constexpr int kTraceSlots = 16;
constexpr int kOrderSlots = 10;

struct DivergenceLaunch {
  int grid, block;
  int pattern;  // 0: mixed per lane, 1: random, 2: uniform (no divergence)
  int threads() const { return grid * block; }
};

inline std::vector<uint32_t> divergence_inputs(const DivergenceLaunch& l) {
  int n = l.threads();
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
uint32_t warp_lanes(const DivergenceLaunch& l, const std::vector<uint32_t>& v, int t, Pred pred) {
  int block_start = t / l.block * l.block;
  int warp_start = block_start + (t - block_start) / 32 * 32;
  uint32_t mask = 0;
  for (int lane = 0; lane < 32; ++lane) {
    int u = warp_start + lane;
    if (u < block_start + l.block && pred(v[u])) mask |= 1u << lane;
  }
  return mask;
}

/// divergence_trace of thread t: (tag, __activemask()) in order. Each mask is exactly the lanes
/// of its warp on the same path at that point: split at each if/else, whole again at each join,
/// shrinking with the loop's trip counts.
inline std::vector<std::pair<uint32_t, uint32_t>> expected_trace(const DivergenceLaunch& l,
                                                                 const std::vector<uint32_t>& v,
                                                                 int t) {
  const uint32_t x = v[t];
  auto all = [](uint32_t) { return true; };
  std::vector<std::pair<uint32_t, uint32_t>> want;
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
  return want;
}

/// Whether a thread with input x takes a ticket at divergence_order slot `slot`.
inline bool order_slot_runs(uint32_t x, int slot) {
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
}

constexpr uint32_t kNoTicket = 0xFFFFFFFFu;  // what the host fills the slots with

/// The tickets (kOrderSlots per thread, kNoTicket where none was taken) are 0..count-1, each once.
inline bool tickets_are_dense(const std::vector<uint32_t>& tickets) {
  std::vector<uint32_t> all;
  for (uint32_t x : tickets)
    if (x != kNoTicket) all.push_back(x);
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] != i) return false;
  return true;
}

/// Within each warp, the tickets of slots 0..9 come in groups strictly one after another. Empty
/// when they do; otherwise the first violation, in words.
inline std::string ticket_order_violation(const DivergenceLaunch& l,
                                          const std::vector<uint32_t>& tickets) {
  const int n = l.threads();
  // Warps start every 32 threads within each block; the last one of a block may be partial.
  for (int w0 = 0, warp_end = 0; w0 < n; w0 = warp_end) {
    warp_end = std::min(w0 + 32, (w0 / l.block + 1) * l.block);
    uint32_t prev_max = 0;
    int prev_slot = -1;
    for (int s = 0; s < kOrderSlots; ++s) {
      uint32_t lo = kNoTicket, hi = 0;
      for (int t = w0; t < warp_end; ++t) {
        uint32_t x = tickets[t * kOrderSlots + s];
        if (x == kNoTicket) continue;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
      }
      if (lo == kNoTicket) continue;  // no lane of this warp ran slot s
      if (prev_slot >= 0 && prev_max >= lo)
        return "warp at thread " + std::to_string(w0) + ": slot " + std::to_string(s) +
               " ran before (or interleaved with) slot " + std::to_string(prev_slot);
      prev_max = hi;
      prev_slot = s;
    }
  }
  return {};
}

}  // namespace gpusoc::apps::reference
