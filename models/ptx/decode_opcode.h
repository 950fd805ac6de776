// Opcode and modifier decoding of one instruction (internal to the decoder).
#pragma once

#include <string>

#include "models/ptx/ast.h"
#include "models/ptx/inst.h"

namespace gpusoc::ptx::detail {

struct OpcodeShape {
  bool l2_cache_hint = false;  // .L2::cache_hint: a trailing cache-policy operand to drop
  bool is_call = false;
  bool is_mbarrier_try = false;
  int min_src = 0, max_src = 0;  // source operand counts (after vector flattening of st)
};

/// Fills op, cls-independent fields (types, sub modes, rounding, flags, space, vec) from the
/// opcode and modifiers. Returns false with `error` set when the combination is not PTX we run.
bool decode_opcode(const ast::Instruction& ai, Inst& in, OpcodeShape& shape, std::string& error);

}  // namespace gpusoc::ptx::detail
