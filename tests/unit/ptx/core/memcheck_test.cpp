// memcheck: the allocation map's verdicts and reports, and the functional device running kernels
// with memory bugs under it. The expected texts are worked out by hand from the regions' sizes.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/ptx/device.h"
#include "models/ptx/memcheck.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kA = 0x1000, kB = 0x2000;  // two 256-byte allocations, a gap between

class AllocationMapTest : public ::testing::Test {
 protected:
  AllocationMapTest() {
    EXPECT_EQ(map.add(kA, 256, RegionKind::Allocation), "");
    EXPECT_EQ(map.add(kB, 256, RegionKind::Allocation), "");
  }
  bool allows(uint64_t address, unsigned bytes, bool write) {
    RegionCache fresh;
    return map.allows(address, bytes, write, fresh);
  }
  AllocationMap map;
};

TEST_F(AllocationMapTest, AllowsExactlyTheBytesOfLiveRegions) {
  EXPECT_TRUE(allows(kA, 4, true));
  EXPECT_TRUE(allows(kA + 252, 4, true));
  EXPECT_FALSE(allows(kA + 253, 4, false));  // runs one byte past the end
  EXPECT_FALSE(allows(kA + 256, 1, false));
  EXPECT_FALSE(allows(kA - 1, 1, false));
  EXPECT_TRUE(allows(kB + 255, 1, false));
  EXPECT_FALSE(allows(0, 1, false));
  EXPECT_FALSE(allows(UINT64_MAX, 1, false));
}

TEST_F(AllocationMapTest, ReportsTheNearestAllocationAndTheOffset) {
  EXPECT_EQ(map.problem(kA + 256, 4, true),
            "out-of-bounds write of 4 bytes at 0x1100, 0 bytes after the end of the 256-byte "
            "allocation [0x1000, 0x1100)");
  // 0x1e00 is 0xd00 past A's end and 0x200 short of B: B is nearer.
  EXPECT_EQ(map.problem(0x1e00, 8, false),
            "out-of-bounds read of 8 bytes at 0x1e00, 512 bytes before the start of the "
            "256-byte allocation [0x2000, 0x2100)");
  EXPECT_EQ(map.problem(kB + 252, 8, false),
            "out-of-bounds read of 8 bytes at 0x20fc: it runs 4 bytes past the end of the "
            "256-byte allocation [0x2000, 0x2100)");
  EXPECT_EQ(map.problem(kA + 16, 4, true), "");
  AllocationMap empty;
  EXPECT_EQ(empty.problem(kA, 4, false),
            "out-of-bounds read of 4 bytes at 0x1000, and there are no live allocations");
}

TEST_F(AllocationMapTest, FreedRegionsStayPoisonedUntilReused) {
  ASSERT_TRUE(map.release(kA, RegionKind::Allocation));
  EXPECT_FALSE(map.release(kA, RegionKind::Allocation));  // twice
  EXPECT_FALSE(allows(kA + 8, 4, false));
  EXPECT_EQ(map.problem(kA + 8, 4, false),
            "use after free: read of 4 bytes at 0x1008, 8 bytes into the 256-byte allocation "
            "[0x1000, 0x1100), freed");
  EXPECT_EQ(map.live_regions(), 1u);
  EXPECT_EQ(map.freed_regions(), 1u);
  // A new allocation over part of it forgets the freed region.
  EXPECT_EQ(map.add(kA + 128, 64, RegionKind::Allocation), "");
  EXPECT_EQ(map.freed_regions(), 0u);
  EXPECT_TRUE(allows(kA + 128, 4, true));
  EXPECT_FALSE(allows(kA, 4, false));
}

TEST_F(AllocationMapTest, RefusesOverlapsWithLiveRegionsAndEmptyOrWrappingOnes) {
  EXPECT_THAT(map.add(kA + 255, 2, RegionKind::Allocation),
              HasSubstr("overlaps the 256-byte allocation [0x1000, 0x1100)"));
  EXPECT_THAT(map.add(kA - 1, 2, RegionKind::Allocation), HasSubstr("overlaps"));
  EXPECT_THAT(map.add(0x3000, 0, RegionKind::Allocation), HasSubstr("0 bytes"));
  EXPECT_THAT(map.add(UINT64_MAX - 4, 16, RegionKind::Allocation), HasSubstr("wraps around"));
  EXPECT_EQ(map.live_regions(), 2u);
}

