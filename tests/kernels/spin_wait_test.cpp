// sw/kernels/spin_wait.cu: threads 0 and 1 of a warp spin on a flag that threads 2 and 3 set.
// Independent thread scheduling completes it; the reconvergence stack cannot, and either the
// SIMT deadlock watchdog names the spin or the launch watchdog stops it.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "tests/kernels/kernel_test_util.h"

namespace gpusoc::kernel_test {
namespace {

using ptx::ExecutionError;

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// The spin loop's back edge, found in the PTX text: the first conditional branch after the
// volatile load of the flag whose label comes before that load. PCs count the kernel's
// instructions (statements other than directives) from 0.
struct BackEdge {
  uint32_t line = 0;  // 1-based line in spin_wait.ptx
  uint32_t pc = 0;
};

BackEdge find_spin_back_edge(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  std::vector<std::string> labels_before_load;
  bool in_body = false, seen_load = false;
  uint32_t line_no = 0, pc = 0;
  while (std::getline(in, text)) {
    ++line_no;
    const std::string s = trim(text);
    if (!in_body) {
      in_body = s == "{";
      continue;
    }
    if (s.empty() || s[0] == '.' || s.rfind("//", 0) == 0) continue;
    if (s.back() == ':') {
      if (!seen_load) labels_before_load.push_back(s.substr(0, s.size() - 1));
      continue;
    }
    if (s.back() != ';') continue;
    if (s.find("ld.volatile.global") != std::string::npos) seen_load = true;
    if (seen_load && s[0] == '@' && s.find(" bra") != std::string::npos) {
      for (const std::string& label : labels_before_load) {
        if (s.find(label + ";") != std::string::npos) return {line_no, pc};
      }
    }
    ++pc;
  }
  ADD_FAILURE() << "no spin loop back edge in " << path;
  return {};
}

class SpinWaitTest : public ::testing::Test {
 protected:
  // Runs spin_wait on one warp of four threads; returns the flag and leaves out in `out`.
  int run(ptx::DeviceOptions options) {
    FunctionalDevice dev(options);
    Kernel k = dev.load_module_file(kernel_path("spin_wait.ptx")).kernel("spin_wait");
    DevicePtr flag = dev.upload(std::vector<int>{0});
    DevicePtr dout = dev.upload(std::vector<int>(4, -1));
    try {
      dev.launch(k, LaunchConfig{Dim3(1), Dim3(4), 0, &stats}, flag, dout);
    } catch (...) {
      out = dev.download<int>(dout, 4);
      flag_after_error = dev.download<int>(flag, 1)[0];
      throw;
    }
    out = dev.download<int>(dout, 4);
    return dev.download<int>(flag, 1)[0];
  }
  static ptx::DeviceOptions with(const char* model, uint64_t simt_deadlock, uint64_t watchdog) {
    ptx::DeviceOptions o;
    PolicyChoice choice(model);
    if (choice.name == "stack") choice.settings.set("sm.simt_deadlock_instructions", simt_deadlock);
    o.simt_model = ptx::make_simt_model(choice);
    o.watchdog.launch_instructions = watchdog;
    return o;
  }
  std::vector<int> out;
  int flag_after_error = -1;
  ptx::LaunchStats stats;
};

// Spinners write 100 + tid after the flag is set, setters 200 + tid. Instruction count by hand
// from spin_wait.ptx: 6 to the divergent branch; the spinners' bra.uni and one round of the loop
// (1 + 4), whose taken back edge hands the turn to the setters (4, then they meet at the join);
// the spinners' second round sees the flag (4); the reconverged warp runs the join (6): 25.
TEST_F(SpinWaitTest, CompletesUnderIndependentThreadScheduling) {
  EXPECT_EQ(run(with("independent", 0, 1000000)), 1);
  EXPECT_EQ(out, (std::vector<int>{100, 101, 202, 203}));
  EXPECT_EQ(stats.warp_instructions, 25u);
}

// The SIMT deadlock watchdog belongs to the stack model: independent scheduling ignores it.
TEST_F(SpinWaitTest, IndependentSchedulingIgnoresTheSimtDeadlockLimit) {
  EXPECT_EQ(run(with("independent", 1, 1000000)), 1);
  EXPECT_EQ(out, (std::vector<int>{100, 101, 202, 203}));
}

TEST_F(SpinWaitTest, StackModelReportsSimtDeadlockNamingKernelWarpPcAndLine) {
  const std::string path = kernel_path("spin_wait.ptx");
  const BackEdge edge = find_spin_back_edge(path);
  try {
    run(with("stack", 100000, 0));
    FAIL() << "expected a SIMT deadlock";
  } catch (const ExecutionError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        fmt::format("kernel 'spin_wait' block (0,0,0) warp 0: SIMT deadlock at pc {} ({}:{}): "
                    "threads 0-1 of the warp have run 100000 instructions on one path while "
                    "threads 2-3 wait on another; the reconvergence stack cannot run them "
                    "(sm.simt_model=independent can)",
                    edge.pc, path, edge.line));
  }
  // The setters never had a turn.
  EXPECT_EQ(flag_after_error, 0);
  EXPECT_EQ(out, (std::vector<int>(4, -1)));
}

TEST_F(SpinWaitTest, StackModelWithoutSimtWatchdogIsStoppedByTheLaunchWatchdog) {
  try {
    run(with("stack", 0, 1000000));
    FAIL() << "expected the launch watchdog";
  } catch (const ExecutionError& e) {
    // The report names the spinning warp, its line, and the flag's load (spin_wait.ptx:40).
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("kernel 'spin_wait' block (0,0,0): watchdog: the launch ran more than "
                         "1000000 warp instructions (gigathread.watchdog_warp_instructions); its "
                         "warps:\n  warp 0 at ",
                         0),
              0u)
        << what;
    EXPECT_NE(what.find("spin_wait.ptx:41 (PC 12 of spin_wait): runs"), std::string::npos) << what;
    EXPECT_NE(what.find("it spins on a load of 0x200000000 at line 40"), std::string::npos) << what;
  }
  EXPECT_EQ(flag_after_error, 0);
}

}  // namespace
}  // namespace gpusoc::kernel_test
