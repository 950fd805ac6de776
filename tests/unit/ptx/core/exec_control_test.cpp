// Control flow of the functional core: SIMT divergence order and reconvergence, calls and
// recursion, barriers (counts, exited threads, reductions, deadlock).
#include <gtest/gtest.h>

#include <string>

#include "models/ptx/device.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

// Even lanes take the fall-through path, odd lanes the branch; each path and then the join
// takes a ticket from a global counter with atomics, so the tickets show the order in which the
// paths ran and whether the warp reconverged before the join.
const std::string kOrder = module(R"(
.visible .entry order(.param .u64 out, .param .u64 counter)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd0, [out];
  ld.param.u64 %rd1, [counter];
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p0, %r1, 1;
  @%p0 bra $ODD;
  atom.global.add.u32 %r2, [%rd1], 1;
  bra.uni $JOIN;
$ODD:
  atom.global.add.u32 %r2, [%rd1], 1;
$JOIN:
  atom.global.add.u32 %r3, [%rd1], 1;
  mul.wide.u32 %rd2, %r0, 8;
  add.s64 %rd3, %rd0, %rd2;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+4], %r3;
  ret;
}
)");

TEST(Simt, FallThroughRunsFirstAndPathsReconvergeAtThePostDominator) {
  FunctionalDevice dev;
  Module m = dev.load_module(kOrder);
  DevicePtr out = dev.malloc(32 * 8), counter = dev.malloc(4);
  dev.memset(counter, 0, 4);
  dev.launch(m.kernel("order"), Dim3(1), Dim3(32), out, counter);
  auto t = dev.download<uint32_t>(out, 64);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t path = lane % 2 == 0 ? lane / 2 : 16 + lane / 2;
    EXPECT_EQ(t[2 * lane], path) << "lane " << lane;
    EXPECT_EQ(t[2 * lane + 1], 32 + lane) << "lane " << lane;  // one reconverged warp, lane order
  }
}

const std::string kCalls = module(R"(
.visible .func (.param .b32 result) deep(.param .b32 n)
{
  .local .align 4 .b8 depot[200];
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u32 %r0, [n];
  mov.u64 %rd0, depot;
  st.local.u32 [%rd0], %r0;
  setp.eq.u32 %p0, %r0, 0;
  @%p0 bra $BASE;
  sub.s32 %r1, %r0, 1;
  {
  .param .b32 a;
  st.param.b32 [a], %r1;
  .param .b32 r;
  call.uni (r), deep, (a);
  ld.param.b32 %r2, [r];
  }
  ld.local.u32 %r3, [%rd0];
  add.s32 %r2, %r2, %r3;
  st.param.b32 [result], %r2;
  ret;
$BASE:
  st.param.b32 [result], 0;
  ret;
}

.visible .entry sums(.param .u64 out, .param .u32 modulus)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  ld.param.u32 %r1, [modulus];
  mov.u32 %r0, %tid.x;
  rem.u32 %r2, %r0, %r1;
  {
  .param .b32 a;
  st.param.b32 [a], %r2;
  .param .b32 r;
  call.uni (r), deep, (a);
  ld.param.b32 %r3, [r];
  }
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r3;
  ret;
}
)");

TEST(Calls, DivergentRecursionKeepsEachFramesLocals) {
  FunctionalDevice dev;
  Module m = dev.load_module(kCalls);
  DevicePtr out = dev.malloc(48 * 4);
  dev.launch(m.kernel("sums"), Dim3(1), Dim3(48), out, uint32_t(4));
  auto r = dev.download<uint32_t>(out, 48);
  for (uint32_t t = 0; t < 48; ++t) {
    const uint32_t n = t % 4;
    EXPECT_EQ(r[t], n * (n + 1) / 2) << "thread " << t;
  }
}

