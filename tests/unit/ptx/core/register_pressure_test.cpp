// Register estimates from liveness: small kernels worked out by hand (the set live after each
// instruction, in 32-bit slots: .b32 1, .b64 2, predicates 0), and bounds over sw/kernels.
#include "models/ptx/register_pressure.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "models/ptx/device.h"
#include "tests/unit/ptx/core/ptx_snippets.h"

namespace gpusoc::ptx {
namespace {

struct Loaded {
  FunctionalDevice dev;
  Module mod;
  explicit Loaded(const std::string& text) : mod(dev.load_module(test::module(text), "t.ptx")) {}
  const Function& fn(const std::string& name) const { return mod.kernel(name).function(); }
  uint32_t peak(const std::string& name) const {
    return live_register_peak(mod.program(), fn(name));
  }
};

// What registers_per_thread must give for a peak, from the documented constants.
uint32_t expected_allocation(uint32_t peak, bool abi_calls) {
  uint32_t used = std::min(peak + kReservedRegisters, kMaxRegistersPerThread);
  if (abi_calls) used = std::max(used, kAbiMinimumRegisters);
  const uint32_t g = kRegisterAllocationGranularity;
  return std::max(kMinRegistersPerThread, (used + g - 1) / g * g);
}

TEST(RegisterPressure, StraightLine) {
  Loaded m(R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];       // {rd1} 2
  mov.u32 %r1, 1;                 // {rd1 r1} 3
  mov.u32 %r2, 2;                 // {rd1 r1 r2} 4
  mov.u32 %r3, 3;                 // {rd1 r1 r2 r3} 5  <- peak
  add.s32 %r4, %r1, %r2;          // {rd1 r3 r4} 4
  add.s32 %r4, %r4, %r3;          // {rd1 r4} 3
  cvta.to.global.u64 %rd2, %rd1;  // {rd2 r4} 3
  st.global.u32 [%rd2], %r4;      // {} 0
  ret;
}
)");
  EXPECT_EQ(m.peak("k"), 5u);
  // 5 + 3 reserved = 8, one allocation unit.
  EXPECT_EQ(registers_per_thread(m.mod.program(), m.fn("k")), 8u);
}

TEST(RegisterPressure, LoopCarriedValueStaysLiveAroundTheBackEdge) {
  // %r6 is read only at the loop's top, but the back edge keeps it live through the body: 5
  // after the mul. Without the back edge it would die at the first add (peak 4).
  Loaded m(R"(.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  ld.param.u32 %r1, [n];          // {r1} 1
  mov.u32 %r2, 0;                 // {r1 r2} 2
  mov.u32 %r3, 0;                 // {r1 r2 r3} 3
  mov.u32 %r6, 5;                 // {r1 r2 r3 r6} 4
$L_top:
  add.s32 %r3, %r3, %r6;          // {r1 r2 r3 r6} 4
  mul.lo.s32 %r4, %r2, %r2;       // {r1 r2 r3 r4 r6} 5  <- peak
  add.s32 %r3, %r3, %r4;          // {r1 r2 r3 r6} 4
  add.s32 %r2, %r2, 1;            // 4
  setp.lt.u32 %p1, %r2, %r1;      // 4 (+p1, not a general register)
  @%p1 bra $L_top;                // 4 on the back edge, {r3} on exit
  ld.param.u64 %rd1, [out];       // {rd1 r3} 3
  cvta.to.global.u64 %rd2, %rd1;  // {rd2 r3} 3
  st.global.u32 [%rd2], %r3;
  ret;
}
)");
  EXPECT_EQ(m.peak("k"), 5u);
}