TEST_F(AllocationMapTest, ConstantsAreReadOnly) {
  ASSERT_EQ(map.add(0x5000, 16, RegionKind::Constant, "'lut' of module 'm.ptx'"), "");
  EXPECT_TRUE(allows(0x5004, 4, false));
  EXPECT_FALSE(allows(0x5004, 4, true));
  EXPECT_EQ(map.problem(0x5004, 4, true),
            "write to constant memory: 4 bytes at 0x5004, 4 bytes into the 16-byte .const "
            "variable 'lut' of module 'm.ptx' [0x5000, 0x5010)");
  EXPECT_FALSE(map.release(0x5000, RegionKind::Allocation));  // not the driver's to free
  map.clear_allocations();
  EXPECT_EQ(map.live_regions(), 1u);  // the variable stays
}

TEST_F(AllocationMapTest, TheCacheAnswersUntilTheMapChanges) {
  RegionCache cache;
  ASSERT_TRUE(map.allows(kA, 4, true, cache));
  ASSERT_TRUE(map.allows(kB, 4, true, cache));
  EXPECT_EQ(cache.entries[0].begin, kA);
  EXPECT_EQ(cache.entries[0].end, kA + 256);
  EXPECT_EQ(cache.entries[1].begin, kB);
  EXPECT_FALSE(map.allows(kA + 256, 4, true, cache));  // between them: no entry covers it
  ASSERT_TRUE(map.release(kA, RegionKind::Allocation));
  EXPECT_FALSE(map.allows(kA, 4, true, cache));  // a stale cache must not let it through
  EXPECT_TRUE(map.allows(kB, 4, true, cache));
  EXPECT_EQ(cache.entries[0].begin, kB);  // refilled from empty
}

// Kernels under the functional device's memcheck. The store's line: module() adds four header
// lines, then ".entry", "{", and the body's lines.
class FunctionalMemcheckTest : public ::testing::Test {
 protected:
  FunctionalMemcheckTest() : dev(options()) {}
  static DeviceOptions options() {
    DeviceOptions o;
    o.memcheck = true;
    return o;
  }
  // out[tid] = 7 with `threads` threads.
  std::string fill(DevicePtr out, uint32_t threads) {
    Module m = dev.load_module(test::module(R"(
.visible .entry fill(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd1, %rd3;
  mov.u32 %r2, 7;
  st.global.u32 [%rd2], %r2;
  ret;
}
)"),
                               "fill.ptx");
    try {
      dev.launch(m.kernel("fill"), Dim3(1), Dim3(threads), out);
    } catch (const ExecutionError& e) {
      return e.what();
    }
    return "";
  }
  FunctionalDevice dev;
};

TEST_F(FunctionalMemcheckTest, AStorePastTheEndIsReportedWithThreadLineAndAllocation) {
  const DevicePtr a = dev.malloc(64 * 4);
  EXPECT_EQ(fill(a, 64), "");
  const std::string e = fill(a, 65);
  EXPECT_EQ(e, fmt::format("kernel 'fill' block (0,0,0) thread (64,0,0): memcheck: out-of-bounds "
                           "write of 4 bytes at {:#x}, 0 bytes after the end of the 256-byte "
                           "allocation [{:#x}, {:#x}) at fill.ptx:15",
                           a + 256, a, a + 256));
}

TEST_F(FunctionalMemcheckTest, UseAfterFree) {
  const DevicePtr a = dev.malloc(256);
  dev.free(a);
  EXPECT_THAT(fill(a, 1), HasSubstr(fmt::format(
                              "thread (0,0,0): memcheck: use after free: write of 4 bytes at "
                              "{:#x}, 0 bytes into the 256-byte allocation [{:#x}, {:#x}), freed",
                              a, a, a + 256)));
}

TEST_F(FunctionalMemcheckTest, WithoutMemcheckTheSameLaunchRuns) {
  DeviceOptions o;
  FunctionalDevice unchecked(o);
  Module m = unchecked.load_module(test::module(R"(
.visible .entry one_past(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1+256], %r1;
  ret;
}
)"));
  const DevicePtr a = unchecked.malloc(256);
  EXPECT_NO_THROW(unchecked.launch(m.kernel("one_past"), Dim3(1), Dim3(1), a));
}

}  // namespace
}  // namespace gpusoc::ptx
