#include "models/ptx/register_liveness.h"

#include <algorithm>
#include <optional>

#include "models/ptx/cfg.h"
#include "models/ptx/constant_operands.h"
#include "models/ptx/inst_registers.h"
#include "models/ptx/latency_schedule.h"
#include "models/ptx/register_pressure.h"

namespace gpusoc::ptx {
namespace {

constexpr uint32_t kNone = 0xffffffffu;
constexpr uint32_t kPredicatesPerRegister = 32;

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
  Liveness(const Function& fn, const std::vector<uint32_t>& indirect_callees,
           uint32_t address_bits)
      : fn_(fn), indirect_callees_(indirect_callees), narrow_addresses_(address_bits == 32) {}

  FunctionLiveness run() {
    FunctionLiveness out;
    if (fn_.code.empty()) return out;
    code_ = if_converted(fn_.code);
    number_registers();
    const ControlFlowGraph cfg(code_);
    solve(cfg);
    uint32_t in_order = 0, scheduled = 0;
    std::vector<uint32_t> order;
    for (uint32_t b = 0; b < cfg.blocks().size(); ++b) {
      const BasicBlock& block = cfg.blocks()[b];
      order.resize(block.last - block.first + 1);
      for (uint32_t pc = block.first; pc <= block.last; ++pc) order[pc - block.first] = pc;
      in_order = std::max(in_order, scan_block(cfg, b, order, &out, false));
      scheduled = std::max(
          scheduled,
          scan_block(cfg, b, latency_order(fn_, code_, block.first, block.last), nullptr, true));
    }
    out.in_order = in_order;
    out.scheduled = scheduled;
    return out;
  }

 private:
  // Special registers (S2R) and constants (constant_operands.h) take a register only where an
  // instruction needs them in one: they are counted there, not held live.
  enum class Class : uint8_t { General, Predicate, Special, Constant };

  template <typename F>
  void for_each_use(const Inst& in, F f) const {
    ptx::for_each_use(fn_, in, f);
  }
  template <typename F>
  void for_each_def(const Inst& in, F f) const {
    ptx::for_each_def(in, f);
  }

  Class class_of(uint32_t reg) const {
    if (reg < special_.size() && special_[reg]) return Class::Special;
    if (constants_ && constants_->is_constant(reg)) return Class::Constant;
    const ScalarType t = reg < fn_.reg_types.size() ? fn_.reg_types[reg] : ScalarType::B32;
    return t == ScalarType::Pred ? Class::Predicate : Class::General;
  }
  uint32_t slots_of(uint32_t reg) const {
    const ScalarType t = reg < fn_.reg_types.size() ? fn_.reg_types[reg] : ScalarType::B32;
    if (narrow_addresses_ &&
        (t == ScalarType::B64 || t == ScalarType::U64 || t == ScalarType::S64))
      return 1;
    return std::max(1u, (type_size(t) + 3) / 4);
  }