TEST(RegisterPressure, DiamondTakesTheBusierArmNotTheSum) {
  // %r1 is read at the join, so live through both arms. Then-arm: 5; else-arm: 3. The peak
  // is 5 (the arms never coexist: 5 + 3 would be wrong).
  Loaded m(R"(.visible .entry k(.param .u64 out, .param .u32 c)
{
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<3>;
  ld.param.u32 %r1, [c];          // {r1} 1
  setp.eq.s32 %p1, %r1, 0;        // {r1} 1
  @%p1 bra $L_else;
  mov.u32 %r2, 1;                 // {r1 r2} 2
  mov.u32 %r3, 2;                 // {r1 r2 r3} 3
  mov.u32 %r4, 3;                 // {r1 r2 r3 r4} 4
  mov.u32 %r5, 4;                 // {r1 r2 r3 r4 r5} 5  <- peak
  add.s32 %r2, %r2, %r3;          // {r1 r2 r4 r5} 4
  add.s32 %r4, %r4, %r5;          // {r1 r2 r4} 3
  add.s32 %r6, %r2, %r4;          // {r1 r6} 2
  bra $L_join;
$L_else:
  mov.u32 %r8, 5;                 // {r1 r8} 2
  mov.u32 %r9, 6;                 // {r1 r8 r9} 3
  add.s32 %r6, %r8, %r9;          // {r1 r6} 2
$L_join:
  add.s32 %r7, %r6, %r1;          // {r7} 1
  ld.param.u64 %rd1, [out];       // {rd1 r7} 3
  cvta.to.global.u64 %rd2, %rd1;  // {rd2 r7} 3
  st.global.u32 [%rd2], %r7;
  ret;
}
)");
  EXPECT_EQ(m.peak("k"), 5u);
}

TEST(RegisterPressure, SixtyFourBitRegistersTakeTwoSlots) {
  Loaded m(R"(.visible .entry k(.param .u64 out)
{
  .reg .b64 %rd<6>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];       // {rd1} 2
  mov.u64 %rd2, 1;                // {rd1 rd2} 4
  mov.u64 %rd3, 2;                // {rd1 rd2 rd3} 6
  mov.u32 %r1, 3;                 // {rd1 rd2 rd3 r1} 7
  cvt.u64.u32 %rd4, %r1;          // {rd1 rd2 rd3 rd4} 8  <- peak
  add.s64 %rd2, %rd2, %rd3;       // {rd1 rd2 rd4} 6
  add.s64 %rd2, %rd2, %rd4;       // {rd1 rd2} 4
  cvta.to.global.u64 %rd5, %rd1;  // {rd5 rd2} 4
  st.global.u64 [%rd5], %rd2;
  ret;
}
)");
  EXPECT_EQ(m.peak("k"), 8u);  // counting every register as one slot would give 4
  EXPECT_EQ(registers_per_thread(m.mod.program(), m.fn("k")), 16u);  // 8 + 3 -> 16
}

TEST(RegisterPressure, PredicatedDefinitionDoesNotKill) {
  // The guarded add may keep the first %r2, which so stays live up to the store: 4 before the
  // setp. Unguarded, the first %r2 would be dead and the peak 3 (the pointer part).
  const std::string body = R"(
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  ld.param.u32 %r1, [c];          // {r1} 1
  mov.u32 %r2, 10;                // {r1 r2} 2
  mov.u32 %r3, 20;                // {r1 r2 r3} 3
  mov.u32 %r4, 30;                // {r1 r2 r3 r4} 4  <- peak
  setp.ne.s32 %p1, %r1, 0;        // {r2 r3 r4} 3
  GUARD add.s32 %r2, %r3, %r4;    // {r2} 1
  ld.param.u64 %rd1, [out];       // {rd1 r2} 3
  cvta.to.global.u64 %rd2, %rd1;  // {rd2 r2} 3
  st.global.u32 [%rd2], %r2;
  ret;
}
)";
  auto with_guard = [&](const std::string& name, const std::string& guard) {
    std::string b = body;
    b.replace(b.find("GUARD"), 5, guard);
    return ".visible .entry " + name + "(.param .u64 out, .param .u32 c)" + b;
  };
  Loaded m(with_guard("guarded", "@%p1") + with_guard("plain", "    "));
  EXPECT_EQ(m.peak("guarded"), 4u);
  EXPECT_EQ(m.peak("plain"), 3u);
}

