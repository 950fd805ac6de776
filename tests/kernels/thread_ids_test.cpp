// sw/kernels/thread_ids.cu: special registers in 1D..3D launches (exact; the check is
// sw/apps/reference/thread_ids.h).
#include "sw/apps/reference/thread_ids.h"
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class ThreadIdsTest : public ::testing::TestWithParam<std::tuple<Dim3, Dim3, uint32_t>> {};

TEST_P(ThreadIdsTest, SpecialRegisters) {
  const auto& [grid, block, sms] = GetParam();
  ptx::DeviceOptions options = suite_options();
  options.num_sms = sms;
  FunctionalDevice dev(options);
  Kernel k = dev.load_module_file(kernel_path("thread_ids.ptx")).kernel("thread_ids");
  const uint64_t per_block = block.count(), total = grid.count() * per_block;
  DevicePtr out = dev.malloc(total * 16 * 4);
  dev.launch(k, grid, block, out);
  auto got = dev.download<uint32_t>(out, total * 16);
  const ThreadIdCheck c = check_thread_ids(got, grid, block, sms);
  EXPECT_EQ(c.wrong_words, 0u) << "first: " << c.first;
}

INSTANTIATE_TEST_SUITE_P(Launches, ThreadIdsTest,
                         ::testing::Values(std::make_tuple(Dim3(1), Dim3(1), 2u),
                                           std::make_tuple(Dim3(2, 3, 2), Dim3(4, 3, 5), 2u),
                                           std::make_tuple(Dim3(3), Dim3(32, 2), 4u),
                                           std::make_tuple(Dim3(1, 1, 3), Dim3(33), 1u)));

}  // namespace
}  // namespace gpusoc::kernel_test
