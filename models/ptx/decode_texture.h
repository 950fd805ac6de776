// Decoding of the texture and surface instructions (tex, tld4, txq, suld, sust, sured, suq;
// internal to the decoder): modifiers into Inst fields, and the bracketed [object, {coords}]
// operand into the flat operand order of inst.h. Forms we do not run fail here, naming the part.
#pragma once

#include <string>
#include <vector>

#include "models/ptx/ast.h"
#include "models/ptx/inst.h"

namespace gpusoc::ptx::detail {

bool is_texture_opcode(const std::string& opcode);

/// The instruction's operands in Inst order: destinations, then the object, the coordinates and
/// the values stored. `object_is_variable`: the object is a .texref/.surfref name (resolved by the
/// caller), else a register or immediate holding a handle.
struct TextureOperands {
  std::vector<ast::Operand> dst, src;
};

/// Fills op, sub, sub2, type, type2, vec, flags and target; false with `error` set when the
/// form is not one we run.
bool decode_texture(const ast::Instruction& ai, Inst& in, TextureOperands& ops, std::string& error);

}  // namespace gpusoc::ptx::detail
