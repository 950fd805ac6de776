// Host reference for sw/kernels/warp_ops.cu (tests/kernels/warp_ops_test.cpp, the warp_ops app):
// per-warp inputs and what vote, match, redux, shuffles and the reducing barriers give each
// thread. All results are integers or moved bits: exact. Launches use full warps (blockDim.x a
// multiple of 32).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sw/apps/reference/numeric.h"

namespace gpusoc::apps::reference {

/// The 32 input words of one (full) warp.
using Warp = std::array<uint32_t, 32>;

template <typename Pred>
uint32_t ballot(const Warp& w, Pred p) {
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l)
    if (p(w[l])) m |= 1u << l;
  return m;
}

/// Warps in turn: random words, a common top byte, uniform, a few lanes differing.
inline std::vector<uint32_t> warp_inputs(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> v(n);
  for (int t = 0; t < n; ++t) {
    int warp = t / 32;
    uint32_t r = rng.next32();
    switch (warp % 4) {
      case 0:
        v[t] = r;
        break;  // random
      case 1:
        v[t] = (0x5Au << 24) | (r & 0x00FFFFFF);
        break;  // same top byte
      case 2:
        v[t] = 0x3F;
        break;  // uniform warp
      default:
        v[t] = (t % 32 < 7) ? (r | 0x1F) : (r & ~0x1Fu);  // a few lanes differ
    }
  }
  return v;
}

inline Warp warp_of(const std::vector<uint32_t>& in, int t) {
  Warp w;
  for (int l = 0; l < 32; ++l) w[l] = in[t / 32 * 32 + l];
  return w;
}

inline constexpr const char* kWarpVoteNames[8] = {
    "ballot",           "all",         "any", "uni", "activemask", "activemask in branch",
    "ballot in branch", "popc(ballot)"};

/// warp_vote, thread t.
inline std::array<uint32_t, 8> warp_vote_expected(const std::vector<uint32_t>& in, int t) {
  const Warp w = warp_of(in, t);
  const uint32_t v = in[t];
  const uint32_t odd = ballot(w, [](uint32_t x) { return x & 1; });
  // Inside if (v & 2): the lanes here, and a ballot over them only.
  const bool side = v & 2;
  const uint32_t here = ballot(w, [side](uint32_t x) { return ((x & 2) != 0) == side; });
  const uint32_t in_branch =
      side ? ballot(w, [](uint32_t x) { return (x & 2) && (x & 4); })
           : (ballot(w, [](uint32_t x) { return !(x & 2) && (x & 8); }) | 0x80000000u);
  return {odd,
          odd == 0xFFFFFFFFu ? 1u : 0u,
          odd != 0 ? 1u : 0u,
          odd == 0 || odd == 0xFFFFFFFFu ? 1u : 0u,
          0xFFFFFFFFu,
          here,
          in_branch,
          uint32_t(__builtin_popcount(ballot(w, [](uint32_t x) { return x & 16; })))};
}

inline constexpr const char* kWarpMatchReduceNames[12] = {
    "match.any",     "match.all mask", "match.all predicate", "match.any.b64", "redux.add",
    "redux.min.u32", "redux.max.u32",  "redux.min.s32",       "redux.max.s32", "redux.and",
    "redux.or",      "redux.xor"};

/// warp_match_reduce, thread t.
inline std::array<uint32_t, 12> warp_match_reduce_expected(const std::vector<uint32_t>& in, int t) {
  const Warp w = warp_of(in, t);
  const uint32_t v = in[t];
  const bool all_same =
      ballot(w, [v](uint32_t x) { return (x >> 24) == (v >> 24); }) == 0xFFFFFFFFu;
  uint32_t sum = 0, umin = ~0u, umax = 0, band = ~0u, bor = 0, bxor = 0;
  int32_t smin = INT32_MAX, smax = INT32_MIN;
  for (uint32_t x : w) {
    sum += x;
    umin = std::min(umin, x);
    umax = std::max(umax, x);
    smin = std::min(smin, static_cast<int32_t>(x));
    smax = std::max(smax, static_cast<int32_t>(x));
    band &= x;
    bor |= x;
    bxor ^= x;
  }
  return {ballot(w, [v](uint32_t x) { return (x & 7) == (v & 7); }),
          all_same ? 0xFFFFFFFFu : 0u,
          all_same ? 1u : 0u,
          ballot(w, [v](uint32_t x) { return (x & 3) == (v & 3); }),
          sum,
          umin,
          umax,
          static_cast<uint32_t>(smin),
          static_cast<uint32_t>(smax),
          band,
          bor,
          bxor};
}

inline constexpr const char* kWarpShuffleNames[10] = {
    "shfl.idx",           "shfl.up",          "shfl.down",         "shfl.bfly",
    "shfl.idx width 8",   "shfl.up width 16", "shfl.down width 4", "float shfl",
    "64-bit shfl (high)", "64-bit shfl (low)"};

/// warp_shuffle, thread t. Shuffle sources per the CUDA Programming Guide: idx reads lane
/// (src mod width) of the lane's own width-sized segment; up/down read lane -/+ delta when that
/// stays inside the segment and otherwise keep their own value; xor reads lane ^ mask.
inline std::array<uint32_t, 10> warp_shuffle_expected(const std::vector<uint32_t>& in, int t) {
  const int lane = t % 32, base = t - lane;
  auto at = [&](int l) { return in[base + l]; };
  return {at((lane * 7 + 3) & 31),
          lane >= 3 ? at(lane - 3) : at(lane),
          lane + 5 < 32 ? at(lane + 5) : at(lane),
          at(lane ^ 9),
          at(lane / 8 * 8 + (lane + 2) % 8),
          lane % 16 >= 1 ? at(lane - 1) : at(lane),
          lane % 4 + 2 < 4 ? at(lane + 2) : at(lane),
          f2u(static_cast<float>(at(lane ^ 1) & 0xffff) * 0.5f),
          at(31 - lane),
          at(31 - lane) ^ 0xA5A5A5A5u};
}

/// block_vote: what every thread of block b gets from __syncthreads_count(v & 1),
/// __syncthreads_and(v & 2) and __syncthreads_or(v & 4).
inline std::array<int, 3> block_vote_expected(const std::vector<uint32_t>& in, int block, int b) {
  int count = 0;
  bool all = true, any = false;
  for (int t = b * block; t < (b + 1) * block; ++t) {
    count += in[t] & 1;
    all = all && (in[t] & 2);
    any = any || (in[t] & 4);
  }
  return {count, all ? 1 : 0, any ? 1 : 0};
}

/// block_vote inputs: warp_inputs, with bit 1 set in every thread of block 0 so that
/// __syncthreads_and is true somewhere.
inline std::vector<uint32_t> block_vote_inputs(int n, int block, uint64_t seed) {
  std::vector<uint32_t> in = warp_inputs(n, seed);
  for (int t = 0; t < std::min(n, block); ++t) in[t] |= 2;
  return in;
}

}  // namespace gpusoc::apps::reference
