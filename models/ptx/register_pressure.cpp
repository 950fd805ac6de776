#include "models/ptx/register_pressure.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "models/ptx/cfg.h"

namespace gpusoc::ptx {
namespace {

constexpr uint32_t kNone = 0xffffffffu;
constexpr uint32_t kPredicatesPerRegister = 32;

/// What liveness found in one function, for the call graph to combine.
struct FunctionLiveness {
  uint32_t peak = 0;  // general-register slots at the function's busiest instruction
  struct Call {
    uint32_t live_across = 0;  // general-register slots live across the call
    uint32_t callee = kNone;   // function index; kNone for vprintf, __assertfail, indirect
  };
  std::vector<Call> calls;  // indirect calls: one entry per possible callee
};

bool is_call(const Inst& in) {
  return in.op == Op::Call || in.op == Op::Vprintf || (in.op == Op::Trap && in.sub == 1);
}

// General registers that predicates beyond the predicate file occupy.
uint32_t predicate_spill(uint32_t predicates) {
  return predicates <= kPredicateRegisters
             ? 0
             : (predicates - kPredicateRegisters + kPredicatesPerRegister - 1) /
                   kPredicatesPerRegister;
}

// Backward liveness of one function over dense bit sets of the registers its code names.
class Liveness {
 public:
  Liveness(const Function& fn, const std::vector<uint32_t>& indirect_callees)
      : fn_(fn), indirect_callees_(indirect_callees) {}

  FunctionLiveness run() {
    FunctionLiveness out;
    if (fn_.code.empty()) return out;
    number_registers();
    const ControlFlowGraph cfg(fn_.code);
    solve(cfg);
    for (uint32_t b = 0; b < cfg.blocks().size(); ++b) scan_block(cfg, b, out);
    return out;
  }

 private:
  enum class Class : uint8_t { General, Predicate, Special };

  template <typename F>
  void for_each_use(const Inst& in, F f) const {
    for (unsigned i = 0; i < in.num_src; ++i) {
      const Operand& o = in.src(i);
      if ((o.kind == Operand::Kind::Reg || o.kind == Operand::Kind::Addr) && o.reg != kNoReg)
        f(o.reg);
    }
    if (in.guard != kNoReg) f(in.guard);
    if (in.flags & kCarryIn) f(kCarryReg);
    if (is_call(in) && in.target < fn_.call_sites.size() &&
        fn_.call_sites[in.target].callee_reg != kNoReg)
      f(fn_.call_sites[in.target].callee_reg);
  }
  template <typename F>
  void for_each_def(const Inst& in, F f) const {
    for (unsigned i = 0; i < in.num_dst; ++i) {
      const Operand& o = in.dst(i);
      if (o.kind == Operand::Kind::Reg && o.reg != kNoReg) f(o.reg);
    }
    if (in.flags & kCarryOut) f(kCarryReg);
  }

  Class class_of(uint32_t reg) const {
    if (reg < special_.size() && special_[reg]) return Class::Special;
    const ScalarType t = reg < fn_.reg_types.size() ? fn_.reg_types[reg] : ScalarType::B32;
    return t == ScalarType::Pred ? Class::Predicate : Class::General;
  }
  uint32_t slots_of(uint32_t reg) const {
    const ScalarType t = reg < fn_.reg_types.size() ? fn_.reg_types[reg] : ScalarType::B32;
    return std::max(1u, (type_size(t) + 3) / 4);
  }

  // Dense indices for the general and predicate registers the code names; special registers
  // stay out of the sets: ptxas reads them (S2R) where they are used.
  void number_registers() {
    uint32_t top = fn_.num_regs;
    auto grow = [&](uint32_t r) { top = std::max(top, r + 1); };
    for (const Inst& in : fn_.code) {
      for_each_use(in, grow);
      for_each_def(in, grow);
    }
    special_.assign(top, false);
    for (const HiddenRegister& h : fn_.hidden) {
      if (h.reg < top) special_[h.reg] = true;
    }
    index_.assign(top, kNone);
    auto number = [&](uint32_t r) {
      if (index_[r] != kNone || class_of(r) == Class::Special) return;
      index_[r] = uint32_t(weight_.size());
      const bool pred = class_of(r) == Class::Predicate;
      weight_.push_back(pred ? 0 : slots_of(r));
      is_pred_.push_back(pred);
    };
    for (const Inst& in : fn_.code) {
      for_each_use(in, number);
      for_each_def(in, number);
    }
    words_ = (weight_.size() + 63) / 64;
    live_.assign(words_, 0);
  }

