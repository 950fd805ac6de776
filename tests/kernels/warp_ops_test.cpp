// sw/kernels/warp_ops.cu: vote, activemask, match, redux, shuffles, and the reducing barriers.
// All results are integers or moved bits: exact (host reference: sw/apps/reference/warp_ops.h).
#include "sw/apps/reference/warp_ops.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

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
    const auto want = warp_vote_expected(in, t);
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(out[t * 8 + j], want[j]) << kWarpVoteNames[j] << ", thread " << t;
  }
}

TEST_P(WarpOpsTest, MatchAndRedux) {
  auto in = warp_inputs(threads(), 152);
  auto out = run("warp_match_reduce", 12, in);
  for (int t = 0; t < threads(); ++t) {
    const auto want = warp_match_reduce_expected(in, t);
    for (int j = 0; j < 12; ++j)
      EXPECT_EQ(out[t * 12 + j], want[j]) << kWarpMatchReduceNames[j] << ", thread " << t;
  }
}

// Shuffle sources: see warp_shuffle_expected (sw/apps/reference/warp_ops.h).
TEST_P(WarpOpsTest, Shuffles) {
  auto in = warp_inputs(threads(), 153);
  auto out = run("warp_shuffle", 10, in);
  for (int t = 0; t < threads(); ++t) {
    const auto want = warp_shuffle_expected(in, t);
    for (int j = 0; j < 10; ++j)
      EXPECT_EQ(out[t * 10 + j], want[j]) << kWarpShuffleNames[j] << ", thread " << t;
  }
}

// bar.red.popc / .and / .or: every thread of a block gets the block-wide result.
TEST_P(WarpOpsTest, ReducingBarriers) {
  const auto [grid, block] = GetParam();
  auto in = block_vote_inputs(threads(), block, 154);
  Kernel k = load("warp_ops.ptx").kernel("block_vote");
  DevicePtr din = dev.upload(in), dout = dev.malloc(in.size() * 3 * 4);
  dev.launch(k, Dim3(grid), Dim3(block), din, dout);
  auto out = dev.download<int>(dout, in.size() * 3);
  const char* names[3] = {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or"};
  for (int b = 0; b < grid; ++b) {
    const auto want = block_vote_expected(in, block, b);
    for (int t = b * block; t < (b + 1) * block; ++t)
      for (int j = 0; j < 3; ++j)
        ASSERT_EQ(out[t * 3 + j], want[j]) << names[j] << ", thread " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Launches, WarpOpsTest,
                         ::testing::Values(std::make_tuple(1, 32), std::make_tuple(2, 128),
                                           std::make_tuple(3, 64), std::make_tuple(1, 1024)));

}  // namespace
}  // namespace gpusoc::kernel_test