TEST(Calls, DeepRecursionOverflowsTheStackWithAClearError) {
  // 1024-byte stack; each call of deep charges its 200-byte depot plus 16 bytes of call
  // overhead: deep(3) nests four calls (864 bytes, run above), deep(4) five (1080 bytes).
  FunctionalDevice dev;
  Module m = dev.load_module(kCalls, "calls.ptx");
  DevicePtr out = dev.malloc(32 * 4);
  try {
    dev.launch(m.kernel("sums"), Dim3(1), Dim3(32), out, uint32_t(5));
    FAIL() << "expected a stack overflow";
  } catch (const ExecutionError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("stack overflow calling 'deep'"), std::string::npos) << what;
    EXPECT_NE(what.find("kernel 'sums' block (0,0,0) thread (4,0,0)"), std::string::npos) << what;
    EXPECT_NE(what.find("calls.ptx:"), std::string::npos) << what;
  }
}

// Threads at or past n exit before the barrier; the rest still pass it, because exited
// threads no longer count towards it. Then each thread reads its mirror's value.
const std::string kBarriers = module(R"(
.visible .entry mirror(.param .u64 out, .param .u32 n)
{
  .shared .align 4 .b8 tile[1024];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r0, %tid.x;
  setp.ge.u32 %p0, %r0, %r1;
  @%p0 bra $DONE;
  shl.b32 %r2, %r0, 2;
  mov.u32 %r3, tile;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r0;
  bar.sync 0;
  sub.s32 %r5, %r1, 1;
  sub.s32 %r5, %r5, %r0;
  shl.b32 %r5, %r5, 2;
  add.s32 %r5, %r3, %r5;
  ld.shared.u32 %r6, [%r5];
  mul.wide.u32 %rd1, %r0, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r6;
$DONE:
  ret;
}

.visible .entry count_below(.param .u64 out, .param .u32 k)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  ld.param.u32 %r1, [k];
  mov.u32 %r0, %tid.x;
  setp.lt.u32 %p0, %r0, %r1;
  bar.red.popc.u32 %r2, 0, %p0;
  bar.red.and.pred %p1, 0, %p0;
  bar.red.or.pred %p2, 0, %p0;
  selp.u32 %r3, 1, 0, %p1;
  selp.u32 %r4, 1, 0, %p2;
  mul.wide.u32 %rd1, %r0, 12;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r2;
  st.global.u32 [%rd2+4], %r3;
  st.global.u32 [%rd2+8], %r4;
  ret;
}

.visible .entry split_barriers()
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  mov.u32 %r0, %tid.x;
  setp.lt.u32 %p0, %r0, 32;
  @%p0 bar.sync 0;
  @!%p0 bar.sync 1;
  ret;
}
)");

TEST(Barriers, ExitedThreadsNoLongerCount) {
  FunctionalDevice dev;
  Module m = dev.load_module(kBarriers);
  DevicePtr out = dev.malloc(96 * 4);
  dev.memset(out, 0xff, 96 * 4);
  dev.launch(m.kernel("mirror"), Dim3(1), Dim3(96), out, uint32_t(70));
  auto r = dev.download<uint32_t>(out, 96);
  for (uint32_t t = 0; t < 96; ++t) EXPECT_EQ(r[t], t < 70 ? 69 - t : 0xffffffffu) << t;
}

TEST(Barriers, ReductionsCountAndCombinePredicates) {
  FunctionalDevice dev;
  Module m = dev.load_module(kBarriers);
  DevicePtr out = dev.malloc(80 * 12);
  for (uint32_t k : {0u, 17u, 80u}) {
    dev.launch(m.kernel("count_below"), Dim3(1), Dim3(80), out, k);
    auto r = dev.download<uint32_t>(out, 80 * 3);
    for (uint32_t t = 0; t < 80; ++t) {
      EXPECT_EQ(r[3 * t], k) << t;
      EXPECT_EQ(r[3 * t + 1], k == 80 ? 1u : 0u) << t;
      EXPECT_EQ(r[3 * t + 2], k > 0 ? 1u : 0u) << t;
    }
  }
}

TEST(Barriers, WarpsWaitingOnDifferentBarriersAreADeadlock) {
  FunctionalDevice dev;
  Module m = dev.load_module(kBarriers);
  try {
    dev.launch(m.kernel("split_barriers"), Dim3(2), Dim3(64));
    FAIL() << "expected a deadlock error";
  } catch (const ExecutionError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("deadlock at barrier 0: 32 threads arrived, 64 expected"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("block (0,0,0)"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gpusoc::ptx
