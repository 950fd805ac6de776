// Register estimates: liveness worked out by hand on small kernels (the slots live after each
// instruction: .b32 1, .b64 2, predicates 0; values computed from %tid, so that no constant
// hides among them), then what ptxas adds (latency scheduling) and caps (launch bounds,
// .maxnreg, the ISA), against figures measured with ptxas 13.0 for sm_80. The agreement with
// ptxas over whole modules is in register_agreement_test.cpp.
#include "models/ptx/register_pressure.h"

#include <gtest/gtest.h>

#include <string>

#include "models/ptx/device.h"
#include "models/ptx/register_liveness.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

struct Loaded {
  FunctionalDevice dev;
  Module mod;
  explicit Loaded(const std::string& text) : mod(dev.load_module(test::module(text), "t.ptx")) {}
  const Function& fn(const std::string& name) const { return mod.kernel(name).function(); }
  // The peak in PTX order, before anything ptxas adds.
  uint32_t in_order(const std::string& name) const {
    return function_liveness(fn(name), {}).in_order;
  }
  uint32_t registers(const std::string& name) const {
    return registers_per_thread(mod.program(), fn(name));
  }
};

TEST(RegisterPressure, StraightLine) {
  Loaded m(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  mov.u32 %r0, %tid.x;            // {r0} 1
  add.s32 %r1, %r0, 1;            // {r0 r1} 2
  add.s32 %r2, %r0, 2;            // {r0 r1 r2} 3
  add.s32 %r3, %r0, 3;            // {r1 r2 r3} 3  (r0's last use)
  mul.lo.s32 %r4, %r1, %r2;       // {r3 r4} 2
  add.s32 %r4, %r4, %r3;          // {r4} 1
  ld.param.u64 %rd1, [out];       // the pointer is a parameter: read where used
  st.global.u32 [%rd1], %r4;      // {r4} + the pointer in a register here: 3
  ret;
}
)");
  EXPECT_EQ(m.in_order("k"), 3u);
}

TEST(RegisterPressure, LoopCarriedValueStaysLiveAroundTheBackEdge) {
  // %r6 is read only at the loop's top, but the back edge keeps it live through the body: 5
  // after the mul. Without the back edge it would die at the first add (peak 4).
  Loaded m(R"(.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  mov.u32 %r0, %tid.x;            // {r0} 1
  add.s32 %r1, %r0, 100;          // {r0 r1} 2
  add.s32 %r2, %r0, 0;            // {r0 r1 r2} 3
  add.s32 %r3, %r0, 7;            // {r0 r1 r2 r3} 4
  add.s32 %r6, %r0, 5;            // {r1 r2 r3 r6} 4
$L_top:
  add.s32 %r3, %r3, %r6;          // {r1 r2 r3 r6} 4
  mul.lo.s32 %r4, %r2, %r2;       // {r1 r2 r3 r4 r6} 5  <- peak
  add.s32 %r3, %r3, %r4;          // {r1 r2 r3 r6} 4
  add.s32 %r2, %r2, 1;            // 4
  setp.lt.u32 %p1, %r2, %r1;      // 4 (+p1, not a general register)
  @%p1 bra $L_top;                // 4 on the back edge, {r3} on exit
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r3;      // {r3} + the pointer: 3
  ret;
}
)");
  EXPECT_EQ(m.in_order("k"), 5u);
}