TEST(RegisterPressure, PredicatesBeyondThePredicateFileSpillIntoOneRegister) {
  // Up to 7 live predicates cost nothing, 8 or 9 one general register. After the eighth setp:
  // {rd2 r1 p1..p8} = 2+1+1 = 4; after the mov: {rd2 r2 p1..p9} = 2+1+1 = 4; then 3.
  std::string text = R"(.visible .entry k(.param .u64 out, .param .u32 c)
{
  .reg .pred %p<10>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [c];
)";
  for (int i = 1; i <= 9; ++i)
    text += "  setp.eq.s32 %p" + std::to_string(i) + ", %r1, " + std::to_string(i) + ";\n";
  text += "  mov.u32 %r2, 0;\n";
  for (int i = 1; i <= 9; ++i) text += "  @%p" + std::to_string(i) + " add.s32 %r2, %r2, 1;\n";
  text += "  st.global.u32 [%rd2], %r2;\n  ret;\n}\n";
  Loaded m(text);
  EXPECT_EQ(m.peak("k"), 4u);  // 3 if predicates were free, 12 if each took a register
}

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
  // Across the call: {rd1 r1} = 3, plus the callee's 3: 6. The caller alone peaks at 4.
  Loaded m(std::string(kCallee) + R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];       // {rd1} 2
  mov.u32 %r1, 7;                 // {rd1 r1} 3
  { .param .b32 a; .param .b32 r;
  st.param.b32 [a], %r1;          // {rd1 r1} 3
  call.uni (r), callee, (a);      // across: {rd1 r1} 3, + callee 3
  ld.param.b32 %r2, [r];          // {rd1 r1 r2} 4
  }
  add.s32 %r2, %r2, %r1;          // {rd1 r2} 3
  cvta.to.global.u64 %rd2, %rd1;  // {rd2 r2} 3
  st.global.u32 [%rd2], %r2;
  ret;
}
)");
  const Program& p = m.mod.program();
  EXPECT_EQ(live_register_peak(p, p.functions.at(0)), 3u);  // the callee alone
  EXPECT_EQ(m.peak("k"), 6u);
  // Inlined by ptxas: no ABI floor. 6 + 3 = 9 -> 16.
  EXPECT_EQ(registers_per_thread(p, m.fn("k")), 16u);
}

TEST(RegisterPressure, RecursiveFunctionIsCountedOnce) {
  // rec alone peaks at 2; its recursive call keeps {r1} = 1 live across and adds nothing
  // more. The kernel keeps {rd1} = 2 across its call: 2 + 2 = 4.
  Loaded m(R"(.func (.param .b32 ret) rec(.param .b32 n)
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
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];       // {rd1} 2
  { .param .b32 a; .param .b32 r;
  st.param.b32 [a], 5;
  call.uni (r), rec, (a);         // across {rd1} 2, + rec 2
  ld.param.b32 %r1, [r];          // {rd1 r1} 3
  }
  cvta.to.global.u64 %rd2, %rd1;  // {rd2 r1} 3
  st.global.u32 [%rd2], %r1;
  ret;
}
)");
  EXPECT_EQ(live_register_peak(m.mod.program(), m.mod.program().functions[0]), 2u);
  EXPECT_EQ(m.peak("k"), 4u);
  // A recursive callee is called through the ABI: 4 + 3 = 7 is raised to the floor of 24.
  EXPECT_EQ(registers_per_thread(m.mod.program(), m.fn("k")), kAbiMinimumRegisters);
}

TEST(RegisterPressure, PrintfGoesThroughTheAbi) {
  // Nothing is live across vprintf; the format address {rd2} = 2 is the most ever live.
  Loaded m(R"(.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);
.global .align 1 .b8 fmt[4] = {37, 100, 10, 0};
.visible .entry k()
{
  .reg .b64 %rd<3>;
  mov.u64 %rd1, fmt;              // {rd1} 2
  cvta.global.u64 %rd2, %rd1;     // {rd2} 2
  { .param .b64 f; .param .b64 a; .param .b32 r;
  st.param.b64 [f], %rd2;         // {} 0
  st.param.b64 [a], 0;
  call.uni (r), vprintf, (f, a);
  }
  ret;
}
)");
  EXPECT_EQ(m.peak("k"), 2u);
  EXPECT_EQ(registers_per_thread(m.mod.program(), m.fn("k")), kAbiMinimumRegisters);
}

TEST(RegisterPressure, AllocationIsCappedAtTheIsaLimit) {
  // 130 .b64 values live at once plus the pointer: 262 slots, beyond R254: ptxas would
  // spill; the allocation stops at 255 registers, rounded to 256.
  std::string text =
      ".visible .entry k(.param .u64 out)\n{\n  .reg .b64 %rd<132>;\n"
      "  ld.param.u64 %rd0, [out];\n";
  for (int i = 1; i <= 130; ++i) text += "  mov.u64 %rd" + std::to_string(i) + ", 1;\n";
  for (int i = 2; i <= 130; ++i) text += "  add.s64 %rd1, %rd1, %rd" + std::to_string(i) + ";\n";
  text += "  st.global.u64 [%rd0], %rd1;\n  ret;\n}\n";
  Loaded m(text);
  EXPECT_EQ(m.peak("k"), 262u);
  EXPECT_EQ(registers_per_thread(m.mod.program(), m.fn("k")), 256u);
}

