// Stepping one warp instruction by instruction, as a timed SM does: next_instruction() announces
// exactly what run(1) executes, under both SIMT models, along a kernel whose paths diverge, loop,
// call a function that diverges and loops itself, and fall off the function's end. The expected
// instruction orders are derived by hand from the PTX below.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/common/sparse_memory.h"
#include "models/ptx/launch.h"
#include "models/ptx/program.h"
#include "models/ptx/warp.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

using test::module;

// Lanes 0-1 run loop A three times and then call inner(tid); lanes 2-3 run loop B three times.
// inner diverges too: lane 0 (x == 0) loops in SPIN twice, lane 1 takes ONE. inner has no ret:
// it returns by falling off its end. Results: lane 0: 3 + 2 = 5, lane 1: 3 + 101 = 104,
// lanes 2-3: 30. The numbers on the right are the instruction indices (PCs).
const std::string kSteps = module(R"(
.visible .func (.param .b32 r) inner(.param .b32 x)
{
  .reg .pred %q<2>;
  .reg .b32 %s<3>;
  ld.param.b32 %s0, [x];          // 0
  mov.u32 %s1, 0;                 // 1
  setp.ne.u32 %q0, %s0, 0;        // 2
  @%q0 bra $ONE;                  // 3: lane 1 taken; lane 0 falls into SPIN; they meet at 9
$SPIN:
  add.u32 %s1, %s1, 1;            // 4
  setp.lt.u32 %q1, %s1, 2;        // 5
  @%q1 bra $SPIN;                 // 6: backward, taken once
  bra.uni $DONE;                  // 7
$ONE:
  add.u32 %s1, %s0, 100;          // 8
$DONE:
  st.param.b32 [r], %s1;          // 9
}

.visible .entry steps(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd0, [out];       // 0
  mov.u32 %r0, %tid.x;            // 1
  mov.u32 %r1, 0;                 // 2
  setp.ge.u32 %p0, %r0, 2;        // 3
  @%p0 bra $B;                    // 4: lanes 2-3 taken; lanes 0-1 fall into A; they meet at 16
$A:
  add.u32 %r1, %r1, 1;            // 5
  setp.lt.u32 %p1, %r1, 3;        // 6
  @%p1 bra $A;                    // 7: backward, taken twice
  {
  .param .b32 a;
  st.param.b32 [a], %r0;          // 8
  .param .b32 r;
  call (r), inner, (a);           // 9
  ld.param.b32 %r2, [r];          // 10
  }
  add.u32 %r1, %r1, %r2;          // 11
  bra.uni $JOIN;                  // 12
$B:
  add.u32 %r1, %r1, 10;           // 13
  setp.lt.u32 %p2, %r1, 30;       // 14
  @%p2 bra $B;                    // 15: backward, taken twice
$JOIN:
  cvta.to.global.u64 %rd1, %rd0;  // 16
  mul.wide.u32 %rd2, %r0, 4;      // 17
  add.s64 %rd3, %rd1, %rd2;       // 18
  st.global.u32 [%rd3], %r1;      // 19
  ret;                            // 20
}
)");

// (in inner?, pc)
using Step = std::pair<bool, uint32_t>;
constexpr bool K = false, I = true;

// Stack: each path runs to the meeting point before the other starts; fall-through first.
const std::vector<Step> kStackOrder = {
    {K, 0},  {K, 1},  {K, 2},  {K, 3},  {K, 4},                                      // diverge
    {K, 5},  {K, 6},  {K, 7},  {K, 5},  {K, 6},  {K, 7},  {K, 5},  {K, 6},  {K, 7},  // A x3
    {K, 8},  {K, 9},  {I, 0},  {I, 1},  {I, 2},  {I, 3},           // call, diverge
    {I, 4},  {I, 5},  {I, 6},  {I, 4},  {I, 5},  {I, 6},  {I, 7},  // SPIN x2
    {I, 8},  {I, 9},                                               // ONE, meet
    {K, 10}, {K, 11}, {K, 12},                                     // returned
    {K, 13}, {K, 14}, {K, 15}, {K, 13}, {K, 14}, {K, 15}, {K, 13}, {K, 14}, {K, 15},  // B x3
    {K, 16}, {K, 17}, {K, 18}, {K, 19}, {K, 20}};

