// How many hardware registers per thread a kernel needs, estimated from the liveness of its
// PTX virtual registers: what a register allocator (ptxas) would need, since PTX declares as
// many virtual registers as it likes. The GigaThread engine checks registers per thread times
// threads per CTA against an SM's register file.
//
// Method. Per function, a backward dataflow liveness over the decoded code and its control flow
// (ControlFlowGraph: branch targets, fall-through, ret/exit/trap end a path). A guarded
// instruction does not kill its destinations (the old value survives in lanes whose guard is
// false); registers read before any write are live at entry. At each instruction the need is
// the larger of what is live before it (its sources included) and what is live after it plus
// its destinations (a dead destination still needs a register for the write); the function's
// pressure is the largest need. Register classes:
//  - general registers count in 32-bit slots: 8/16/32-bit registers 1, 64-bit 2, 128-bit 4;
//  - predicates (and the carry flag) live in the separate predicate file, kPredicateRegisters
//    per thread, and are not counted; when more are live at once, ptxas moves the excess into
//    general registers (P2R), charged one general register per 32 predicates;
//  - special registers (%tid, %ctaid, ...) are counted only at the instructions that read them:
//    ptxas reads them (S2R) where they are used, never keeps them live from entry.
// Calls: a kernel needs its own pressure, and at each call what is live across the call plus
// the callee's need (arguments and results travel in .param memory, not registers), as if
// ptxas inlined the callee. Predicates live across a call are saved in general registers (the
// callee may use the whole predicate file). A call back into a function already on the call
// chain (recursion) adds only what is live across it: the recursive function is counted once,
// as the ABI saves registers on the stack per activation rather than holding them all.
// Indirect calls may reach any .func of the module with a body; vprintf and __assertfail add
// nothing beyond what is live across them. Recursive, indirect and device-runtime calls cannot
// be inlined: they go through the ABI, which sets a floor of kAbiMinimumRegisters.
// The kernel's figure is then its peak plus kReservedRegisters (at least the ABI floor when it
// makes such calls), capped at the ISA's limit (beyond it ptxas spills to local memory), and
// rounded up to the allocation granularity.
//
// Not modelled: ptxas schedules for latency and spends registers on it freely up to the
// full-occupancy budget (32 per thread on sm_80), and lowers some PTX instructions (64-bit
// bit operations, division, conversions) to sequences with temporaries; both make its figure
// larger than this estimate for kernels with much independent work. It also re-reads kernel
// parameters from the constant bank instead of holding them, which makes it smaller.
#pragma once

#include <cstdint>

#include "models/ptx/program.h"

namespace gpusoc::ptx {

/// Predicate registers per thread on sm_50 and later (P0-P6; PT is the constant true).
constexpr uint32_t kPredicateRegisters = 7;
/// Registers ptxas counts beyond the program's values: R1, the stack pointer loaded in every
/// kernel's prologue, and two it adds above the highest register used. Measured with ptxas
/// 13.0 for sm_80: a kernel holding N f32 values live at once (N volatile shared loads summed
/// in reverse order, N = 4..40) is reported as N + 3 registers; an empty kernel (R1 only) as 4.
constexpr uint32_t kReservedRegisters = 3;
/// Registers a kernel making ABI calls gets at least: ptxas 13.0 reports 24 for any sm_80
/// kernel that calls vprintf, __assertfail or a recursive function, however little it holds,
/// and raises -maxrregcount below 24 to 24.
constexpr uint32_t kAbiMinimumRegisters = 24;
/// The most registers a thread can have: R0-R254 (R255 is the zero register RZ).
constexpr uint32_t kMaxRegistersPerThread = 255;
/// Registers are allocated per warp in units of 256, i.e. 8 per thread.
constexpr uint32_t kRegisterAllocationGranularity = 8;
/// The smallest allocation: one unit.
constexpr uint32_t kMinRegistersPerThread = kRegisterAllocationGranularity;

/// Peak live 32-bit general-register slots of `kernel` with its callees, before reserved
/// registers, the cap and rounding. `kernel` must be one of `program.functions`
/// (std::invalid_argument otherwise).
uint32_t live_register_peak(const Program& program, const Function& kernel);

/// Registers per thread the kernel would be allocated: its peak plus kReservedRegisters (at
/// least kAbiMinimumRegisters when it makes ABI calls), at most kMaxRegistersPerThread, rounded
/// up to kRegisterAllocationGranularity and at least kMinRegistersPerThread. Returns
/// Function::registers_per_thread when the loader filled it.
uint32_t registers_per_thread(const Program& program, const Function& kernel);

/// Fills Function::registers_per_thread of every kernel; the decoder calls it once per module.
void cache_registers_per_thread(Program& program);

}  // namespace gpusoc::ptx