TEST(RegisterPressure, EmptyKernelGetsTheMinimumAndForeignFunctionsAreRejected) {
  Loaded a(".visible .entry k()\n{\n  ret;\n}\n");
  Loaded b(".visible .entry k()\n{\n  ret;\n}\n");
  EXPECT_EQ(a.peak("k"), 0u);
  EXPECT_EQ(registers_per_thread(a.mod.program(), a.fn("k")), kMinRegistersPerThread);
  EXPECT_THROW(live_register_peak(a.mod.program(), b.fn("k")), std::invalid_argument);
}

// 32-bit slots a register takes, or 0 for predicates, from its declared type.
uint32_t slots(const Function& f, uint32_t reg) {
  const ScalarType t = reg < f.reg_types.size() ? f.reg_types[reg] : ScalarType::B32;
  return t == ScalarType::Pred ? 0 : std::max(1u, (type_size(t) + 3) / 4);
}

// The most general-register slots one instruction names at once (distinct sources, or
// distinct destinations): no allocation can do with less.
uint32_t largest_operand_need(const Function& f) {
  uint32_t most = 0;
  for (const Inst& in : f.code) {
    std::set<uint32_t> dst, src;
    for (unsigned i = 0; i < in.num_dst; ++i)
      if (in.dst(i).kind == Operand::Kind::Reg) dst.insert(in.dst(i).reg);
    for (unsigned i = 0; i < in.num_src; ++i) {
      const Operand& o = in.src(i);
      if ((o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Addr) && o.reg != kNoReg)
        src.insert(o.reg);
    }
    uint32_t d = 0, s = 0;
    for (uint32_t r : dst) d += slots(f, r);
    for (uint32_t r : src) s += slots(f, r);
    most = std::max({most, d, s});
  }
  return most;
}

// Every virtual register of a function held at once: general registers in slots, predicates
// packed 32 to a register.
uint32_t virtual_slots(const Function& f) {
  uint32_t total = 0, preds = 0;
  for (uint32_t r = 0; r < f.num_regs; ++r) {
    total += slots(f, r);
    preds += slots(f, r) == 0;
  }
  return total + (preds + 31) / 32;
}

// The kernel's virtual registers; when it calls, those of every function of the module too
// (no call chain holds a function twice).
uint32_t virtual_slots(const Program& p, const Function& kernel) {
  uint32_t total = virtual_slots(kernel);
  for (const Function& f : p.functions)
    if (!kernel.call_sites.empty() && f.has_body && &f != &kernel) total += virtual_slots(f);
  return total;
}

// The kernels of sw/kernels whose CUDA source calls printf or a recursive function.
const std::set<std::string> kAbiCallers = {"printf_values", "fault_stack_overflow", "device_calls"};

TEST(RegisterPressure, RealKernelsLieBetweenOperandNeedAndVirtualRegisterCount) {
  const std::filesystem::path dir = std::filesystem::path(GPUSOC_SOURCE_DIR) / "sw/kernels";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 20u);
  unsigned kernels = 0;
  for (const auto& path : files) {
    FunctionalDevice dev;
    const Module mod = dev.load_module_file(path.string());
    const Program& p = mod.program();
    for (const std::string& name : mod.kernel_names()) {
      const Function& k = mod.kernel(name).function();
      const uint32_t peak = live_register_peak(p, k);
      SCOPED_TRACE(path.filename().string() + ": " + name);
      EXPECT_GE(peak, largest_operand_need(k));
      EXPECT_LE(peak, virtual_slots(p, k));
      EXPECT_EQ(k.registers_per_thread,  // cached at load
                expected_allocation(peak, kAbiCallers.count(name) != 0));
      EXPECT_EQ(registers_per_thread(p, k), k.registers_per_thread);
      std::cout << "  " << path.stem().string() << " " << name << ": peak " << peak << ", estimate "
                << peak + kReservedRegisters << ", allocated " << k.registers_per_thread << "\n";
      ++kernels;
    }
  }
  EXPECT_GE(kernels, 30u);
}

}  // namespace
}  // namespace gpusoc::ptx
