// How many registers per thread ptxas gives a kernel, estimated from its PTX: what the
// GigaThread engine charges against an SM's register file when no ptxas report gives the exact
// count (ptxas_report.h). Held to ptxas 13.0 for sm_80 over sw/kernels and a corpus of
// benchmark-style kernels (tests/kernels/ptxas_corpus): see docs/ptx-coverage.md for the
// agreement.
//
// Method. Per function, liveness (register_liveness.h) in two orders: the PTX's, and a latency
// schedule's (latency_schedule.h) with what ptxas spends when it has room. A function needs
// the PTX order's peak, raised towards the schedule's peak up to a budget: full occupancy on the
// target SM (RegisterTarget: 32 registers on sm_80), or what the kernel's launch bounds allow
// with .minnctapersm. Calls: a kernel needs its own peak, and at each call what is live across the
// call plus the callee's need, as if ptxas inlined the callee. A call back into a function
// already on the call chain (recursion) adds only what is live across it. Recursive, indirect
// and device-runtime calls (vprintf, __assertfail) go through the ABI, which sets a floor of
// kAbiMinimumRegisters.
// The kernel's count is then its peak plus kReservedRegisters, at least the ABI floor when it
// makes such calls and kMinRegistersPerThread, at most kMaxRegistersPerThread, and capped by
// its launch bounds (.maxntid or .reqntid with .minnctapersm, on the target's register file)
// and .maxnreg as ptxas caps them (spilling the rest to local memory). The SM rounds it to its
// allocation unit when it places CTAs (sm.register_allocation_unit).
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
/// The fewest registers ptxas reports: 4 for an empty sm_80 kernel.
constexpr uint32_t kMinRegistersPerThread = 4;

/// The SM a kernel's registers are estimated for. ptxas lets a latency schedule raise a kernel's
/// registers up to full occupancy (the register file over the most resident threads: 32 on
/// sm_80, whose figures are the defaults), and shares the register file among the CTAs that
/// launch bounds ask for. Measured with ptxas 13.0 for sm_80: N independent loads, shuffles or
/// conversions whose results are stored raise the count by about two each, up to 30-32 however
/// many there are.
struct RegisterTarget {
  uint32_t registers_per_sm = 65536;
  uint32_t max_threads_per_sm = 2048;
  /// 64: registers as the PTX declares them. 32: an SM that addresses memory with 32 bits
  /// (compute capability 1.x), where ptxas keeps pointers and their arithmetic in one register:
  /// the PTX's 64-bit integer registers take one slot each (see register_liveness.h).
  uint32_t address_bits = 64;
  /// Registers per thread at full occupancy: how far scheduling may go.
  uint32_t scheduling_budget() const {
    return max_threads_per_sm ? registers_per_sm / max_threads_per_sm : kMaxRegistersPerThread;
  }
};

/// Peak live 32-bit general-register slots of `kernel` with its callees (for `target`), before
/// reserved registers and caps. `kernel` must be one of `program.functions`
/// (std::invalid_argument otherwise).
uint32_t live_register_peak(const Program& program, const Function& kernel,
                            const RegisterTarget& target = {});

/// Registers per thread as ptxas would report them ("Used N registers"), before the SM rounds
/// them to its allocation unit: the peak plus kReservedRegisters (at least kAbiMinimumRegisters
/// when it makes ABI calls), at most kMaxRegistersPerThread and at least
/// kMinRegistersPerThread. Returns Function::registers_per_thread when the loader filled it.
uint32_t registers_per_thread(const Program& program, const Function& kernel,
                              const RegisterTarget& target = {});

/// Fills Function::registers_per_thread of every kernel for `target`; the loader calls it once
/// per module.
void cache_registers_per_thread(Program& program, const RegisterTarget& target = {});

}  // namespace gpusoc::ptx
