// The registers an instruction reads and writes, for the analyses over decoded code (register
// pressure, scheduling): operands, the guard, the carry flag, an indirect call's target.
#pragma once

#include "models/ptx/program.h"

namespace gpusoc::ptx {

/// Calls and the device-runtime calls the core provides (vprintf, __assertfail).
inline bool is_call(const Inst& in) {
  return in.op == Op::Call || in.op == Op::Vprintf || (in.op == Op::Trap && in.sub == 1);
}

template <typename F>
void for_each_use(const Function& fn, const Inst& in, F f) {
  for (unsigned i = 0; i < in.num_src; ++i) {
    const Operand& o = in.src(i);
    if ((o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Addr) && o.reg != kNoReg)
      f(o.reg);
  }
  if (in.guard != kNoReg) f(in.guard);
  if (in.flags & kCarryIn) f(kCarryReg);
  if (is_call(in) && in.target < fn.call_sites.size() &&
      fn.call_sites[in.target].callee_reg != kNoReg)
    f(fn.call_sites[in.target].callee_reg);
}

template <typename F>
void for_each_def(const Inst& in, F f) {
  for (unsigned i = 0; i < in.num_dst; ++i) {
    const Operand& o = in.dst(i);
    if (o.kind == Operand::Kind::Reg && o.reg != kNoReg) f(o.reg);
  }
  if (in.flags & kCarryOut) f(kCarryReg);
}

}  // namespace gpusoc::ptx
