#include "models/ptx/constant_operands.h"

#include <algorithm>

#include "models/ptx/inst_registers.h"

namespace gpusoc::ptx {
namespace {

bool is_memory(const Inst& in) {
  return in.op == Op::Ld || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red;
}

template <typename Keys, typename Key>
void add_key(Keys& keys, const Key& k) {
  if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
}

}  // namespace

ConstantOperands::ConstantOperands(const Function& fn, const std::vector<Inst>& code,
                                   const std::vector<bool>& special)
    : fn_(fn), code_(code) {
  find_constants(special);
  const uint32_t n = uint32_t(code.size());
  std::vector<std::vector<Key>> at(n);
  for (uint32_t pc = 0; pc < n; ++pc) at[pc] = needed_at(code[pc]);
  // What each loop needs, held around all of it.
  std::vector<std::vector<Key>> held = at;
  for (uint32_t pc = 0; pc < n; ++pc) {
    const Inst& in = code[pc];
    if (in.op != Op::Bra || in.target > pc) continue;
    std::vector<Key> loop;
    for (uint32_t i = in.target; i <= pc; ++i)
      for (const Key& k : at[i])
        if (k.hoisted) add_key(loop, k);
    if (loop.empty()) continue;
    for (uint32_t i = in.target; i <= pc; ++i)
      for (const Key& k : loop) add_key(held[i], k);
  }
  slots_.assign(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc)
    for (const Key& k : held[pc]) slots_[pc] += k.slots;
}

uint32_t ConstantOperands::slots_of(uint32_t reg) const {
  const ScalarType t = reg < fn_.reg_types.size() ? fn_.reg_types[reg] : ScalarType::B32;
  return std::max(1u, (type_size(t) + 3) / 4);
}

void ConstantOperands::find_constants(const std::vector<bool>& special) {
  uint32_t top = fn_.num_regs;
  auto grow = [&](uint32_t r) { top = std::max(top, r + 1); };
  for (const Inst& in : code_) {
    for_each_use(fn_, in, grow);
    for_each_def(in, grow);
  }
  std::vector<bool> defined(top, false);
  for (const Inst& in : code_) for_each_def(in, [&](uint32_t r) { defined[r] = true; });
  constant_.assign(top, false);
  zero_.assign(top, false);
  for (uint32_t r = 0; r < top; ++r) {
    const ScalarType t = r < fn_.reg_types.size() ? fn_.reg_types[r] : ScalarType::B32;
    constant_[r] = defined[r] && !(r < special.size() && special[r]) && t != ScalarType::Pred;
    zero_[r] = constant_[r];
  }
  // From every register down to those whose every definition is constant.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Inst& in : code_) {
      const bool constant = constant_definition(in);
      bool zero = false;
      if (constant && in.op != Op::Ld) {
        const Operand& s = in.src(0);
        zero = s.kind == Operand::Kind::Imm ? s.imm == 0 : zero_[s.reg];
      }
      for_each_def(in, [&](uint32_t r) {
        if (constant_[r] && !constant) {
          constant_[r] = false;
          changed = true;
        }
        if (zero_[r] && !(constant && zero)) {
          zero_[r] = false;
          changed = true;
        }
      });
    }
  }
}

bool ConstantOperands::constant_definition(const Inst& in) const {
  if (in.guard != kNoReg || in.num_dst != 1 || in.num_src != 1) return false;
  const Operand& src = in.src(0);
  switch (in.op) {
    case Op::Ld:
      return fn_.is_entry && in.space == StateSpace::Param && src.kind == Operand::Kind::Addr &&
             src.reg == kNoReg;
    case Op::Mov:
    case Op::Cvta:
      return src.kind == Operand::Kind::Imm ||
             (src.kind == Operand::Kind::Reg && is_constant(src.reg));
    default:
      return false;
  }
}

std::vector<ConstantOperands::Key> ConstantOperands::needed_at(const Inst& in) const {
  std::vector<Key> keys;
  if (constant_definition(in)) return keys;  // materialized where used, not where defined
  for_each_use(fn_, in, [&](uint32_t r) {
    if (is_constant(r) && !zero_[r]) add_key(keys, Key{false, r, slots_of(r), is_memory(in)});
  });
  if (!is_memory(in) && !keys.empty()) {
    // One operand comes from the constant bank: the widest.
    auto widest = std::max_element(keys.begin(), keys.end(),
                                   [](const Key& a, const Key& b) { return a.slots < b.slots; });
    keys.erase(widest);
  }
  if (in.op == Op::Mul && MulMode(in.sub) == MulMode::Wide) {
    for (unsigned i = 0; i < in.num_src; ++i) {
      const Operand& o = in.src(i);
      if (o.kind == Operand::Kind::Imm && o.imm != 0) add_key(keys, Key{true, o.imm, 1, true});
    }
  }
  if (is_memory(in)) {
    for (unsigned i = 0; i < in.num_src; ++i) {
      const Operand& o = in.src(i);
      if (o.kind == Operand::Kind::Imm && o.imm != 0) add_key(keys, Key{true, o.imm, 1, true});
    }
  }
  return keys;
}

}  // namespace gpusoc::ptx