TEST(RegisterPressure, DiamondTakesTheBusierArmNotTheSum) {
  // %r1 is read at the join, so live through both arms. Then-arm: 5; else-arm: 3. The peak is
  // 5: the arms never coexist (5 + 3 would be wrong). The arms are longer than ptxas
  // predicates, so they stay branches.
  std::string then_arm, else_arm;
  for (int i = 0; i < 10; ++i) then_arm += "  xor.b32 %r2, %r2, %r3;\n";
  for (int i = 0; i < 10; ++i) else_arm += "  xor.b32 %r8, %r8, %r9;\n";
  Loaded m(R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;            // {r1} 1
  setp.eq.s32 %p1, %r1, 0;        // {r1} 1
  @%p1 bra $L_else;
  add.s32 %r2, %r1, 1;            // {r1 r2} 2
  add.s32 %r3, %r1, 2;            // {r1 r2 r3} 3
  add.s32 %r4, %r1, 3;            // {r1 r2 r3 r4} 4
  add.s32 %r5, %r1, 4;            // {r1 r2 r3 r4 r5} 5  <- peak
)" + then_arm + R"(  add.s32 %r2, %r2, %r3;          // {r1 r2 r4 r5} 4
  add.s32 %r4, %r4, %r5;          // {r1 r2 r4} 3
  add.s32 %r6, %r2, %r4;          // {r1 r6} 2
  bra $L_join;
$L_else:
  add.s32 %r8, %r1, 5;            // {r1 r8} 2
  add.s32 %r9, %r1, 6;            // {r1 r8 r9} 3
)" + else_arm + R"(  add.s32 %r6, %r8, %r9;          // {r1 r6} 2
$L_join:
  add.s32 %r7, %r6, %r1;          // {r7} 1
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r7;      // 3
  ret;
}
)");
  EXPECT_EQ(m.in_order("k"), 5u);
}

TEST(RegisterPressure, SixtyFourBitRegistersTakeTwoSlots) {
  Loaded m(R"(.visible .entry k(.param .u64 out)
{
  .reg .b64 %rd<6>;
  .reg .b32 %r<2>;
  mov.u32 %r1, %tid.x;            // {r1} 1
  cvt.u64.u32 %rd2, %r1;          // {r1 rd2} 3
  add.s64 %rd3, %rd2, 5;          // {r1 rd2 rd3} 5
  mul.wide.u32 %rd4, %r1, 3;      // {rd2 rd3 rd4} 6  <- peak; before it {r1 rd2 rd3} and
                                  // the 3 in a register (IMAD.WIDE takes it so): 6
  add.s64 %rd2, %rd2, %rd3;       // {rd2 rd4} 4
  add.s64 %rd2, %rd2, %rd4;       // {rd2} 2
  ld.param.u64 %rd1, [out];
  st.global.u64 [%rd1], %rd2;     // {rd2} + the pointer: 4
  ret;
}
)");
  EXPECT_EQ(m.in_order("k"), 6u);  // counting every register as one slot would give 3
}

// On a 32-bit-address SM (compute capability 1.x) the PTX's 64-bit integers are pointers and
// their arithmetic, one register each; doubles still take a pair.
TEST(RegisterPressure, ThirtyTwoBitAddressesTakeOneSlotForSixtyFourBitIntegers) {
  // Slots live, with 32-bit addresses (and with 64-bit ones).
  Loaded m(R"(.visible .entry k(.param .u64 out)
{
  .reg .b64 %rd<3>;
  .reg .b32 %r<2>;
  .reg .f64 %fd<3>;
  mov.u32 %r1, %tid.x;            // {r1} 1 (1)
  cvt.u64.u32 %rd2, %r1;          // {r1 rd2} 2 (3)
  cvt.rn.f64.u32 %fd1, %r1;       // {rd2 fd1} 3 (4)
  add.f64 %fd2, %fd1, %fd1;       // {rd2 fd1 fd2} 5 (6) <- peak
  add.f64 %fd1, %fd1, %fd2;       // {rd2 fd1} 3 (4)
  ld.param.u64 %rd1, [out];
  st.global.f64 [%rd1], %fd1;     // {rd2 fd1} and the pointer: 4 (6)
  st.global.u64 [%rd1+8], %rd2;
  ret;
}
)");
  EXPECT_EQ(function_liveness(m.fn("k"), {}, 64).in_order, 6u);
  EXPECT_EQ(function_liveness(m.fn("k"), {}, 32).in_order, 5u);  // doubles as one slot: 3
  // The target's width reaches the kernel's peak (a budget of 3 registers a thread, all of them
  // reserved: no room for a latency schedule to raise it above the PTX order's).
  EXPECT_EQ(live_register_peak(m.mod.program(), m.fn("k"), RegisterTarget{2304, 768, 32}), 5u);
  EXPECT_EQ(live_register_peak(m.mod.program(), m.fn("k"), RegisterTarget{2304, 768, 64}), 6u);
}