  // Live-in sets of every block, iterated to the fixed point.
  void solve(const ControlFlowGraph& cfg) {
    const auto& blocks = cfg.blocks();
    const size_t n = blocks.size();
    std::vector<uint64_t> gen(n * words_, 0), kill(n * words_, 0);
    for (uint32_t b = 0; b < n; ++b) {
      uint64_t* g = gen.data() + b * words_;
      uint64_t* k = kill.data() + b * words_;
      for (uint32_t pc = blocks[b].last + 1; pc-- > blocks[b].first;) {
        const Inst& in = fn_.code[pc];
        if (in.guard == kNoReg) {
          for_each_def(in, [&](uint32_t r) {
            if (const uint32_t i = index_[r]; i != kNone) {
              g[i / 64] &= ~bit(i);
              k[i / 64] |= bit(i);
            }
          });
        }
        for_each_use(in, [&](uint32_t r) {
          if (const uint32_t i = index_[r]; i != kNone) g[i / 64] |= bit(i);
        });
      }
    }
    live_in_.assign(n * words_, 0);
    std::vector<uint64_t> out(words_);
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t b = uint32_t(n); b-- > 0;) {
        live_out(cfg, b, out);
        for (size_t w = 0; w < words_; ++w) {
          const uint64_t in = gen[b * words_ + w] | (out[w] & ~kill[b * words_ + w]);
          if (in != live_in_[b * words_ + w]) {
            live_in_[b * words_ + w] = in;
            changed = true;
          }
        }
      }
    }
  }

  void live_out(const ControlFlowGraph& cfg, uint32_t b, std::vector<uint64_t>& out) const {
    std::fill(out.begin(), out.end(), 0);
    for (uint32_t s : cfg.blocks()[b].successors) {
      for (size_t w = 0; w < words_; ++w) out[w] |= live_in_[s * words_ + w];
    }
  }

  // Walks one block backwards from its live-out set, measuring the need at each instruction.
  void scan_block(const ControlFlowGraph& cfg, uint32_t b, FunctionLiveness& out) {
    std::vector<uint64_t> out_set(words_);
    live_out(cfg, b, out_set);
    std::fill(live_.begin(), live_.end(), 0);
    general_ = predicates_ = 0;
    for (uint32_t i = 0; i < weight_.size(); ++i) {
      if (out_set[i / 64] & bit(i)) insert(i);
    }
    const BasicBlock& block = cfg.blocks()[b];
    std::vector<uint32_t> added;
    for (uint32_t pc = block.last + 1; pc-- > block.first;) {
      const Inst& in = fn_.code[pc];
      if (is_call(in)) record_call(in, out);
      added.clear();
      for_each_def(in, [&](uint32_t r) {
        if (const uint32_t i = index_[r]; i != kNone && insert(i)) added.push_back(i);
      });
      const uint32_t after = need();
      if (in.guard == kNoReg) {
        for_each_def(in, [&](uint32_t r) {
          if (const uint32_t i = index_[r]; i != kNone) erase(i);
        });
      } else {
        for (uint32_t i : added) erase(i);  // dead guarded definitions
      }
      uint32_t special = 0;
      for_each_use(in, [&](uint32_t r) {
        if (const uint32_t i = index_[r]; i != kNone) {
          insert(i);
        } else if (class_of(r) == Class::Special) {
          special += slots_of(r);
        }
      });
      out.peak = std::max({out.peak, after, need() + special});
    }
  }

  void record_call(const Inst& in, FunctionLiveness& out) const {
    const uint32_t across =
        general_ + (predicates_ + kPredicatesPerRegister - 1) / kPredicatesPerRegister;
    if (in.op != Op::Call || in.target >= fn_.call_sites.size()) {
      out.calls.push_back({across, kNone});
      return;
    }
    const CallSite& site = fn_.call_sites[in.target];
    if (site.callee_reg == kNoReg) {
      out.calls.push_back({across, site.callee});
      return;
    }
    out.calls.push_back({across, kNone});
    for (uint32_t f : indirect_callees_) out.calls.push_back({across, f});
  }

  static uint64_t bit(uint32_t i) { return uint64_t{1} << (i % 64); }
  bool insert(uint32_t i) {
    if (live_[i / 64] & bit(i)) return false;
    live_[i / 64] |= bit(i);
    (is_pred_[i] ? predicates_ : general_) += is_pred_[i] ? 1 : weight_[i];
    return true;
  }
  void erase(uint32_t i) {
    if (!(live_[i / 64] & bit(i))) return;
    live_[i / 64] &= ~bit(i);
    (is_pred_[i] ? predicates_ : general_) -= is_pred_[i] ? 1 : weight_[i];
  }
  uint32_t need() const { return general_ + predicate_spill(predicates_); }

