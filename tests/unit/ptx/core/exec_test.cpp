// Memory behaviour of the functional core: state spaces, generic addressing, dynamic shared
// memory, vector accesses, and the faults a GPU raises for bad addresses.
#include <gtest/gtest.h>

#include <string>

#include "models/ptx/device.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

// Each thread stores its index into dynamic shared memory through a generic pointer, then reads
// its mirror's entry back with ld.shared. A static shared array sits before the dynamic one and
// is filled with a marker that must survive.
const std::string kShared = module(R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry reverse(.param .u64 out)
{
  .shared .align 4 .b8 fixed[36];
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  st.shared.u32 [fixed+32], 12345;
  mov.u64 %rd1, dyn;
  cvta.shared.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r0, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.u32 [%rd4], %r0;
  bar.sync 0;
  mov.u32 %r1, %ntid.x;
  sub.s32 %r2, %r1, 1;
  sub.s32 %r3, %r2, %r0;
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd1, %rd5;
  ld.shared.u32 %r4, [%rd6];
  ld.shared.u32 %r5, [fixed+32];
  add.s32 %r4, %r4, %r5;
  add.s64 %rd7, %rd0, %rd3;
  st.global.u32 [%rd7], %r4;
  ret;
}
)");

TEST(Memory, DynamicSharedMemoryThroughGenericPointers) {
  FunctionalDevice dev;
  Module m = dev.load_module(kShared);
  const uint32_t n = 100;  // not a multiple of the warp size
  DevicePtr out = dev.malloc(n * 4);
  dev.launch(m.kernel("reverse"), LaunchConfig{Dim3(1), Dim3(n), n * 4}, KernelArgs(out));
  auto r = dev.download<uint32_t>(out, n);
  for (uint32_t t = 0; t < n; ++t) EXPECT_EQ(r[t], (n - 1 - t) + 12345u) << t;
}

TEST(Memory, DynamicSharedAccessBeyondTheLaunchSizeFaults) {
  FunctionalDevice dev;
  Module m = dev.load_module(kShared);
  DevicePtr out = dev.malloc(64 * 4);
  // 64 threads but room for 16 words: thread 16 stores past the end.
  try {
    dev.launch(m.kernel("reverse"), LaunchConfig{Dim3(1), Dim3(64), 64}, KernelArgs(out));
    FAIL();
  } catch (const ExecutionError& e) {
    EXPECT_NE(std::string(e.what()).find("shared memory write of 4 bytes"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("thread (16,0,0)"), std::string::npos) << e.what();
  }
}

const std::string kVectors = module(R"(
.visible .entry swizzle(.param .u64 in, .param .u64 out)
{
  .reg .f32 %f<5>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<6>;
  .local .align 16 .b8 depot[32];
  ld.param.u64 %rd0, [in];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 16;
  add.s64 %rd3, %rd0, %rd2;
  ld.global.nc.v4.f32 {%f0, %f1, %f2, %f3}, [%rd3];
  mov.u64 %rd5, depot;
  st.local.v4.f32 [%rd5+16], {%f3, %f2, %f1, %f0};
  ld.local.v4.f32 {%f0, %f1, %f2, %f3}, [%rd5+16];
  add.s64 %rd4, %rd1, %rd2;
  st.global.v4.f32 [%rd4], {%f0, %f1, %f2, %f3};
  ret;
}
)");

TEST(Memory, VectorAccessesThroughLocalMemory) {
  FunctionalDevice dev;
  Module m = dev.load_module(kVectors);
  std::vector<float> in(40 * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
  DevicePtr din = dev.upload(in), dout = dev.malloc(in.size() * 4);
  dev.launch(m.kernel("swizzle"), Dim3(1), Dim3(40), din, dout);
  auto r = dev.download<float>(dout, in.size());
  for (size_t t = 0; t < 40; ++t) {
    for (size_t e = 0; e < 4; ++e) EXPECT_EQ(r[4 * t + e], in[4 * t + 3 - e]);
  }
}

const std::string kFaults = module(R"(
.visible .entry poke(.param .u64 addr, .param .u32 who)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd0, [addr];
  ld.param.u32 %r1, [who];
  mov.u32 %r0, %tid.x;
  setp.ne.u32 %p0, %r0, %r1;
  @%p0 bra $SKIP;
  st.global.u32 [%rd0], %r0;
$SKIP:
  ret;
}

.visible .entry stop(.param .u32 who)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [who];
  mov.u32 %r0, %tid.x;
  setp.eq.u32 %p0, %r0, %r1;
  @%p0 trap;
  ret;
}
)");

std::string failure(const std::function<void()>& run) {
  try {
    run();
  } catch (const ExecutionError& e) {
    return e.what();
  }
  return "";
}

TEST(Faults, UnmappedAddressNamesThreadKernelAndLine) {
  FunctionalDevice dev;
  Module m = dev.load_module(kFaults, "faults.ptx");
  const std::string what = failure(
      [&] { dev.launch(m.kernel("poke"), Dim3(3), Dim3(64), uint64_t(0x10), uint32_t(37)); });
  EXPECT_NE(what.find("kernel 'poke' block (0,0,0) thread (37,0,0): illegal write of 4 bytes at "
                      "global address 0x10 at faults.ptx:16"),
            std::string::npos)
      << what;
}

TEST(Faults, MisalignedAccess) {
  FunctionalDevice dev;
  Module m = dev.load_module(kFaults);
  DevicePtr p = dev.malloc(64);
  const std::string what =
      failure([&] { dev.launch(m.kernel("poke"), Dim3(1), Dim3(32), p + 2, uint32_t(3)); });
  EXPECT_NE(what.find("misaligned 4-byte access at address"), std::string::npos) << what;
}

TEST(Faults, AccessPastAFreedAllocation) {
  FunctionalDevice dev;
  Module m = dev.load_module(kFaults);
  DevicePtr p = dev.malloc(64);
  EXPECT_EQ(failure([&] { dev.launch(m.kernel("poke"), Dim3(1), Dim3(32), p, uint32_t(1)); }), "");
  dev.free(p);
  EXPECT_NE(failure([&] {
              dev.launch(m.kernel("poke"), Dim3(1), Dim3(32), p, uint32_t(1));
            }).find("illegal write"),
            std::string::npos);
}

TEST(Faults, TrapStopsTheKernel) {
  FunctionalDevice dev;
  Module m = dev.load_module(kFaults);
  const std::string what =
      failure([&] { dev.launch(m.kernel("stop"), Dim3(2), Dim3(32), uint32_t(5)); });
  EXPECT_NE(what.find("thread (5,0,0): trap instruction executed"), std::string::npos) << what;
}

TEST(Stats, CountsWarpAndThreadInstructions) {
  FunctionalDevice dev;
  Module m = dev.load_module(kFaults);
  // 40 threads = 2 warps (32 + 8 lanes); no thread matches `who`, so all take the branch.
  LaunchStats s;
  dev.launch(m.kernel("stop"), LaunchConfig{Dim3(3), Dim3(40), 0, &s}, uint32_t(1000));
  // Per warp: ld.param, mov, setp, @p trap (guard false), ret = 5 instructions.
  EXPECT_EQ(s.warp_instructions, 3u * 2u * 5u);
  // Thread instructions count lanes that executed (the trap's guard is false everywhere).
  EXPECT_EQ(s.thread_instructions, 3u * 40u * 4u);
  EXPECT_EQ(s.ctas, 3u);
  EXPECT_EQ(s.warps, 6u);
}

}  // namespace
}  // namespace gpusoc::ptx