TEST(RegisterPressure, PredicatedDefinitionDoesNotKill) {
  // The guarded add may keep the first %r2, which so stays live up to the store: 4 before the
  // setp. Unguarded, the first %r2 would be dead and the peak 3.
  const std::string body = R"(
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  mov.u32 %r0, %tid.x;            // {r0} 1
  add.s32 %r2, %r0, 10;           // {r0 r2} 2
  add.s32 %r3, %r0, 20;           // {r0 r2 r3} 3
  add.s32 %r4, %r0, 30;           // {r0 r2 r3 r4} 4  <- peak
  setp.ne.s32 %p1, %r0, 0;        // {r2 r3 r4} 3
  GUARD add.s32 %r2, %r3, %r4;    // {r2} 1
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r2;      // 3
  ret;
}
)";
  auto with_guard = [&](const std::string& name, const std::string& guard) {
    std::string b = body;
    b.replace(b.find("GUARD"), 5, guard);
    return ".visible .entry " + name + "(.param .u64 out)" + b;
  };
  Loaded m(with_guard("guarded", "@%p1") + with_guard("plain", "    "));
  EXPECT_EQ(m.in_order("guarded"), 4u);
  EXPECT_EQ(m.in_order("plain"), 3u);
}

TEST(RegisterPressure, PredicatesBeyondThePredicateFileSpillIntoOneRegister) {
  // Up to 7 live predicates cost nothing, 8 or 9 one general register: with all nine live,
  // {r1 r2 r3 p1..p9} = 3 + 1 = 4; at the store {r2} + the pointer = 3.
  std::string text = R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<10>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;
)";
  for (int i = 1; i <= 9; ++i)
    text += "  setp.eq.s32 %p" + std::to_string(i) + ", %r1, " + std::to_string(i) + ";\n";
  text += "  add.s32 %r2, %r1, 1;\n  add.s32 %r3, %r1, 2;\n";
  for (int i = 1; i <= 9; ++i) text += "  @%p" + std::to_string(i) + " add.s32 %r2, %r2, 1;\n";
  text += "  add.s32 %r2, %r2, %r3;\n  add.s32 %r2, %r2, %r1;\n";
  text += "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";
  Loaded m(text);
  EXPECT_EQ(m.in_order("k"), 4u);  // 3 if predicates were free, 12 if each took a register
}

// ---- constants: parameters and immediates ---------------------------------------------------

TEST(RegisterPressure, ConstantsTakeARegisterOnlyWhereAnInstructionNeedsOne) {
  // Three pointers and a scalar from the parameters, immediates: none is held. The scalar
  // feeds an add (from the constant bank); the immediate 7 is stored (in a register there);
  // the stored zero is RZ.
  Loaded m(R"(.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 s)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [c];
  ld.param.u32 %r1, [s];
  mov.u32 %r2, 7;
  mov.u32 %r3, 0;
  mov.u32 %r0, %tid.x;            // {r0} 1
  add.s32 %r4, %r0, %r1;          // {r4} 1
  st.global.u32 [%rd1], %r4;      // {r4} + rd1: 3
  st.global.u32 [%rd2], %r2;      // rd2 and 7: 3
  st.global.u32 [%rd3], %r3;      // rd3: 2
  ret;
}
)");
  EXPECT_EQ(m.in_order("k"), 3u);
}