  // Dense indices for the general and predicate registers the code names; special registers
  // stay out of the sets: ptxas reads them (S2R) where they are used.
  void number_registers() {
    uint32_t top = fn_.num_regs;
    auto grow = [&](uint32_t r) { top = std::max(top, r + 1); };
    for (const Inst& in : code_) {
      for_each_use(in, grow);
      for_each_def(in, grow);
    }
    special_.assign(top, false);
    for (const HiddenRegister& h : fn_.hidden) {
      if (h.reg < top) special_[h.reg] = true;
    }
    constants_.emplace(fn_, code_, special_);
    index_.assign(top, kNone);
    // 32-bit values stored to memory take a register pair's odd half in ptxas's allocation.
    std::vector<bool> stored(top, false);
    for (const Inst& in : code_) {
      if (in.op != Op::St || abi_parameter(in)) continue;
      for (unsigned i = 1; i < in.num_src; ++i)
        if (in.src(i).kind == Operand::Kind::Reg && in.src(i).reg < top)
          stored[in.src(i).reg] = true;
    }
    auto number = [&](uint32_t r) {
      if (index_[r] != kNone || class_of(r) == Class::Special || class_of(r) == Class::Constant)
        return;
      index_[r] = uint32_t(weight_.size());
      const bool pred = class_of(r) == Class::Predicate;
      weight_.push_back(pred ? 0 : slots_of(r));
      paired_.push_back(slots_of(r) == 1 && stored[r]);
      is_pred_.push_back(pred);
    };
    for (const Inst& in : code_) {
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
        const Inst& in = code_[pc];
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

  // Walks one block backwards from its live-out set, in `order` (the block's pcs), and returns
  // the largest need at any instruction. Records the calls in `calls` when given.
  uint32_t scan_block(const ControlFlowGraph& cfg, uint32_t b, const std::vector<uint32_t>& order,
                      FunctionLiveness* calls, bool luxury) {
    luxury_ = luxury;
    uint32_t peak = 0;
    std::vector<uint64_t> out_set(words_);
    live_out(cfg, b, out_set);
    std::fill(live_.begin(), live_.end(), 0);
    general_ = predicates_ = paired_extra_ = 0;
    for (uint32_t i = 0; i < weight_.size(); ++i) {
      if (out_set[i / 64] & bit(i)) insert(i);
    }
    if (luxury) {
      in_flight(order);
    } else {
      in_flight_before_.assign(order.size(), 0);
      in_flight_after_.assign(order.size(), 0);
    }
    std::vector<uint32_t> added;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const size_t at = size_t(order.rend() - it) - 1;
      const Inst& in = code_[*it];
      if (calls && is_call(in)) record_call(in, *calls);
      added.clear();
      for_each_def(in, [&](uint32_t r) {
        if (const uint32_t i = index_[r]; i != kNone && insert(i)) added.push_back(i);
      });
      const uint32_t after = need() + in_flight_after_[at];
      if (in.guard == kNoReg) {
        for_each_def(in, [&](uint32_t r) {
          if (const uint32_t i = index_[r]; i != kNone) erase(i);
        });
      } else {
        for (uint32_t i : added) erase(i);  // dead guarded definitions
      }
      uint32_t special = constants_->slots_at(*it);
      for_each_use(in, [&](uint32_t r) {
        if (const uint32_t i = index_[r]; i != kNone) {
          insert(i);
        } else if (class_of(r) == Class::Special) {
          special += slots_of(r);
        }
      });
      peak = std::max({peak, after, need() + special + in_flight_before_[at]});
    }
    return peak;
  }

  // Results of variable-latency instructions (memory, shuffles, conversions, transcendentals)
  // hold a second register from their issue until their first use in the block: ptxas does
  // not give a register that an instruction in flight still reads, or will write, to another
  // value, so while many are in flight (as a latency schedule has them) each costs about two.
  // Fills in_flight_before_ and in_flight_after_ for each position of `order`.
  void in_flight(const std::vector<uint32_t>& order) {
    in_flight_before_.assign(order.size(), 0);
    in_flight_after_.assign(order.size(), 0);
    // Which definitions the block goes on to read: the others are never in flight for long.
    std::vector<std::vector<uint32_t>> read_later(order.size());
    std::vector<bool> used(weight_.size(), false);
    for (size_t at = order.size(); at-- > 0;) {
      const Inst& in = code_[order[at]];
      for_each_def(in, [&](uint32_t r) {
        const uint32_t i = index_[r];
        if (i == kNone) return;
        if (used[i]) read_later[at].push_back(i);
        used[i] = false;
      });
      for_each_use(in, [&](uint32_t r) {
        if (const uint32_t i = index_[r]; i != kNone) used[i] = true;
      });
    }
    std::vector<uint32_t> pending;  // dense indices
    uint32_t slots = 0;
    for (size_t at = 0; at < order.size(); ++at) {
      const Inst& in = code_[order[at]];
      for_each_use(in, [&](uint32_t r) {
        const uint32_t i = index_[r];
        if (i == kNone) return;
        const auto it = std::find(pending.begin(), pending.end(), i);
        if (it == pending.end()) return;
        slots -= paired_[i] ? 0 : weight_[i];
        pending.erase(it);
      });
      in_flight_before_[at] = slots;
      if (variable_latency(in)) {
        for (uint32_t i : read_later[at]) {
          if (is_pred_[i] || std::find(pending.begin(), pending.end(), i) != pending.end())
            continue;
          pending.push_back(i);
          slots += paired_[i] ? 0 : weight_[i];
        }
      }
      in_flight_after_[at] = slots;
    }
  }
  // A call's arguments and results, and a function's parameters, pass in registers under the
  // ABI: their ld.param and st.param (frame slots in the core) are not memory accesses.
  bool abi_parameter(const Inst& in) const {
    if (in.space == StateSpace::Param) return true;  // a kernel's parameters: the constant bank
    if (in.space != StateSpace::Local || in.num_src == 0) return false;
    const Operand& a = in.src(0);  // the address, for loads and stores alike
    if (a.kind != Operand::Kind::Addr || a.base != AddrBase::Frame || a.reg != kNoReg) return false;
    auto inside = [&](uint32_t offset, uint32_t size) {
      return a.imm >= offset && a.imm < uint64_t(offset) + size;
    };
    if (!fn_.is_entry) {
      for (const ParamSlot& p : fn_.params)
        if (inside(p.offset, p.size)) return true;
      for (const ParamSlot& p : fn_.returns)
        if (inside(p.offset, p.size)) return true;
    }
    for (const CallSite& c : fn_.call_sites) {
      for (size_t i = 0; i < c.arg_offsets.size(); ++i)
        if (inside(c.arg_offsets[i], c.arg_sizes[i])) return true;
      for (size_t i = 0; i < c.ret_offsets.size(); ++i)
        if (inside(c.ret_offsets[i], c.ret_sizes[i])) return true;
    }
    return false;
  }
  bool variable_latency(const Inst& in) const {
    switch (in.op) {
      case Op::Ld:
        return !abi_parameter(in);
      case Op::Atom:
      case Op::Shfl:
      case Op::Match:
      case Op::Redux:
        return true;
      case Op::Cvt:  // between integers and floats, or float widths: the conversion unit
        return is_float(in.type) || is_float(in.type2);
      default:
        return in.cls == InstClass::Sfu;
    }
  }

  void record_call(const Inst& in, FunctionLiveness& out) const {
    const uint32_t across =
        general_ + (predicates_ + kPredicatesPerRegister - 1) / kPredicatesPerRegister;
    if (in.op != Op::Call || in.target >= fn_.call_sites.size()) {
      out.calls.push_back({across, kNoCallee});
      return;
    }
    const CallSite& site = fn_.call_sites[in.target];
    if (site.callee_reg == kNoReg) {
      out.calls.push_back({across, site.callee});
      return;
    }
    out.calls.push_back({across, kNoCallee});
    for (uint32_t f : indirect_callees_) out.calls.push_back({across, f});
  }

  static uint64_t bit(uint32_t i) { return uint64_t{1} << (i % 64); }
  bool insert(uint32_t i) {
    if (live_[i / 64] & bit(i)) return false;
    live_[i / 64] |= bit(i);
    (is_pred_[i] ? predicates_ : general_) += is_pred_[i] ? 1 : weight_[i];
    paired_extra_ += paired_[i];
    return true;
  }
  void erase(uint32_t i) {
    if (!(live_[i / 64] & bit(i))) return;
    live_[i / 64] &= ~bit(i);
    (is_pred_[i] ? predicates_ : general_) -= is_pred_[i] ? 1 : weight_[i];
    paired_extra_ -= paired_[i];
  }
  uint32_t need() const {
    return general_ + predicate_spill(predicates_) + (luxury_ ? paired_extra_ : 0);
  }

  const Function& fn_;
  const std::vector<uint32_t>& indirect_callees_;
  const bool narrow_addresses_;  // a 32-bit-address target: 64-bit integers take one slot
  std::vector<Inst> code_;  // the function's code as ptxas schedules it (if-converted)
  std::vector<uint32_t> in_flight_before_, in_flight_after_;  // by position in a block's order
  std::vector<bool> special_;
  std::optional<ConstantOperands> constants_;
  std::vector<uint32_t> index_;   // register -> dense index, kNone for special registers
  std::vector<uint32_t> weight_;  // dense index -> 32-bit slots (0 for predicates)
  std::vector<bool> is_pred_;
  std::vector<bool> paired_;  // stored 32-bit values, already two slots
  size_t words_ = 0;
  std::vector<uint64_t> live_in_;  // per block, words_ each
  std::vector<uint64_t> live_;     // the set being walked
  uint32_t general_ = 0, predicates_ = 0, paired_extra_ = 0;
  bool luxury_ = false;
};

}  // namespace

FunctionLiveness function_liveness(const Function& fn,
                                   const std::vector<uint32_t>& indirect_callees,
                                   uint32_t address_bits) {
  return Liveness(fn, indirect_callees, address_bits).run();
}

}  // namespace gpusoc::ptx
