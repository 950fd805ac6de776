// racecheck: the hazards SharedRaceCheck finds between accesses of different warps, and the
// functional device running tests/errors/races.ptx under it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "models/ptx/device.h"
#include "models/ptx/racecheck.h"

namespace gpusoc::ptx {
namespace {

using ::testing::HasSubstr;

const Dim3 kBlock(64);  // threads 0-31 are warp 0, 32-63 warp 1

TEST(SharedRaceCheckTest, AccessesOfDifferentWarpsWithoutABarrierAreHazards) {
  SharedRaceCheck check(256);
  EXPECT_EQ(check.access(0x40, 4, true, 0, 10, kBlock), "");
  EXPECT_EQ(check.access(0x40, 4, false, 5, 11, kBlock), "");  // same warp: lockstep
  EXPECT_EQ(check.access(0x40, 4, false, 40, 12, kBlock),
            "racecheck: read-after-write hazard on shared memory at offset 0x40: thread (40,0,0) "
            "reads it, and thread (0,0,0) wrote it at line 10, with no barrier between");
  EXPECT_EQ(check.access(0x80, 4, false, 33, 20, kBlock), "");
  EXPECT_EQ(check.access(0x80, 4, false, 2, 21, kBlock), "");  // reads never race with reads
  EXPECT_EQ(check.access(0x80, 4, true, 34, 22, kBlock),
            "racecheck: write-after-read hazard on shared memory at offset 0x80: thread (34,0,0) "
            "writes it, and thread (2,0,0) read it at line 21, with no barrier between");
  EXPECT_THAT(check.access(0x42, 2, true, 63, 30, kBlock),
              HasSubstr("write-after-write hazard on shared memory at offset 0x40: thread "
                        "(63,0,0) writes it, and thread (0,0,0) wrote it at line 10"));
}

TEST(SharedRaceCheckTest, ABarrierOrdersWhatCameBefore) {
  SharedRaceCheck check(256);
  EXPECT_EQ(check.access(0, 8, true, 0, 1, kBlock), "");
  check.new_epoch();
  EXPECT_EQ(check.access(4, 4, false, 32, 2, kBlock), "");
  EXPECT_EQ(check.access(0, 4, true, 63, 3, kBlock), "");
  EXPECT_THAT(check.access(0, 4, false, 1, 4, kBlock), HasSubstr("read-after-write"));
  // Three-dimensional blocks name threads by their coordinates.
  SharedRaceCheck cube(64);
  const Dim3 block(4, 4, 4);
  EXPECT_EQ(cube.access(0, 4, true, 0, 1, block), "");
  EXPECT_THAT(cube.access(0, 4, true, 37, 2, block),
              HasSubstr("thread (1,1,2) writes it, and thread (0,0,0) wrote it"));
}

class RacecheckKernelTest : public ::testing::Test {
 protected:
  std::string run(const char* kernel, bool racecheck, std::vector<uint32_t>* out = nullptr) {
    DeviceOptions o;
    o.racecheck = racecheck;
    FunctionalDevice dev(o);
    Module m = dev.load_module_file(std::string(GPUSOC_SOURCE_DIR) + "/tests/errors/races.ptx");
    const DevicePtr p = dev.malloc(64 * 4);
    try {
      dev.launch(m.kernel(kernel), Dim3(1), kBlock, p);
    } catch (const ExecutionError& e) {
      return e.what();
    }
    if (out) *out = dev.download<uint32_t>(p, 64);
    return "";
  }
};

TEST_F(RacecheckKernelTest, AMissingBarrierIsReportedWithBothThreadsAndLines) {
  // Warp 0 runs first and reads s[63 - tid] before warp 1 has written it; warp 1's first store
  // (thread 32, to s[32]) then overwrites what thread 31 read.
  EXPECT_THAT(run("missing_barrier", true),
              HasSubstr("kernel 'missing_barrier' block (0,0,0) thread (32,0,0): racecheck: "
                        "write-after-read hazard on shared memory at offset 0x80: thread "
                        "(32,0,0) writes it, and thread (31,0,0) read it at line 24, with no "
                        "barrier between at "));
  EXPECT_THAT(run("missing_barrier", true), HasSubstr("races.ptx:18"));
  EXPECT_EQ(run("missing_barrier", false), "");  // runs, with whatever the schedule gave
}

TEST_F(RacecheckKernelTest, WithTheBarrierItRunsCleanAndRight) {
  std::vector<uint32_t> out;
  ASSERT_EQ(run("with_barrier", true, &out), "");
  std::vector<uint32_t> expected(64);
  std::iota(expected.rbegin(), expected.rend(), 0u);  // out[tid] = 63 - tid
  EXPECT_EQ(out, expected);
}

}  // namespace
}  // namespace gpusoc::ptx
