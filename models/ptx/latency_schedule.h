// The order a latency-driven list scheduler puts a basic block in, the way ptxas schedules
// before allocating registers: long-latency instructions (loads, shuffles, transcendentals)
// start as early as their operands allow, so that their latency overlaps other work. That
// order holds more values live at once than the PTX order does, and ptxas spends registers on
// it (within a budget, which the register estimate applies).
//
// Method. Per block, a dependence graph: a read after a write waits for the writer's latency;
// writes after reads and writes stay in order; loads stay after earlier stores and stores after
// earlier loads and stores of memory; barriers, fences, calls and clock reads order everything
// around them; the block's branch or return stays last. Each cycle the ready instruction with
// the longest latency-weighted path to the block's end issues (the earlier one on a tie).
#pragma once

#include <cstdint>
#include <vector>

#include "models/ptx/program.h"

namespace gpusoc::ptx {

/// Cycles until an instruction's result can be used, as the scheduler assumes them (sm_80-like
/// figures: ALU 4, FP64 8, conversions 6, transcendentals 20, shared memory and shuffles 30,
/// global and local memory 400).
uint32_t schedule_latency(const Inst& in);

/// `code` with the short forward branches that ptxas turns into predicated code (if-conversion)
/// replaced by Nops: a guarded branch over at most kIfConversionLimit instructions with no
/// control flow or synchronization among them and no other way in, and the two arms of such an
/// if/else. The arms then read as straight code, which the scheduler may interleave. Repeated
/// until nothing changes, so that nested ones go too. Pcs stay where they were.
std::vector<Inst> if_converted(const std::vector<Inst>& code);
constexpr uint32_t kIfConversionLimit = 16;

/// The pcs [first, last] of `code` (the body of `fn`, possibly if-converted) in scheduled order.
std::vector<uint32_t> latency_order(const Function& fn, const std::vector<Inst>& code,
                                    uint32_t first, uint32_t last);

}  // namespace gpusoc::ptx
