// sw/kernels/thread_ids.cu: special registers in 1D..3D launches (exact).
#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

class ThreadIdsTest : public ::testing::TestWithParam<std::tuple<Dim3, Dim3, uint32_t>> {};

TEST_P(ThreadIdsTest, SpecialRegisters) {
  const auto& [grid, block, sms] = GetParam();
  ptx::DeviceOptions options;
  options.num_sms = sms;
  FunctionalDevice dev(options);
  Kernel k = dev.load_module_file(kernel_path("thread_ids.ptx")).kernel("thread_ids");
  const uint64_t per_block = block.count(), total = grid.count() * per_block;
  DevicePtr out = dev.malloc(total * 16 * 4);
  dev.launch(k, grid, block, out);
  auto got = dev.download<uint32_t>(out, total * 16);
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx) {
        const uint64_t b = bx + grid.x * (by + uint64_t(grid.y) * bz);
        const uint32_t sm = got[(b * per_block) * 16 + 13];
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx) {
              const uint32_t t = tx + block.x * (ty + block.y * tz);
              const uint32_t* o = &got[(b * per_block + t) * 16];
              const uint32_t warp_threads = std::min<uint32_t>(32, per_block - t / 32 * 32);
              const uint32_t want[13] = {tx, ty, tz,     block.x, block.y, block.z, bx,
                                         by, bz, grid.x, grid.y,  grid.z,  t % 32};
              for (int j = 0; j < 13; ++j)
                ASSERT_EQ(o[j], want[j])
                    << "register " << j << " of block " << b << " thread " << t;
              EXPECT_EQ(o[13], sm) << "%smid differs inside block " << b;
              EXPECT_LT(o[13], sms) << "%smid of block " << b;
              EXPECT_EQ(o[14], sms) << "%nsmid";
              EXPECT_EQ(o[15], warp_threads) << "lanes in the warp of thread " << t;
            }
      }
}

INSTANTIATE_TEST_SUITE_P(Launches, ThreadIdsTest,
                         ::testing::Values(std::make_tuple(Dim3(1), Dim3(1), 2u),
                                           std::make_tuple(Dim3(2, 3, 2), Dim3(4, 3, 5), 2u),
                                           std::make_tuple(Dim3(3), Dim3(32, 2), 4u),
                                           std::make_tuple(Dim3(1, 1, 3), Dim3(33), 1u)));

}  // namespace
}  // namespace gpusoc::kernel_test
