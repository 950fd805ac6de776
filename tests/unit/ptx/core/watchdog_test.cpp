// The launch watchdogs (LaunchWatchdog): a warp without forward progress, the launch budget,
// and the report of every unfinished warp that they and the deadlock check give.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "models/ptx/device.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;
using ::testing::HasSubstr;
using ::testing::Not;

// The kernel's text starts on line 5 of the module (module() adds four header lines).
constexpr int kFirstLine = 5;

class WatchdogTest : public ::testing::Test {
 protected:
  // The ExecutionError text of launching `k(uint64 p)` with p = a zeroed word; empty if none.
  std::string run(const std::string& body, Dim3 block = Dim3(32)) {
    FunctionalDevice dev(options);
    Module m =
        dev.load_module(module(".visible .entry k(.param .u64 p)\n{\n" + body + "}\n"), "w.ptx");
    const DevicePtr word = dev.malloc(4);
    dev.memset(word, 0, 4);
    try {
      dev.launch(m.kernel("k"), Dim3(1), block, word);
    } catch (const ExecutionError& e) {
      return e.what();
    }
    return "";
  }
  DeviceOptions options = [] {
    DeviceOptions o;
    o.watchdog.no_progress_instructions = 1000;
    return o;
  }();
};

TEST_F(WatchdogTest, AnEndlessLoopIsReportedWithEveryWarpAndItsLine) {
  const std::string e = run("$L_top:\n  bra.uni $L_top;\n", Dim3(64));
  const int line = kFirstLine + 3;  // the bra
  EXPECT_THAT(e, HasSubstr("kernel 'k' block (0,0,0): watchdog: warp 0 made no forward progress "
                           "in 1000 instructions (gigathread.watchdog_no_progress_instructions); "
                           "its warps:"));
  EXPECT_THAT(e, HasSubstr("\n  warp 0 at w.ptx:" + std::to_string(line) + " (PC 0 of k): runs"));
  EXPECT_THAT(e, HasSubstr("\n  warp 1 at w.ptx:" + std::to_string(line) + " (PC 0 of k): runs"));
}

// Stores are progress: 5000 iterations of a store run to the end under a limit of 1000, while
// the same loop without its store is stopped.
TEST_F(WatchdogTest, StoresAreForwardProgress) {
  const std::string loop =
      "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
      "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 0;\n"
      "$L_top:\n  add.u32 %r1, %r1, 1;\n  STORE\n"
      "  setp.lt.u32 %p1, %r1, 5000;\n  @%p1 bra.uni $L_top;\n  ret;\n";
  auto with = [&](const std::string& store) {
    std::string body = loop;
    body.replace(body.find("STORE"), 5, store);
    return body;
  };
  EXPECT_EQ(run(with("st.global.u32 [%rd1], %r1;")), "");
  EXPECT_THAT(run(with("mov.u32 %r2, %r1;")), HasSubstr("made no forward progress"));
}

TEST_F(WatchdogTest, ASpinOnAFlagNamesTheLoadAndItsAddress) {
  const std::string e =
      run("  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
          "  ld.param.u64 %rd1, [p];\n"
          "$L_wait:\n  ld.volatile.global.u32 %r1, [%rd1];\n"
          "  setp.eq.s32 %p1, %r1, 0;\n  @%p1 bra.uni $L_wait;\n  ret;\n");
  EXPECT_THAT(e, HasSubstr("it spins on a load of 0x"));
  EXPECT_THAT(e, HasSubstr("at line " + std::to_string(kFirstLine + 7)));
}

// A spin lock nobody releases: every compare-and-swap fails, and changes nothing.
TEST_F(WatchdogTest, AFailingCompareAndSwapIsNoProgress) {
  const std::string e =
      run("  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
          "  ld.param.u64 %rd1, [p];\n"
          "$L_lock:\n  atom.global.cas.b32 %r1, [%rd1], 1, 2;\n"
          "  setp.ne.s32 %p1, %r1, 1;\n  @%p1 bra.uni $L_lock;\n  ret;\n");
  EXPECT_THAT(e, HasSubstr("made no forward progress"));
}

TEST_F(WatchdogTest, TheLaunchBudgetEndsAnEndlessLoopThatStores) {
  options.watchdog.launch_instructions = 20000;
  const std::string e =
      run("  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n"
          "$L_top:\n  st.global.u32 [%rd1], %r1;\n  bra.uni $L_top;\n");
  EXPECT_THAT(e, HasSubstr("watchdog: the launch ran more than 20000 warp instructions "
                           "(gigathread.watchdog_warp_instructions); its warps:\n  warp 0 at"));
  EXPECT_THAT(e, Not(HasSubstr("spins")));
}

TEST_F(WatchdogTest, ZeroTurnsTheChecksOff) {
  options.watchdog.no_progress_instructions = 0;
  options.watchdog.launch_instructions = 50000;  // still ends it, later
  EXPECT_THAT(run("$L_top:\n  bra.uni $L_top;\n"), HasSubstr("the launch ran more than 50000"));
}

TEST_F(WatchdogTest, ADeadlockReportsWhereEachWarpWaits) {
  const std::string e =
      run("  .reg .pred %p<2>;\n  .reg .b32 %r<2>;\n  mov.u32 %r1, %tid.x;\n"
          "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra $L_first;\n  bar.sync 0;\n  bra.uni $L_end;\n"
          "$L_first:\n  bar.sync 1;\n$L_end:\n  ret;\n",
          Dim3(64));
  EXPECT_THAT(e, HasSubstr("deadlock at barrier 0: 32 threads arrived, 64 expected"));
  EXPECT_THAT(e, HasSubstr("\n  warp 0 at w.ptx:"));
  EXPECT_THAT(e, HasSubstr(": waits at barrier 1"));
  EXPECT_THAT(e, HasSubstr(": waits at barrier 0"));
}

}  // namespace
}  // namespace gpusoc::ptx
