// Register liveness of one function, the way ptxas's allocation sees it (register_pressure.h
// combines functions along the call graph and applies what ptxas adds and caps):
//  - general registers count in 32-bit slots (8/16/32-bit 1, 64-bit 2, 128-bit 4), except that
//    for a 32-bit-address SM a 64-bit integer register counts 1: nvcc's 64-bit PTX holds
//    pointers and their offsets in them, which a 32-bit target keeps in one register (this
//    undercounts genuine 64-bit integers, rare in code written for such SMs); predicates
//    live in the predicate file and count only beyond it (kPredicateRegisters, then one
//    general register per 32);
//  - a guarded definition does not kill; a register read before any write is live at entry;
//  - special registers and constants (constant_operands.h) count only where an instruction
//    needs them in a register;
//  - the code is if-converted first (latency_schedule.h), as ptxas predicates short branches.
// Two peaks. In PTX order: the most slots any instruction needs (what is live before it, or
// live after it plus its destinations). In a latency schedule's order (latency_schedule.h),
// with what ptxas spends when it has room: a variable-latency result (memory, shuffles,
// conversions, transcendentals) holds a second register until its first use, and a 32-bit
// value stored to memory takes the odd half of a register pair.
#pragma once

#include <cstdint>
#include <vector>

#include "models/ptx/program.h"

namespace gpusoc::ptx {

constexpr uint32_t kNoCallee = 0xffffffffu;

/// What liveness found in one function, for the call graph to combine.
struct FunctionLiveness {
  uint32_t in_order = 0;   // general-register slots at the busiest instruction, in PTX order
  uint32_t scheduled = 0;  // and in the latency schedule's order
  struct Call {
    uint32_t live_across = 0;     // general-register slots live across the call (PTX order)
    uint32_t callee = kNoCallee;  // function index; kNoCallee: vprintf, __assertfail, indirect
  };
  std::vector<Call> calls;  // indirect calls: one entry per possible callee
};

/// The liveness of `fn`; `indirect_callees` are the functions an indirect call may reach;
/// `address_bits` is the target SM's (RegisterTarget::address_bits: 32 or 64).
FunctionLiveness function_liveness(const Function& fn,
                                   const std::vector<uint32_t>& indirect_callees,
                                   uint32_t address_bits = 64);

}  // namespace gpusoc::ptx
