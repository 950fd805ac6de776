// sw/kernels/reduction.cu: per-block partial sums (shared-memory tree, warp shuffles, or two
// loads a step and an unrolled tree), then reduce_final folds the partials in one block.
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

struct ReduceCase {
  std::string kernel;
  int n;
  int block;
};

class ReductionTest : public KernelTestWithParam<ReduceCase> {
 protected:
  static constexpr int kMaxBlocks = 128;

  // Runs both passes; returns the sum and the number of blocks of the first pass.
  float reduce(const std::vector<float>& data, int* blocks_out = nullptr) {
    const ReduceCase& c = GetParam();
    Module m = load("reduction.ptx");
    Kernel first = m.kernel(c.kernel), final_pass = m.kernel("reduce_final");
    int blocks = std::min<int>(kMaxBlocks, std::max<uint32_t>(1, ceil_div(c.n, c.block)));
    DevicePtr in = dev.upload(data), partial = dev.malloc(blocks * sizeof(float));
    DevicePtr out = dev.malloc(sizeof(float));
    uint32_t shared = c.kernel == "reduce_shared" ? c.block * sizeof(float) : 0;
    dev.launch(first, LaunchConfig{Dim3(blocks), Dim3(c.block), shared},
               KernelArgs(in, partial, c.n));
    dev.launch(final_pass, Dim3(1), Dim3(256), partial, out, blocks);
    if (blocks_out) *blocks_out = blocks;
    return dev.download<float>(out, 1)[0];
  }
};

// Small integers: every partial sum is an integer below 2^24, exact in float in any order.
TEST_P(ReductionTest, IntegerValuedSumIsExact) {
  const ReduceCase& c = GetParam();
  auto ints = random_ints(c.n, -8, 8, 41);
  std::vector<float> data(ints.begin(), ints.end());
  long long expected = 0;
  for (int v : ints) expected += v;
  EXPECT_EQ(reduce(data), static_cast<float>(expected));
}

// Random floats. The dependent chain through the two passes: each thread's sequential
// grid-stride loop (ceil(n / (blocks*block)) adds), log2(block) tree levels, then in
// reduce_final ceil(blocks/256) sequential adds and log2(256) levels.
TEST_P(ReductionTest, FloatSumWithinSummationBound) {
  const ReduceCase& c = GetParam();
  auto data = random_floats(c.n, -1.f, 1.f, 42);
  int blocks = 0;
  float got = reduce(data, &blocks);
  double exact = 0, abs_sum = 0;
  for (float v : data) {
    exact += v;
    abs_sum += std::fabs(v);
  }
  double depth =
      ceil_div(c.n, uint64_t(blocks) * c.block) + std::log2(c.block) + ceil_div(blocks, 256) + 8;
  EXPECT_TRUE(near_with_tolerance(got, exact, float_sum_tolerance(abs_sum, depth)));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ReductionTest,
    ::testing::Values(
        ReduceCase{"reduce_shared", 1, 256}, ReduceCase{"reduce_shared", 31, 32},
        ReduceCase{"reduce_shared", 33, 64}, ReduceCase{"reduce_shared", 1000, 128},
        ReduceCase{"reduce_shared", 65543, 256}, ReduceCase{"reduce_shared", 100000, 1024},
        ReduceCase{"reduce_shared", 1 << 20, 256}, ReduceCase{"reduce_shuffle", 1, 32},
        ReduceCase{"reduce_shuffle", 31, 64}, ReduceCase{"reduce_shuffle", 33, 32},
        ReduceCase{"reduce_shuffle", 1000, 96}, ReduceCase{"reduce_shuffle", 65543, 256},
        ReduceCase{"reduce_shuffle", 100000, 1024}, ReduceCase{"reduce_shuffle", 1 << 20, 512},
        // 128 threads only; n around a block and a step (two blocks) of elements.
        ReduceCase{"reduce_unrolled", 1, 128}, ReduceCase{"reduce_unrolled", 129, 128},
        ReduceCase{"reduce_unrolled", 255, 128}, ReduceCase{"reduce_unrolled", 257, 128},
        ReduceCase{"reduce_unrolled", 65543, 128}, ReduceCase{"reduce_unrolled", 1 << 20, 128}),
    [](const ::testing::TestParamInfo<ReduceCase>& info) {
      return info.param.kernel + "_n" + std::to_string(info.param.n) + "_b" +
             std::to_string(info.param.block);
    });

}  // namespace
}  // namespace gpusoc::kernel_test
