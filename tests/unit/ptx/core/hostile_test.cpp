// Hostile input never reaches host memory it should not: wrapped addresses, sink destinations,
// oversized declarations, calls to kernels, bad atomic types, huge host requests. Each case
// ends in a load error or an ExecutionError, never a crash.
#include <gtest/gtest.h>

#include <string>

#include "models/ptx/device.h"
#include "models/ptx/diagnostics.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

std::string load_error(const std::string& text) {
  FunctionalDevice dev;
  try {
    dev.load_module(text, "h.ptx");
  } catch (const ModuleLoadError& e) {
    return e.what();
  }
  return "";
}

std::string run_error(const std::string& body, Dim3 block = Dim3(32)) {
  FunctionalDevice dev;
  Module m = dev.load_module(module(".visible .entry k()\n{\n" + body + "}\n"), "h.ptx");
  try {
    dev.launch(m.kernel("k"), Dim3(1), block);
  } catch (const ExecutionError& e) {
    return e.what();
  }
  return "";
}

TEST(Hostile, AddressesJustBelowZeroDoNotWrapIntoTheHost) {
  EXPECT_NE(run_error("  .shared .align 4 .b8 s[16];\n  .reg .b64 %rd<2>;\n"
                      "  mov.u64 %rd0, -4;\n  st.shared.u32 [%rd0], 1;\n  ret;\n")
                .find("shared memory write of 4 bytes"),
            std::string::npos);
  EXPECT_NE(run_error("  .reg .b64 %rd<2>;\n  mov.u64 %rd0, -32;\n"
                      "  st.local.v4.u64 [%rd0], {%rd1, %rd1, %rd1, %rd1};\n  ret;\n")
                .find("local memory access"),
            std::string::npos);
  EXPECT_NE(
      run_error("  .reg .b64 %rd<2>;\n  mov.u64 %rd0, -8;\n  ld.param.u64 %rd1, [%rd0];\n  ret;\n")
          .find("invalid kernel parameter read"),
      std::string::npos);
}

TEST(Hostile, SinkDestinationsOnlyWhereTheyMeanSomething) {
  const std::string head = ".visible .entry k()\n{\n  .reg .b64 %rd<2>;\n  .reg .pred %p<2>;\n";
  for (const char* line : {"  cvta.to.global.u64 _, %rd1;\n", "  mov.u32 _, %clock;\n",
                           "  bar.red.popc.u32 _, 0, %p0;\n", "  add.s32 _, 1, 2;\n"}) {
    EXPECT_NE(
        load_error(module(head + line + "  ret;\n}\n")).find("a destination must be a register"),
        std::string::npos)
        << line;
  }
  // A load or atomic may discard its value.
  EXPECT_EQ(
      load_error(module(head + "  ld.global.u32 _, [%rd0];\n  atom.global.add.u32 _, [%rd0], 1;\n"
                               "  ret;\n}\n")),
      "");
}

TEST(Hostile, AtomicAndMemoryTypesAreChecked) {
  const std::string head = ".visible .entry k()\n{\n  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n";
  EXPECT_NE(load_error(module(head + "  atom.global.exch.b128 %rd0, [%rd1], %rd0;\n  ret;\n}\n"))
                .find("needs a 32- or 64-bit"),
            std::string::npos);
  EXPECT_NE(load_error(module(head + "  red.global.add [%rd1], %r0;\n  ret;\n}\n"))
                .find("red.global.add"),
            std::string::npos);
  EXPECT_NE(load_error(module(head + "  atom.global.inc.u64 %rd0, [%rd1], %rd0;\n  ret;\n}\n"))
                .find("inc and dec take .u32"),
            std::string::npos);
  EXPECT_NE(
      load_error(module(head + "  ld.global.b128 %rd0, [%rd1];\n  ret;\n}\n")).find("byte type"),
      std::string::npos);
}

TEST(Hostile, OversizedDeclarationsAreRejected) {
  EXPECT_NE(load_error(module(".func f(.param .b8 p[4294967288])\n{\n  ret;\n}\n"))
                .find("larger than 16 MiB"),
            std::string::npos);
  EXPECT_NE(load_error(
                module(".visible .entry k()\n{\n  .local .align 4 .b8 d[4294967280];\n  ret;\n}\n"))
                .find("larger than 16 MiB"),
            std::string::npos);
  EXPECT_NE(
      load_error(module(".global .align 8192 .b8 g[16];\n")).find("not a power of two up to 4096"),
      std::string::npos);
}

TEST(Hostile, CallsMustMatchTheirCallee) {
  EXPECT_NE(load_error(module(".visible .entry c(.param .b8 p[64])\n{\n  ret;\n}\n"
                              ".visible .entry k()\n{\n  .param .b8 a[64];\n  call.uni c, (a);\n"
                              "  ret;\n}\n"))
                .find("kernels cannot be called"),
            std::string::npos);
  EXPECT_NE(load_error(module(".func f(.param .b32 x)\n{\n  ret;\n}\n"
                              ".visible .entry k()\n{\n  .param .b64 a;\n  call.uni f, (a);\n"
                              "  ret;\n}\n"))
                .find("argument 0 of the call to 'f' has 8 bytes; the parameter has 4"),
            std::string::npos);
}

TEST(Hostile, FrameRelativeAddressesOnlyThroughMovOrCvta) {
  EXPECT_NE(load_error(module(".visible .entry k()\n{\n  .local .align 4 .b8 d[16];\n"
                              "  .reg .b64 %rd<2>;\n  add.u64 %rd0, d, 4;\n  ret;\n}\n"))
                .find("can only be taken with mov or cvta"),
            std::string::npos);
}

TEST(Hostile, MbarrierArrivalsNeedAnInitializedBarrier) {
  EXPECT_NE(
      run_error("  .shared .align 8 .b8 bar[8];\n  .reg .b64 %rd<2>;\n"
                "  st.shared.u64 [bar], 0;\n  mbarrier.arrive.shared.b64 %rd0, [bar];\n  ret;\n")
          .find("no pending arrivals"),
      std::string::npos);
}

TEST(Hostile, HugeHostRequestsAreRefused) {
  FunctionalDevice dev;
  EXPECT_THROW(dev.malloc(~uint64_t(0)), std::bad_alloc);
  const DevicePtr p = dev.malloc(64);
  std::vector<uint8_t> buf(64);
  EXPECT_THROW(dev.copy_to_host(buf.data(), p + 8, ~uint64_t(0) - 4), std::out_of_range);
  EXPECT_THROW(dev.memset(p + 1, 0, ~uint64_t(0)), std::out_of_range);
}

TEST(Hostile, TheWatchdogStopsAnEndlessLoop) {
  DeviceOptions o;
  o.watchdog.launch_instructions = 100000;
  FunctionalDevice dev(o);
  Module m = dev.load_module(module(".visible .entry spin()\n{\n$L_top:\n  bra.uni $L_top;\n}\n"));
  try {
    dev.launch(m.kernel("spin"), Dim3(2), Dim3(64));
    FAIL() << "expected the watchdog";
  } catch (const ExecutionError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'spin' block (0,0,0): watchdog: the launch ran "
                                         "more than 100000 warp instructions"),
              std::string::npos)
        << e.what();
  }
}

TEST(Hostile, ExplicitBarrierCountsCountWholeWarps) {
  // 48 threads are two warps; `bar.sync 1, 64` expects two warps' worth, as hardware counts them.
  EXPECT_EQ(run_error("  bar.sync 1, 64;\n  ret;\n", Dim3(48)), "");
}

}  // namespace
}  // namespace gpusoc::ptx
