// Kernel parameters and immediates, which ptxas keeps out of registers: it reads parameters
// from the constant bank and encodes immediates in the instruction, so such a value takes a
// register only where an instruction needs it in one. Where that instruction is inside a loop,
// ptxas loads the value once before the loop, and it holds a register for the whole loop.
//
// Which values: registers every definition of which is a kernel parameter (ld.param), an
// immediate or a symbol's address, or a move or address conversion of another such register;
// zero is the zero register and never takes one. Which uses need a register: every operand of
// a memory instruction (address and data); an ALU instruction's operands beyond the one it
// reads from the constant bank; the immediate of a widening multiply (ptxas fuses it with the
// add of a base address into IMAD.WIDE, whose constant-bank operand is the base). Only the
// memory operands and multipliers are held around loops; ptxas reloads the others from the
// constant bank where they are used. Loops are the pcs from a backward branch's target to the
// branch.
#pragma once

#include <cstdint>
#include <vector>

#include "models/ptx/program.h"

namespace gpusoc::ptx {

class ConstantOperands {
 public:
  /// `code` is `fn`'s body (possibly if-converted); `special[r]` marks hidden registers.
  ConstantOperands(const Function& fn, const std::vector<Inst>& code,
                   const std::vector<bool>& special);

  bool is_constant(uint32_t reg) const { return reg < constant_.size() && constant_[reg]; }
  /// Register slots constants hold at `pc`: those it needs in registers, and those any loop
  /// around it needs.
  uint32_t slots_at(uint32_t pc) const { return slots_[pc]; }

 private:
  // A constant that needs a register: a constant register, or an immediate's bits.
  struct Key {
    bool immediate;
    uint64_t value;  // register index or bits
    uint32_t slots;
    bool hoisted;  // held around loops: addresses, strides, atomic operands
    bool operator==(const Key& o) const { return immediate == o.immediate && value == o.value; }
  };
  void find_constants(const std::vector<bool>& special);
  bool constant_definition(const Inst& in) const;
  std::vector<Key> needed_at(const Inst& in) const;
  uint32_t slots_of(uint32_t reg) const;

  const Function& fn_;
  const std::vector<Inst>& code_;
  std::vector<bool> constant_;
  std::vector<bool> zero_;  // constant registers that are always 0
  std::vector<uint32_t> slots_;
};

}  // namespace gpusoc::ptx