// Independent: after each taken backward branch the warp moves to the next path; inside inner
// only between inner's own paths (lanes 2-3 wait mid-loop in the caller meanwhile).
const std::vector<Step> kIndependentOrder = {
    {K, 0},  {K, 1},  {K, 2},  {K, 3},  {K, 4},  // diverge
    {K, 5},  {K, 6},  {K, 7},                    // A, back -> B
    {K, 13}, {K, 14}, {K, 15},                   // B, back -> A
    {K, 5},  {K, 6},  {K, 7},                    // A, back -> B
    {K, 13}, {K, 14}, {K, 15},                   // B, back -> A
    {K, 5},  {K, 6},  {K, 7},  {K, 8},  {K, 9},  // A leaves its loop, calls
    {I, 0},  {I, 1},  {I, 2},  {I, 3},           // inner diverges
    {I, 4},  {I, 5},  {I, 6},                    // SPIN, back -> ONE (not B)
    {I, 8},                                      // ONE meets at 9 and ends
    {I, 4},  {I, 5},  {I, 6},  {I, 7},           // SPIN leaves its loop, meets
    {I, 9},                                      // inner reconverged, falls off its end
    {K, 10}, {K, 11}, {K, 12},                   // A meets at 16 and ends
    {K, 13}, {K, 14}, {K, 15},                   // B's last round
    {K, 16}, {K, 17}, {K, 18}, {K, 19}, {K, 20}};

class WarpStepTest : public ::testing::TestWithParam<std::string> {
 protected:
  static constexpr uint64_t kOut = 0x10000;

  WarpStepTest() : memory_(/*strict=*/true) {
    memory_.map(kOut, 16);
    program_ = &loaded_.program();
    launch_.program = program_;
    launch_.kernel = &function("steps");
    launch_.block = Dim3(4);
    launch_.params.assign(launch_.kernel->param_buffer_bytes, 0);
    const uint64_t out = kOut;
    std::memcpy(launch_.params.data() + launch_.kernel->params[0].offset, &out, 8);
    launch_.global = &memory_;
    launch_.simt_model = make_simt_model(GetParam());
    cta_.num_threads = 4;
    cta_.num_warps = 1;
    cta_.global = &memory_;
  }

  const Function& function(const std::string& name) const {
    for (const Function& f : program_->functions)
      if (f.name == name) return f;
    throw std::runtime_error("no function " + name);
  }
  const Inst* at(Step s) const { return &function(s.first ? "inner" : "steps").code[s.second]; }
  std::vector<uint32_t> results() {
    std::vector<uint32_t> r(4);
    memory_.read(kOut, r.data(), 16);
    return r;
  }

  FunctionalDevice device_;
  Module loaded_ = device_.load_module(kSteps, "steps.ptx");
  const Program* program_ = nullptr;
  SparseMemory memory_;
  LaunchContext launch_;
  CtaContext cta_;
};

TEST_P(WarpStepTest, NextInstructionIsWhatRunOneExecutes) {
  const std::vector<Step>& order = GetParam() == "stack" ? kStackOrder : kIndependentOrder;
  Warp w;
  w.start(launch_, cta_, 0, 0xf);
  for (size_t i = 0; i < order.size(); ++i) {
    const Inst* next = w.next_instruction();
    ASSERT_EQ(next, at(order[i])) << "step " << i << ": expected "
                                  << (order[i].first ? "inner" : "steps") << " pc "
                                  << order[i].second << ", announced pc " << w.pc() << " of "
                                  << w.function()->name;
    EXPECT_EQ(w.pc(), order[i].second) << "step " << i;
    EXPECT_EQ(w.function(), &function(order[i].first ? "inner" : "steps")) << "step " << i;
    const auto classes = w.class_counts();
    ASSERT_EQ(w.run(1), 1u) << "step " << i;
    EXPECT_EQ(w.warp_instructions(), i + 1);
    for (size_t c = 0; c < kNumInstClasses; ++c) {
      EXPECT_EQ(w.class_counts()[c], classes[c] + (c == size_t(next->cls))) << "step " << i;
    }
  }
  EXPECT_EQ(w.next_instruction(), nullptr);
  EXPECT_EQ(w.state(), Warp::State::Done);
  EXPECT_EQ(results(), (std::vector<uint32_t>{5, 104, 30, 30}));
}

// The same warp run in one go executes the same number of instructions with the same results.
TEST_P(WarpStepTest, RunningInOneGoMatchesStepping) {
  Warp w;
  w.start(launch_, cta_, 0, 0xf);
  EXPECT_EQ(w.run(1000), kStackOrder.size());
  EXPECT_EQ(w.state(), Warp::State::Done);
  EXPECT_EQ(results(), (std::vector<uint32_t>{5, 104, 30, 30}));
}

INSTANTIATE_TEST_SUITE_P(Models, WarpStepTest, ::testing::Values("stack", "independent"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace gpusoc::ptx