TEST(RegisterPressure, ConstantsNeededInALoopHoldARegisterAroundIt) {
  // The atomic's increment (1, in a register for the RED) and the index's multiplier (4, in a
  // register for IMAD.WIDE) are loaded once before the loop and held through it: with i and
  // the address, 5. Out of a loop they cost only where they are used: 4 at the atomic. The
  // base address and the bound stay in the constant bank.
  const std::string body = R"(
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [h];
  ld.param.u32 %r3, [n];
  mov.u32 %r1, %tid.x;            // {r1} 1
LOOP
  mul.wide.u32 %rd2, %r1, 4;      // {r1 rd2} 3, the 4 in a register
  add.s64 %rd3, %rd1, %rd2;       // {r1 rd3} 3
  red.global.add.u32 [%rd3], 1;   // {r1} + rd3 + 1: 4
  add.s32 %r1, %r1, 32;
  setp.lt.u32 %p1, %r1, %r3;
BACK
  ret;
}
)";
  auto kernel = [&](const std::string& name, bool loop) {
    std::string b = body;
    b.replace(b.find("LOOP"), 4, loop ? "$L_top:" : "");
    b.replace(b.find("BACK"), 4, loop ? "@%p1 bra $L_top;" : "");
    return ".visible .entry " + name + "(.param .u64 h, .param .u32 n)" + b;
  };
  Loaded m(kernel("looped", true) + kernel("once", false));
  EXPECT_EQ(m.in_order("once"), 4u);
  EXPECT_EQ(m.in_order("looped"), 5u);
}

// ---- what ptxas adds: latency scheduling --------------------------------------------------

// N independent loads summed, as nvcc emits `for (k < N) s += in[i + 4096 k]` unrolled: ptxas
// issues every load first and holds every result, two registers each, up to its budget.
// Measured with ptxas 13.0 (sm_80): 2 loads 10 registers, 4 loads 14, 8 loads 22, 12 or more
// 30-31.
std::string loads_summed(int n) {
  std::string t = ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
                  "  .reg .f32 %f<100>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<6>;\n"
                  "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
                  "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd3, %r0, 4;\n"
                  "  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n"
                  "  mov.f32 %f0, 0f00000000;\n";
  for (int i = 1; i <= n; ++i) {
    const std::string f = "%f" + std::to_string(i);
    t += "  ld.global.f32 " + f + ", [%rd4+" + std::to_string(16384 * i) + "];\n";
    t += "  add.f32 %f0, %f0, " + f + ";\n";
  }
  return t + "  st.global.f32 [%rd5], %f0;\n  ret;\n}\n";
}

TEST(RegisterPressure, LatencySchedulingHoistsLoadsUpToTheBudget) {
  uint32_t previous = 0;
  for (int n : {2, 4, 8, 12, 24}) {
    Loaded m(loads_summed(n));
    const uint32_t r = m.registers("k");
    // In PTX order each value dies at its add: a few registers whatever n is.
    EXPECT_LE(m.in_order("k"), 7u) << n;
    EXPECT_GE(r, previous) << n;
    EXPECT_LE(r, RegisterTarget{}.scheduling_budget()) << n;
    previous = r;
  }
  // Within two of ptxas's figures.
  EXPECT_NEAR(Loaded(loads_summed(4)).registers("k"), 14, 2);
  EXPECT_NEAR(Loaded(loads_summed(8)).registers("k"), 22, 2);
  EXPECT_NEAR(Loaded(loads_summed(24)).registers("k"), 30, 2);
}

// The budget is full occupancy on the SM the estimate is for: on a GeForce 8800 GTX (8192
// registers for 768 threads, 10 each) there is no room to schedule for, and the loads cost
// what the PTX order holds.
TEST(RegisterPressure, TheSchedulingBudgetIsFullOccupancyOnTheTargetSm) {
  DeviceOptions g80;
  g80.registers_per_sm = 8192;
  g80.max_threads_per_sm = 768;
  FunctionalDevice small(g80), large;
  const Module on_g80 = small.load_module(test::module(loads_summed(8)));
  const Module on_sm80 = large.load_module(test::module(loads_summed(8)));
  const Function& k = on_g80.kernel("k").function();
  EXPECT_EQ(k.registers_per_thread,
            std::max(function_liveness(k, {}).in_order + kReservedRegisters, 10u));
  EXPECT_GE(on_sm80.kernel("k").function().registers_per_thread, 20u);
}

