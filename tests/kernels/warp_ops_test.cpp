// sw/kernels/warp_ops.cu: vote, activemask, match, redux, shuffles, and the reducing barriers.
// All results are integers or moved bits: exact.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

// Per-warp host reference helpers. `w` holds the 32 input words of one (full) warp.
using Warp = std::array<uint32_t, 32>;

template <typename Pred>
uint32_t ballot(const Warp& w, Pred p) {
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l)
    if (p(w[l])) m |= 1u << l;
  return m;
}

std::vector<uint32_t> warp_inputs(int n, uint64_t seed) {
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

class WarpOpsTest : public KernelTestWithParam<std::tuple<int, int>> {
 protected:
  std::vector<uint32_t> run(const char* name, int words, const std::vector<uint32_t>& in) {
    const auto [grid, block] = GetParam();
    Kernel k = load("warp_ops.ptx").kernel(name);
    DevicePtr din = dev.upload(in), dout = dev.malloc(in.size() * words * 4);
    dev.launch(k, Dim3(grid), Dim3(block), din, dout);
    return dev.download<uint32_t>(dout, in.size() * words);
  }
  int threads() const { return std::get<0>(GetParam()) * std::get<1>(GetParam()); }
};

TEST_P(WarpOpsTest, Vote) {
  auto in = warp_inputs(threads(), 151);
  auto out = run("warp_vote", 8, in);
  for (int t = 0; t < threads(); ++t) {
    Warp w;
    for (int l = 0; l < 32; ++l) w[l] = in[t / 32 * 32 + l];
    const uint32_t v = in[t];
    const uint32_t* o = &out[t * 8];
    uint32_t odd = ballot(w, [](uint32_t x) { return x & 1; });
    EXPECT_EQ(o[0], odd) << "ballot, thread " << t;
    EXPECT_EQ(o[1], odd == 0xFFFFFFFFu ? 1u : 0u) << "all, thread " << t;
    EXPECT_EQ(o[2], odd != 0 ? 1u : 0u) << "any, thread " << t;
    EXPECT_EQ(o[3], odd == 0 || odd == 0xFFFFFFFFu ? 1u : 0u) << "uni, thread " << t;
    EXPECT_EQ(o[4], 0xFFFFFFFFu) << "activemask, thread " << t;
    // Inside if (v & 2): the lanes here, and a ballot over them only.
    bool side = v & 2;
    uint32_t here = ballot(w, [side](uint32_t x) { return ((x & 2) != 0) == side; });
    EXPECT_EQ(o[5], here) << "activemask in branch, thread " << t;
    uint32_t want6 =
        side ? ballot(w, [](uint32_t x) { return (x & 2) && (x & 4); })
             : (ballot(w, [](uint32_t x) { return !(x & 2) && (x & 8); }) | 0x80000000u);
    EXPECT_EQ(o[6], want6) << "ballot in branch, thread " << t;
    EXPECT_EQ(o[7], uint32_t(__builtin_popcount(ballot(w, [](uint32_t x) { return x & 16; }))));
  }
}

TEST_P(WarpOpsTest, MatchAndRedux) {
  auto in = warp_inputs(threads(), 152);
  auto out = run("warp_match_reduce", 12, in);
  for (int t = 0; t < threads(); ++t) {
    Warp w;
    for (int l = 0; l < 32; ++l) w[l] = in[t / 32 * 32 + l];
    const uint32_t v = in[t];
    const uint32_t* o = &out[t * 12];
    EXPECT_EQ(o[0], ballot(w, [v](uint32_t x) { return (x & 7) == (v & 7); })) << "match.any " << t;
    bool all_same = ballot(w, [v](uint32_t x) { return (x >> 24) == (v >> 24); }) == 0xFFFFFFFFu;
    EXPECT_EQ(o[1], all_same ? 0xFFFFFFFFu : 0u) << "match.all mask, thread " << t;
    EXPECT_EQ(o[2], all_same ? 1u : 0u) << "match.all predicate, thread " << t;
    EXPECT_EQ(o[3], ballot(w, [v](uint32_t x) { return (x & 3) == (v & 3); }))
        << "match.any.b64 " << t;
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
    EXPECT_EQ(o[4], sum) << "redux.add, thread " << t;
    EXPECT_EQ(o[5], umin) << "redux.min.u32, thread " << t;
    EXPECT_EQ(o[6], umax) << "redux.max.u32, thread " << t;
    EXPECT_EQ(o[7], static_cast<uint32_t>(smin)) << "redux.min.s32, thread " << t;
    EXPECT_EQ(o[8], static_cast<uint32_t>(smax)) << "redux.max.s32, thread " << t;
    EXPECT_EQ(o[9], band) << "redux.and, thread " << t;
    EXPECT_EQ(o[10], bor) << "redux.or, thread " << t;
    EXPECT_EQ(o[11], bxor) << "redux.xor, thread " << t;
  }
}

// Shuffle sources per the CUDA Programming Guide: idx reads lane (src mod width) of the lane's
// own width-sized segment; up/down read lane -/+ delta when that stays inside the segment and
// otherwise keep their own value; xor reads lane ^ mask.
TEST_P(WarpOpsTest, Shuffles) {
  auto in = warp_inputs(threads(), 153);
  auto out = run("warp_shuffle", 10, in);
  for (int t = 0; t < threads(); ++t) {
    const int lane = t % 32, base = t - lane;
    auto at = [&](int l) { return in[base + l]; };
    const uint32_t* o = &out[t * 10];
    EXPECT_EQ(o[0], at((lane * 7 + 3) & 31)) << "shfl.idx, thread " << t;
    EXPECT_EQ(o[1], lane >= 3 ? at(lane - 3) : at(lane)) << "shfl.up, thread " << t;
    EXPECT_EQ(o[2], lane + 5 < 32 ? at(lane + 5) : at(lane)) << "shfl.down, thread " << t;
    EXPECT_EQ(o[3], at(lane ^ 9)) << "shfl.bfly, thread " << t;
    EXPECT_EQ(o[4], at(lane / 8 * 8 + (lane + 2) % 8)) << "shfl.idx width 8, thread " << t;
    EXPECT_EQ(o[5], lane % 16 >= 1 ? at(lane - 1) : at(lane)) << "shfl.up width 16, thread " << t;
    EXPECT_EQ(o[6], lane % 4 + 2 < 4 ? at(lane + 2) : at(lane))
        << "shfl.down width 4, thread " << t;
    EXPECT_EQ(o[7], f2u(static_cast<float>(at(lane ^ 1) & 0xffff) * 0.5f)) << "float shfl " << t;
    EXPECT_EQ(o[8], at(31 - lane)) << "64-bit shfl (high), thread " << t;
    EXPECT_EQ(o[9], at(31 - lane) ^ 0xA5A5A5A5u) << "64-bit shfl (low), thread " << t;
  }
}

// bar.red.popc / .and / .or: every thread of a block gets the block-wide result.
TEST_P(WarpOpsTest, ReducingBarriers) {
  const auto [grid, block] = GetParam();
  auto in = warp_inputs(threads(), 154);
  // One block where every thread has bit 1 set, so __syncthreads_and is true somewhere.
  for (int t = 0; t < block; ++t) in[t] |= 2;
  Kernel k = load("warp_ops.ptx").kernel("block_vote");
  DevicePtr din = dev.upload(in), dout = dev.malloc(in.size() * 3 * 4);
  dev.launch(k, Dim3(grid), Dim3(block), din, dout);
  auto out = dev.download<int>(dout, in.size() * 3);
  for (int b = 0; b < grid; ++b) {
    int count = 0;
    bool all = true, any = false;
    for (int t = b * block; t < (b + 1) * block; ++t) {
      count += in[t] & 1;
      all = all && (in[t] & 2);
      any = any || (in[t] & 4);
    }
    for (int t = b * block; t < (b + 1) * block; ++t) {
      ASSERT_EQ(out[t * 3 + 0], count) << "__syncthreads_count, thread " << t;
      ASSERT_EQ(out[t * 3 + 1], all ? 1 : 0) << "__syncthreads_and, thread " << t;
      ASSERT_EQ(out[t * 3 + 2], any ? 1 : 0) << "__syncthreads_or, thread " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Launches, WarpOpsTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(2, 128),
                                           std::make_tuple(3, 64), std::make_tuple(1, 1024)));

}  // namespace
}  // namespace gpusoc::kernel_test
