// Every special register and predefined identifier of the PTX ISA reads what the launch and the
// device options make it: each thread stores them all, and the test computes each value from
// the thread's place in the grid, the launch's shared memory and the options.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/ptx/device.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

// The registers a thread records, in order; each as a 64-bit value.
const std::vector<std::string> kRecorded = {
    "WARP_SZ",          "%laneid",          "%warpid",
    "%nwarpid",         "%smid",            "%nsmid",
    "%gridid",          "%lanemask_eq",     "%lanemask_lt",
    "%lanemask_le",     "%lanemask_gt",     "%lanemask_ge",
    "%dynamic_smem_size",  "%total_smem_size",  "%aggr_smem_size",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_0", "%reserved_smem_offset_1", "%clusterid.x",
    "%clusterid.y",     "%clusterid.z",     "%nclusterid.x",
    "%nclusterid.y",    "%nclusterid.z",    "%cluster_ctaid.x",
    "%cluster_ctaid.y", "%cluster_ctaid.z", "%cluster_nctaid.x",
    "%cluster_nctaid.y", "%cluster_nctaid.z", "%cluster_ctarank",
    "%cluster_nctarank", "%current_graph_exec", "%pm0",
    "%pm7",             "%pm3_64",          "%envreg0",
    "%envreg31",        "%clock_hi",        "%globaltimer_hi",
    "%is_explicit_cluster", "reserved region round trip",
};

// One mov per register into %rd2, stored at out[thread * kRecorded.size() + i]. The predicate
// goes through selp; the last slot is a word written into the reserved shared memory region at
// %reserved_smem_offset_0 and read back.
std::string specials_module() {
  std::string body = R"(
.visible .entry specials(.param .u64 out)
{
  .shared .align 4 .b8 fixed[36];
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %tid.y;
  mov.u32 %r2, %ntid.x;
  mad.lo.s32 %r0, %r1, %r2, %r0;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r3, %ctaid.y;
  mov.u32 %r4, %nctaid.x;
  mad.lo.s32 %r1, %r3, %r4, %r1;
  mov.u32 %r3, %ntid.y;
  mul.lo.s32 %r2, %r2, %r3;
  mad.lo.s32 %r0, %r1, %r2, %r0;
  mul.wide.u32 %rd1, %r0, )" + std::to_string(8 * kRecorded.size()) + R"(;
  add.s64 %rd0, %rd0, %rd1;
  st.shared.u32 [fixed], %r0;
)";
  for (size_t i = 0; i + 2 < kRecorded.size(); ++i) {
    const std::string& name = kRecorded[i];
    const bool wide = name == "%gridid" || name == "%current_graph_exec" || name == "%pm3_64";
    if (wide) {
      body += "  mov.u64 %rd2, " + name + ";\n";
    } else {
      body += "  mov.u32 %r5, " + name + ";\n  cvt.u64.u32 %rd2, %r5;\n";
    }
    body += "  st.global.u64 [%rd0+" + std::to_string(8 * i) + "], %rd2;\n";
  }
  const size_t pred = kRecorded.size() - 2, round_trip = kRecorded.size() - 1;
  body += "  mov.pred %p1, %is_explicit_cluster;\n  selp.u64 %rd2, 1, 0, %p1;\n";
  body += "  st.global.u64 [%rd0+" + std::to_string(8 * pred) + "], %rd2;\n";
  body += R"(  mov.u32 %r5, %reserved_smem_offset_0;
  mov.u32 %r6, %laneid;
  setp.eq.u32 %p0, %r6, 0;
  @%p0 st.shared.u32 [%r5], 777;
  bar.warp.sync -1;
  ld.shared.u32 %r6, [%r5];
  cvt.u64.u32 %rd2, %r6;
  st.global.u64 [%rd0+)" + std::to_string(8 * round_trip) + R"(], %rd2;
  ret;
}
)";
  return module(body);
}