  const Function& fn_;
  const std::vector<uint32_t>& indirect_callees_;
  std::vector<bool> special_;
  std::vector<uint32_t> index_;   // register -> dense index, kNone for special registers
  std::vector<uint32_t> weight_;  // dense index -> 32-bit slots (0 for predicates)
  std::vector<bool> is_pred_;
  size_t words_ = 0;
  std::vector<uint64_t> live_in_;  // per block, words_ each
  std::vector<uint64_t> live_;     // the set being walked
  uint32_t general_ = 0, predicates_ = 0;
};

struct KernelPressure {
  uint32_t peak = 0;       // general-register slots, callees included
  bool abi_calls = false;  // reaches a call that ptxas cannot inline
};

// Combines the functions' liveness along the call graph.
class CallGraphPressure {
 public:
  explicit CallGraphPressure(const Program& program)
      : program_(program), liveness_(program.functions.size()) {
    for (uint32_t f = 0; f < program.functions.size(); ++f) {
      const Function& fn = program.functions[f];
      if (fn.has_body && !fn.is_entry) indirect_callees_.push_back(f);
    }
  }

  // Iterative depth-first walk, so that long call chains cannot exhaust the stack. Calls not
  // followed into a callee (recursive, indirect, device runtime) go through the ABI.
  KernelPressure of(uint32_t root) {
    bool abi = false;
    need_.assign(program_.functions.size(), kNone);
    on_chain_.assign(program_.functions.size(), false);
    struct Frame {
      uint32_t f, next = 0, value = 0, across = 0;
    };
    std::vector<Frame> chain;
    auto enter = [&](uint32_t f) {
      on_chain_[f] = true;
      chain.push_back(Frame{f, 0, liveness(f).peak, 0});
    };
    enter(root);
    for (;;) {
      Frame& top = chain.back();
      const auto& calls = liveness(top.f).calls;
      if (top.next < calls.size()) {
        const FunctionLiveness::Call c = calls[top.next++];
        if (c.callee == kNone || c.callee >= need_.size() || on_chain_[c.callee]) {
          top.value = std::max(top.value, c.live_across);
          abi = true;
        } else if (need_[c.callee] != kNone) {
          top.value = std::max(top.value, c.live_across + need_[c.callee]);
        } else {
          top.across = c.live_across;
          enter(c.callee);
        }
        continue;
      }
      const uint32_t value = top.value;
      need_[top.f] = value;
      on_chain_[top.f] = false;
      chain.pop_back();
      if (chain.empty()) return KernelPressure{value, abi};
      chain.back().value = std::max(chain.back().value, chain.back().across + value);
    }
  }

 private:
  const FunctionLiveness& liveness(uint32_t f) {
    if (!liveness_[f]) liveness_[f] = Liveness(program_.functions[f], indirect_callees_).run();
    return *liveness_[f];
  }

  const Program& program_;
  std::vector<std::optional<FunctionLiveness>> liveness_;
  std::vector<uint32_t> indirect_callees_;
  std::vector<uint32_t> need_;  // per function, with its callees; kNone until known
  std::vector<bool> on_chain_;
};

uint32_t index_in(const Program& program, const Function& kernel) {
  const Function* first = program.functions.data();
  if (program.functions.empty() || &kernel < first || &kernel >= first + program.functions.size())
    throw std::invalid_argument("register estimate: function '" + kernel.name +
                                "' is not part of module '" + program.file + "'");
  return uint32_t(&kernel - first);
}

uint32_t allocation(const KernelPressure& p) {
  uint32_t used = std::min(p.peak + kReservedRegisters, kMaxRegistersPerThread);
  if (p.abi_calls) used = std::max(used, kAbiMinimumRegisters);
  const uint32_t rounded = (used + kRegisterAllocationGranularity - 1) /
                           kRegisterAllocationGranularity * kRegisterAllocationGranularity;
  return std::max(rounded, kMinRegistersPerThread);
}

}  // namespace

uint32_t live_register_peak(const Program& program, const Function& kernel) {
  return CallGraphPressure(program).of(index_in(program, kernel)).peak;
}

uint32_t registers_per_thread(const Program& program, const Function& kernel) {
  if (kernel.registers_per_thread != 0) return kernel.registers_per_thread;
  return allocation(CallGraphPressure(program).of(index_in(program, kernel)));
}

void cache_registers_per_thread(Program& program) {
  CallGraphPressure pressure(program);
  for (uint32_t f = 0; f < program.functions.size(); ++f) {
    Function& fn = program.functions[f];
    if (fn.is_entry && fn.has_body) fn.registers_per_thread = allocation(pressure.of(f));
  }
}

}  // namespace gpusoc::ptx