// ---- calls ------------------------------------------------------------------------------

// A callee of pressure 3; arguments and results travel in .param memory.
const char* kCallee = R"(.func (.param .b32 ret) callee(.param .b32 a)
{
  .reg .b32 %r<6>;
  ld.param.u32 %r1, [a];          // {r1} 1
  add.s32 %r2, %r1, 1;            // {r1 r2} 2
  add.s32 %r3, %r1, 2;            // {r1 r2 r3} 3  <- peak
  add.s32 %r4, %r1, 3;            // {r2 r3 r4} 3
  add.s32 %r2, %r2, %r3;          // {r2 r4} 2
  add.s32 %r2, %r2, %r4;          // {r2} 1
  st.param.b32 [ret], %r2;
  ret;
}
)";

TEST(RegisterPressure, CallAddsTheCalleeOnTopOfWhatIsLiveAcrossIt) {
  // Across the call: {r0 r1} = 2, plus the callee's 3: 5. The caller alone peaks at 3.
  Loaded m(std::string(kCallee) + R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  mov.u32 %r0, %tid.x;            // {r0} 1
  add.s32 %r1, %r0, 7;            // {r0 r1} 2
  { .param .b32 a; .param .b32 r;
  st.param.b32 [a], %r1;          // {r0 r1} 2
  call.uni (r), callee, (a);      // across: {r0 r1} 2, + callee 3
  ld.param.b32 %r2, [r];          // {r0 r1 r2} 3
  }
  add.s32 %r2, %r2, %r1;          // {r0 r2} 2
  add.s32 %r2, %r2, %r0;          // {r2} 1
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r2;      // 3
  ret;
}
)");
  const Program& p = m.mod.program();
  EXPECT_EQ(live_register_peak(p, p.functions.at(0)), 3u);  // the callee alone
  EXPECT_EQ(m.in_order("k"), 3u);
  EXPECT_EQ(live_register_peak(p, m.fn("k")), 5u);
  // Inlined by ptxas: no ABI floor. 5 + 3 reserved.
  EXPECT_EQ(m.registers("k"), 8u);
}

TEST(RegisterPressure, RecursionAndPrintfGoThroughTheAbi) {
  // rec keeps {r1} = 1 live across its recursive call and adds nothing more for it.
  Loaded m(R"(.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);
.global .align 1 .b8 fmt[4] = {37, 100, 10, 0};
.func (.param .b32 ret) rec(.param .b32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  ld.param.u32 %r1, [n];          // {r1} 1
  setp.eq.s32 %p1, %r1, 0;        // {r1} 1
  @%p1 bra $L_done;
  add.s32 %r2, %r1, -1;           // {r1 r2} 2  <- peak
  { .param .b32 a; .param .b32 r;
  st.param.b32 [a], %r2;          // {r1} 1
  call.uni (r), rec, (a);         // across {r1} 1
  ld.param.b32 %r3, [r];          // {r1 r3} 2
  }
  add.s32 %r1, %r1, %r3;          // {r1} 1
$L_done:
  st.param.b32 [ret], %r1;
  ret;
}
.visible .entry recursive()
{
  .reg .b32 %r<2>;
  { .param .b32 a; .param .b32 r;
  st.param.b32 [a], 5;
  call.uni (r), rec, (a);
  ld.param.b32 %r1, [r];
  }
  ret;
}
.visible .entry prints()
{
  .reg .b64 %rd<3>;
  mov.u64 %rd1, fmt;
  cvta.global.u64 %rd2, %rd1;
  { .param .b64 f; .param .b64 a; .param .b32 r;
  st.param.b64 [f], %rd2;
  st.param.b64 [a], 0;
  call.uni (r), vprintf, (f, a);
  }
  ret;
}
)");
  EXPECT_EQ(live_register_peak(m.mod.program(), m.mod.program().functions[1]), 2u);
  // However little they hold, ptxas gives both the ABI's floor.
  EXPECT_EQ(m.registers("recursive"), kAbiMinimumRegisters);
  EXPECT_EQ(m.registers("prints"), kAbiMinimumRegisters);
}