TEST(SpecialRegisters, EveryOneReadsWhatTheLaunchAndTheDeviceMakeIt) {
  DeviceOptions options;
  options.num_sms = 5;
  options.reserved_shared_bytes_per_cta = 1024;
  FunctionalDevice dev(options);
  const Module m = dev.load_module(specials_module());
  const Dim3 grid(2, 3), block(40, 2);
  // 36 bytes of static shared memory, then the dynamic at its 16-byte alignment.
  const uint32_t dynamic = 100, static_shared = 48;
  const uint64_t threads = grid.count() * block.count();
  const size_t n = kRecorded.size();
  const DevicePtr out = dev.malloc(threads * n * 8);
  dev.launch(m.kernel("specials"), LaunchConfig{grid, block, dynamic}, KernelArgs(out));
  const std::vector<uint64_t> got = dev.download<uint64_t>(out, threads * n);

  const uint64_t reserved_begin = (static_shared + dynamic + 15) / 16 * 16;  // 160
  for (uint32_t cy = 0; cy < grid.y; ++cy) {
    for (uint32_t cx = 0; cx < grid.x; ++cx) {
      const uint32_t cta = cy * grid.x + cx;
      for (uint32_t t = 0; t < block.count(); ++t) {
        const uint32_t lane = t % 32, warp = t / 32;
        const std::vector<uint64_t> want = {
            32, lane, warp, (block.count() + 31) / 32, cta % options.num_sms, options.num_sms,
            1,  // the device's first launch
            1u << lane, (1u << lane) - 1, uint32_t((2ull << lane) - 1),
            uint32_t(~((2ull << lane) - 1)), uint32_t(~((1u << lane) - 1)),
            dynamic, static_shared + dynamic, reserved_begin + 1024,
            reserved_begin, reserved_begin + 1024, 1024, reserved_begin, reserved_begin + 8,
            cx, cy, 0, grid.x, grid.y, 1,  // a grid of one-CTA clusters
            0, 0, 0, 1, 1, 1, 0, 1,
            0, 0, 0, 0, 0, 0,  // no graph, no counters programmed, no driver environment
            0, 0,              // the clocks have not run 2^32 instructions
            0,                 // no explicit cluster
            777};
        ASSERT_EQ(want.size(), n);
        const uint64_t* row = &got[(uint64_t(cta) * block.count() + t) * n];
        for (size_t i = 0; i < n; ++i)
          EXPECT_EQ(row[i], want[i]) << kRecorded[i] << " of thread " << t << " in CTA " << cta;
      }
    }
  }
}

// nvcc 13 turns warpSize into the predefined identifier WARP_SZ: here `threadIdx.x % warpSize`
// and `warpSize * 3`, as nvcc emits them.
TEST(SpecialRegisters, WarpSizeIdentifierIsAConstantOperand) {
  FunctionalDevice dev;
  const Module m = dev.load_module(module(R"(
.visible .entry ws(.param .u64 p)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, WARP_SZ;
  mov.u32 %r2, %tid.x;
  rem.u32 %r3, %r2, %r1;
  mad.lo.s32 %r4, %r1, 3, %r3;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r4;
  ret;
}
)"));
  const DevicePtr p = dev.malloc(70 * 4);
  dev.launch(m.kernel("ws"), Dim3(1), Dim3(70), p);
  const auto r = dev.download<uint32_t>(p, 70);
  for (uint32_t t = 0; t < 70; ++t) EXPECT_EQ(r[t], 96 + t % 32) << t;
}

TEST(SpecialRegisters, ClocksAreReadOnlyByMov) {
  FunctionalDevice dev;
  try {
    dev.load_module(module(R"(
.visible .entry k()
{
  .reg .b32 %r<2>;
  add.u32 %r1, %clock_hi, 1;
  ret;
}
)"));
    ADD_FAILURE() << "loaded";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("special register '%clock_hi' can only be read with mov"),
              std::string::npos)
        << e.what();
  }
}

// The cluster registers describe one-CTA clusters; a kernel that needs real clusters is refused
// rather than run with the wrong values.
TEST(SpecialRegisters, KernelsAskingForClustersAreRefused) {
  for (const char* directive : {".explicitcluster", ".reqnctapercluster 2, 1, 1",
                                ".maxclusterrank 4"}) {
    FunctionalDevice dev;
    try {
      dev.load_module(module(std::string(".visible .entry k() ") + directive + "\n{\n  ret;\n}\n"));
      ADD_FAILURE() << directive << ": loaded";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("thread block clusters"), std::string::npos)
          << e.what();
    }
  }
  FunctionalDevice dev;  // a one-CTA cluster is what every launch is
  EXPECT_NO_THROW(dev.load_module(module(".visible .entry k() .reqnctapercluster 1\n{\n  ret;\n}\n")));
}

}  // namespace
}  // namespace gpusoc::ptx
