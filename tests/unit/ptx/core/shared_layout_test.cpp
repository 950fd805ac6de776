// Static shared memory is laid out per kernel: each kernel is charged for the .shared variables
// that it and its callees name, a function shared by two kernels keeps one offset for its
// variables in both, and a kernel using none fits a device whose other kernels would not.
#include <gtest/gtest.h>

#include <string>

#include "models/ptx/device.h"
#include "models/ptx/program.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

// Kernels a and b each fill their own tile and call `count`, which bumps a counter in its own
// shared variable; c uses no shared memory, d only dynamic shared memory. Each kernel stores
// the shared addresses it uses, its tile's sum and %total_smem_size.
const std::string kModule = module(R"(
.shared .align 4 .u32 counter;
.shared .align 4 .b8 tile_a[12000];
.shared .align 8 .b8 tile_b[13000];
.shared .align 4 .b8 unused[4096];
.extern .shared .align 16 .b8 dyn[];

.func (.param .b32 r) count()
{
  .reg .b32 %r<3>;
  atom.shared.add.u32 %r1, [counter], 1;
  mov.u32 %r2, counter;
  st.param.b32 [r], %r2;
  ret;
}

.visible .entry a(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  st.shared.u32 [counter], 0;
  bar.sync 0;
  shl.b32 %r1, %r0, 2;
  mov.u32 %r2, tile_a;
  add.u32 %r3, %r2, %r1;
  st.shared.u32 [%r3], %r0;
  { .param .b32 r; call (r), count, (); ld.param.b32 %r4, [r]; }
  bar.sync 0;
  ld.shared.u32 %r5, [tile_a+124];
  ld.shared.u32 %r6, [counter];
  mov.u32 %r7, %total_smem_size;
  st.global.v4.u32 [%rd0], {%r2, %r4, %r5, %r6};
  st.global.u32 [%rd0+16], %r7;
  ret;
}

.visible .entry b(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  st.shared.u32 [counter], 0;
  bar.sync 0;
  mov.u32 %r2, tile_b;
  st.shared.u32 [tile_b+12996], 7;
  { .param .b32 r; call (r), count, (); ld.param.b32 %r4, [r]; }
  bar.sync 0;
  ld.shared.u32 %r5, [tile_b+12996];
  ld.shared.u32 %r6, [counter];
  mov.u32 %r7, %total_smem_size;
  st.global.v4.u32 [%rd0], {%r2, %r4, %r5, %r6};
  st.global.u32 [%rd0+16], %r7;
  ret;
}

.visible .entry c(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r1, %total_smem_size;
  st.global.u32 [%rd0+16], %r1;
  ret;
}

.visible .entry d(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r1, dyn;
  st.shared.u32 [dyn], 5;
  ld.shared.u32 %r2, [dyn];
  st.global.v2.u32 [%rd0], {%r1, %r2};
  ret;
}
)");

uint32_t static_shared(const Module& m, const char* kernel) {
  return m.kernel(kernel).function().static_shared_bytes;
}

TEST(SharedLayout, EachKernelIsChargedForWhatItAndItsCalleesName) {
  FunctionalDevice dev;
  const Module m = dev.load_module(kModule);
  // `counter` serves a and b (through count): placed first, at 0. Then each kernel's tile
  // right after it (tile_b at its alignment, 8), where a module-wide layout would have put
  // tile_b after tile_a and `unused` after both. As the module has dynamic shared memory, each
  // is counted up to where that starts (16-byte aligned), as ptxas counts it.
  EXPECT_EQ(static_shared(m, "a"), 12016u);  // 4 + 12000, aligned
  EXPECT_EQ(static_shared(m, "b"), 13008u);  // 8 + 13000
  EXPECT_EQ(static_shared(m, "c"), 0u);
  EXPECT_EQ(static_shared(m, "d"), 0u);
}

TEST(SharedLayout, KernelsRunWithTheirOwnLayout) {
  DeviceOptions options;
  options.max_shared_bytes_per_cta = 16384;  // the 8800 GTX's: the module's 29 KB do not fit
  FunctionalDevice dev(options);
  const Module m = dev.load_module(kModule);
  const DevicePtr out = dev.malloc(32);
  struct Want {
    const char* kernel;
    uint32_t tile, last, total;
  };
  for (const Want& w : {Want{"a", 4, 31, 12016}, Want{"b", 8, 7, 13008}}) {
    dev.memset(out, 0, 32);
    dev.launch(m.kernel(w.kernel), LaunchConfig{Dim3(1), Dim3(32), 0}, KernelArgs(out));
    const auto r = dev.download<uint32_t>(out, 5);
    EXPECT_EQ(r[0], w.tile) << w.kernel;  // the tile's offset
    EXPECT_EQ(r[1], 0u) << w.kernel;      // count's counter: at 0 in both
    EXPECT_EQ(r[2], w.last) << w.kernel;
    EXPECT_EQ(r[3], 32u) << w.kernel;  // every thread counted once
    EXPECT_EQ(r[4], w.total) << w.kernel;
  }
  dev.launch(m.kernel("c"), LaunchConfig{Dim3(1), Dim3(32), 0}, KernelArgs(out));
  EXPECT_EQ(dev.download<uint32_t>(out, 5)[4], 0u);
  // d's dynamic shared memory starts at 0: it has no static shared memory before it.
  dev.launch(m.kernel("d"), LaunchConfig{Dim3(1), Dim3(32), 16384}, KernelArgs(out));
  const auto r = dev.download<uint32_t>(out, 2);
  EXPECT_EQ(r[0], 0u);
  EXPECT_EQ(r[1], 5u);
}

// A function reached only through a register may be any .func with a body: a kernel that calls
// indirectly is charged for the shared variables of every function.
TEST(SharedLayout, IndirectCallsReachEveryFunction) {
  FunctionalDevice dev;
  const Module m = dev.load_module(module(R"(
.shared .align 4 .b8 f_buf[400];
.shared .align 4 .b8 g_buf[100];
.func f() { st.shared.u32 [f_buf], 1; ret; }
.func g() { st.shared.u32 [g_buf], 1; ret; }
.visible .entry direct() { call f, (); ret; }
.visible .entry indirect()
{
  .reg .b64 %rd<2>;
  proto: .callprototype _ ();
  mov.u64 %rd1, g;
  call %rd1, (), proto;
  ret;
}
)"));
  EXPECT_EQ(static_shared(m, "direct"), 400u);
  EXPECT_EQ(static_shared(m, "indirect"), 500u);  // both buffers, one after the other
}

}  // namespace
}  // namespace gpusoc::ptx
