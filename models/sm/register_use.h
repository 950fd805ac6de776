// The registers an instruction reads and writes, numbered across call frames (frame + register
// index), for the scoreboard (RAW and WAW) and the operand collector. Sources come first, then
// destinations, in one array, so that the scoreboard checks both without copying.
#pragma once

#include <algorithm>
#include <cstdint>

#include "models/ptx/inst.h"

namespace gpusoc::sm {

struct RegisterUse {
  // One register per operand at most, then the guard, carry in and carry out.
  static constexpr unsigned kMax = ptx::kMaxOperands + 3;
  uint32_t regs[kMax];
  unsigned num_sources = 0, num_dests = 0;

  RegisterUse() = default;
  RegisterUse(const ptx::Inst& in, uint32_t frame) {
    using ptx::Operand;
    unsigned n = 0;
    for (unsigned i = 0; i < in.num_src; ++i) {
      const Operand& o = in.src(i);
      if ((o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Addr) && o.reg != ptx::kNoReg)
        regs[n++] = frame + o.reg;
    }
    if (in.guard != ptx::kNoReg) regs[n++] = frame + in.guard;
    if (in.flags & ptx::kCarryIn) regs[n++] = frame + ptx::kCarryReg;
    num_sources = n;
    for (unsigned i = 0; i < in.num_dst; ++i) {
      const Operand& o = in.dst(i);
      if (o.kind == Operand::Kind::Reg && o.reg != ptx::kNoReg) regs[n++] = frame + o.reg;
    }
    if (in.flags & ptx::kCarryOut) regs[n++] = frame + ptx::kCarryReg;
    num_dests = n - num_sources;
  }
  const uint32_t* sources() const { return regs; }
  const uint32_t* dests() const { return regs + num_sources; }
  unsigned count() const { return num_sources + num_dests; }
};

/// The operand reuse cache of Volta and later SMs, which ptxas's reuse flags steer: a source in
/// the operand slot where the warp's previous instruction read the same register, which that
/// instruction did not write, is served from the cache. The mask of `now`'s sources it serves.
inline uint32_t reused_operands(const RegisterUse& now, const RegisterUse& previous) {
  uint32_t mask = 0;
  for (unsigned i = 0; i < now.num_sources && i < previous.num_sources; ++i) {
    const uint32_t r = now.regs[i];
    if (previous.regs[i] != r) continue;
    const uint32_t* written = previous.dests();
    if (std::find(written, written + previous.num_dests, r) == written + previous.num_dests)
      mask |= 1u << i;
  }
  return mask;
}

}  // namespace gpusoc::sm