// ---- caps --------------------------------------------------------------------------------

// 60 values loaded and summed in reverse: about 60 registers, whatever the order.
std::string heavy(const std::string& name, const std::string& directives) {
  std::string t = ".visible .entry " + name + "(.param .u64 p) " + directives +
                  "\n{\n  .reg .f32 %f<64>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n";
  for (int i = 1; i <= 60; ++i)
    t += "  ld.volatile.global.f32 %f" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * i) +
         "];\n";
  for (int i = 59; i >= 1; --i)
    t += "  add.f32 %f" + std::to_string(i) + ", %f" + std::to_string(i) + ", %f" +
         std::to_string(i + 1) + ";\n";
  return t + "  st.global.f32 [%rd1], %f1;\n  ret;\n}\n";
}

TEST(RegisterPressure, LaunchBoundsAndMaxnregCapAsPtxasDoes) {
  // ptxas 13.0 on a kernel that needs more: __launch_bounds__(1024, 2) gives 32 registers,
  // (256, 6) and (96, 16) 40 (65536 / 1536 = 42, in units of 8), __maxnreg__(40) 40.
  Loaded m(heavy("free", "") + heavy("b1024_2", ".maxntid 1024, 1, 1 .minnctapersm 2") +
           heavy("b256_6", ".maxntid 256, 1, 1 .minnctapersm 6") +
           heavy("b96_16", ".maxntid 96, 1, 1 .minnctapersm 16") +
           heavy("req128_12", ".reqntid 128, 1, 1 .minnctapersm 12") +
           heavy("mr40", ".maxnreg 40"));
  EXPECT_GE(m.registers("free"), 60u);
  EXPECT_EQ(m.fn("free").register_source, RegisterSource::Estimate);
  EXPECT_EQ(m.registers("b1024_2"), 32u);
  EXPECT_EQ(m.registers("b256_6"), 40u);
  EXPECT_EQ(m.registers("b96_16"), 40u);
  EXPECT_EQ(m.registers("req128_12"), 40u);
  EXPECT_EQ(m.fn("b256_6").register_source, RegisterSource::LaunchBounds);
  EXPECT_EQ(m.registers("mr40"), 40u);
  EXPECT_EQ(m.fn("mr40").register_source, RegisterSource::MaxNReg);
}

TEST(RegisterPressure, CountIsCappedAtTheIsaLimit) {
  // 130 .b64 values live at once: 260 slots, beyond R254: ptxas would spill.
  std::string text =
      ".visible .entry k(.param .u64 out)\n{\n  .reg .b64 %rd<132>;\n  .reg .b32 %r<2>;\n"
      "  mov.u32 %r1, %tid.x;\n";
  for (int i = 1; i <= 130; ++i)
    text += "  mul.wide.u32 %rd" + std::to_string(i) + ", %r1, " + std::to_string(i + 1) + ";\n";
  for (int i = 2; i <= 130; ++i) text += "  add.s64 %rd1, %rd1, %rd" + std::to_string(i) + ";\n";
  text += "  ld.param.u64 %rd0, [out];\n  st.global.u64 [%rd0], %rd1;\n  ret;\n}\n";
  Loaded m(text);
  EXPECT_GE(m.in_order("k"), 260u);
  EXPECT_EQ(m.registers("k"), kMaxRegistersPerThread);
}

TEST(RegisterPressure, EmptyKernelGetsTheMinimumAndForeignFunctionsAreRejected) {
  Loaded a(".visible .entry k()\n{\n  ret;\n}\n");
  Loaded b(".visible .entry k()\n{\n  ret;\n}\n");
  EXPECT_EQ(a.in_order("k"), 0u);
  EXPECT_EQ(a.registers("k"), kMinRegistersPerThread);  // ptxas: 4
  EXPECT_THROW(live_register_peak(a.mod.program(), b.fn("k")), std::invalid_argument);
}

}  // namespace
}  // namespace gpusoc::ptx
