// Per-lane semantics of PTX's ALU, conversion, transcendental and warp-level instructions.
// The decoder calls select_handler() once per instruction at module load and stores the result in
// Inst::exec; the executor then calls it for every warp that runs the instruction.
#pragma once

#include <string>

#include "models/ptx/inst.h"

namespace gpusoc::ptx {

/// The handler that executes `in` (an op from Mov through Match, with its types, modes, rounding
/// and flags filled in), or nullptr with `why_not` naming the unsupported combination.
ExecFn select_handler(const Inst& in, std::string& why_not);

/// How the instruction occupies the machine (Int, Fp32, Fp64, Sfu, Conversion, Move, WarpLevel).
InstClass classify(const Inst& in);

}  // namespace gpusoc::ptx
