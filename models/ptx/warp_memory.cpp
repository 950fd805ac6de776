// Memory instructions of a warp: ld, st, atom, red, address conversions and mbarrier, on the
// global, shared, local, const and param spaces and on generic addresses.
#include <fmt/format.h>

#include <cstring>
#include <type_traits>

#include "models/ptx/address_space.h"
#include "models/ptx/warp.h"

namespace gpusoc::ptx {
namespace {

template <typename T>
T atomic_apply(AtomOp op, T old, T b, T c) {
  switch (op) {
    case AtomOp::Add:
      return T(old + b);
    case AtomOp::Min:
      return b < old ? b : old;
    case AtomOp::Max:
      return b > old ? b : old;
    case AtomOp::Exch:
      return b;
    case AtomOp::Cas:
      return old == b ? c : old;
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case AtomOp::Inc:
        return old >= b ? T(0) : T(old + 1);
      case AtomOp::Dec:
        return (old == 0 || old > b) ? b : T(old - 1);
      case AtomOp::And:
        return old & b;
      case AtomOp::Or:
        return old | b;
      case AtomOp::Xor:
        return old ^ b;
      default:
        break;
    }
  }
  return old;
}

template <typename T>
uint64_t atomic_on_bits(AtomOp op, uint64_t old_bits, uint64_t b_bits, uint64_t c_bits) {
  T old, b, c;
  std::memcpy(&old, &old_bits, sizeof(T));
  std::memcpy(&b, &b_bits, sizeof(T));
  std::memcpy(&c, &c_bits, sizeof(T));
  const T r = atomic_apply<T>(op, old, b, c);
  uint64_t out = 0;
  std::memcpy(&out, &r, sizeof(T));
  return out;
}

// Signed and float types compare as themselves; bit types as unsigned.
uint64_t atomic_result(const ScalarType t, AtomOp op, uint64_t old, uint64_t b, uint64_t c,
                       bool& supported) {
  supported = true;
  switch (t) {
    case ScalarType::U32:
    case ScalarType::B32:
      return atomic_on_bits<uint32_t>(op, old, b, c);
    case ScalarType::S32:
      return atomic_on_bits<int32_t>(op, old, b, c);
    case ScalarType::U64:
    case ScalarType::B64:
      return atomic_on_bits<uint64_t>(op, old, b, c);
    case ScalarType::S64:
      return atomic_on_bits<int64_t>(op, old, b, c);
    case ScalarType::F32:
      return atomic_on_bits<float>(op, old, b, c);
    case ScalarType::F64:
      return atomic_on_bits<double>(op, old, b, c);
    default:
      supported = false;
      return old;
  }
}

}  // namespace

uint64_t Warp::address_bias(const Operand& o) const {
  switch (o.base) {
    case AddrBase::Frame:
      return o.imm + frame_base_;
    case AddrBase::DynamicShared:
      return o.imm + cta_->dynamic_shared_base;
    default:
      return o.imm;
  }
}

uint64_t Warp::address_of(const Operand& o, unsigned lane) const {
  const uint64_t bias = address_bias(o);
  return o.reg == kNoReg ? bias : bias + ctx_.regs[size_t(o.reg) * kWarpSize + lane];
}

void Warp::misaligned(const Inst& in, uint64_t addr, unsigned size, unsigned lane) const {
  fault(in, lane,
        fmt::format("misaligned {}-byte access at address 0x{:x}{}", size, addr,
                    memcheck_ ? " (" + memcheck_->where(addr) + ")" : std::string()));
}

void Warp::check_global(const Inst& in, uint64_t addr, unsigned size, unsigned lane, bool write) {
  if (!memcheck_->allows(addr, size, write, memcheck_cache_))
    fault(in, lane, "memcheck: " + memcheck_->problem(addr, size, write));
}

void Warp::record_shared(const Inst& in, uint64_t addr, unsigned size, unsigned lane, bool write) {
  if (in.op != Op::Ld && in.op != Op::St) return;  // atomics and mbarriers do not race
  const std::string hazard = racecheck_->access(
      uint32_t(addr), size, write, warp_index_ * kWarpSize + lane, in.line, launch_->block);
  if (!hazard.empty()) fault(in, lane, hazard);
}

uint8_t* Warp::resolve(const Inst& in, StateSpace space, uint64_t addr, unsigned size,
                       unsigned lane, bool write) {
  if (addr % size != 0) misaligned(in, addr, size, lane);
  switch (space) {
    case StateSpace::Global:
    case StateSpace::Const: {
      if (memcheck_) check_global(in, addr, size, lane, write);
      uint8_t* p = cta_->global->page_pointer(addr);
      if (!p) {
        fault(in, lane,
              fmt::format("illegal {} of {} bytes at global address 0x{:x}",
                          write ? "write" : "read", size, addr));
      }
      return p;
    }
    case StateSpace::Shared:
      if (!fits(addr, size, cta_->shared.size())) {
        fault(in, lane,
              fmt::format("shared memory {} of {} bytes at offset 0x{:x} is outside the "
                          "CTA's {} bytes",
                          write ? "write" : "read", size, addr, cta_->shared.size()));
      }
      if (racecheck_) record_shared(in, addr, size, lane, write);
      return cta_->shared.data() + addr;
    case StateSpace::Local:
      if (!fits(addr, size, launch_->local_bytes_per_thread())) {
        fault(in, lane,
              fmt::format("local memory access at offset 0x{:x} is outside the thread's "
                          "{} bytes",
                          addr, launch_->local_bytes_per_thread()));
      }
      return local(lane) + addr;
    case StateSpace::Param:
      if (write || !fits(addr, size, launch_->params.size())) {
        fault(in, lane,
              fmt::format("invalid kernel parameter {} at offset {}", write ? "write" : "read",
                          addr));
      }
      return const_cast<uint8_t*>(launch_->params.data()) + addr;
    default:
      if (in_shared_window(addr))
        return resolve(in, StateSpace::Shared, addr - kSharedWindowBase, size, lane, write);
      if (in_local_window(addr))
        return resolve(in, StateSpace::Local, addr - kLocalWindowBase, size, lane, write);
      return resolve(in, StateSpace::Global, addr, size, lane, write);
  }
}

// Element sizes are template arguments so that each copy is a single move; kChecked (memcheck or
// racecheck) is, so that unchecked launches pay nothing per lane.
template <unsigned kSize, bool kChecked>
void Warp::load_sized(const Inst& in, LaneMask exec) {
  const Operand& a = in.src(0);
  const unsigned bytes = kSize * in.vec;
  const bool sign = is_signed(in.type);
  const uint64_t bias = address_bias(a);
  const uint64_t* base = a.reg == kNoReg ? nullptr : ctx_.regs + size_t(a.reg) * kWarpSize;
  if (in.vec == 1 && in.ops[0].kind == Operand::Kind::Reg) {  // the common case, kept tight
    uint64_t* dst = ctx_.regs + size_t(in.ops[0].reg) * kWarpSize;
    for (LaneMask m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(__builtin_ctz(m));
      const uint8_t* p = pointer<kChecked>(in, base ? base[lane] + bias : bias, kSize, lane, false);
      uint64_t raw = 0;
      std::memcpy(&raw, p, kSize);
      dst[lane] = sign ? extend_to_register(raw, in.type) : raw;
    }
    return;
  }
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    const uint8_t* p = pointer<kChecked>(in, base ? base[lane] + bias : bias, bytes, lane, false);
    for (unsigned e = 0; e < in.vec; ++e) {
      const Operand& d = in.ops[e];
      if (d.kind != Operand::Kind::Reg) continue;
      uint64_t raw = 0;
      std::memcpy(&raw, p + e * kSize, kSize);
      ctx_.regs[size_t(d.reg) * kWarpSize + lane] = sign ? extend_to_register(raw, in.type) : raw;
    }
  }
}

template <unsigned kSize, bool kChecked>
void Warp::store_sized(const Inst& in, LaneMask exec) {
  const Operand& a = in.src(0);
  const unsigned bytes = kSize * in.vec;
  const uint64_t bias = address_bias(a);
  const uint64_t* base = a.reg == kNoReg ? nullptr : ctx_.regs + size_t(a.reg) * kWarpSize;
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    uint8_t* p = pointer<kChecked>(in, base ? base[lane] + bias : bias, bytes, lane, true);
    for (unsigned e = 0; e < in.vec; ++e) {
      const uint64_t v = read_bits(ctx_, in.src(1 + e), lane);
      std::memcpy(p + e * kSize, &v, kSize);
    }
  }
}

void Warp::load(const Inst& in, LaneMask exec) {
  const bool checked = memcheck_ || racecheck_;
  switch (type_size(in.type)) {
    case 1:
      checked ? load_sized<1, true>(in, exec) : load_sized<1, false>(in, exec);
      break;
    case 2:
      checked ? load_sized<2, true>(in, exec) : load_sized<2, false>(in, exec);
      break;
    case 4:
      checked ? load_sized<4, true>(in, exec) : load_sized<4, false>(in, exec);
      break;
    case 8:
      checked ? load_sized<8, true>(in, exec) : load_sized<8, false>(in, exec);
      break;
    default:
      fault(in, unsigned(__builtin_ctz(exec | 1)), "unsupported load size");
  }
}

void Warp::store(const Inst& in, LaneMask exec) {
  const bool checked = memcheck_ || racecheck_;
  switch (type_size(in.type)) {
    case 1:
      checked ? store_sized<1, true>(in, exec) : store_sized<1, false>(in, exec);
      break;
    case 2:
      checked ? store_sized<2, true>(in, exec) : store_sized<2, false>(in, exec);
      break;
    case 4:
      checked ? store_sized<4, true>(in, exec) : store_sized<4, false>(in, exec);
      break;
    case 8:
      checked ? store_sized<8, true>(in, exec) : store_sized<8, false>(in, exec);
      break;
    default:
      fault(in, unsigned(__builtin_ctz(exec | 1)), "unsupported store size");
  }
}

// Lanes apply their operations one after another, in lane order, so contended atomics give
// exactly one of the results hardware could give.
void Warp::atomic(const Inst& in, LaneMask exec) {
  const unsigned size = type_size(in.type);
  const bool has_dst = in.op == Op::Atom;
  const Operand& a = in.src(0);
  const AtomOp op = AtomOp(in.sub);
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    uint8_t* p = resolve(in, in.space, address_of(a, lane), size, lane, true);
    uint64_t old = 0;
    std::memcpy(&old, p, size);
    const uint64_t b = read_bits(ctx_, in.src(1), lane);
    const uint64_t c = in.num_src > 2 ? read_bits(ctx_, in.src(2), lane) : 0;
    bool supported;
    const uint64_t r = atomic_result(in.type, op, old, b, c, supported);
    if (!supported) fault(in, lane, "atomic operation on this type is not supported");
    std::memcpy(p, &r, size);
    // A compare-and-swap that keeps failing (a spin lock nobody releases) changes nothing.
    if (std::memcmp(&old, &r, size) != 0) progress_at_ = warp_instructions_;
    if (has_dst && in.ops[0].kind == Operand::Kind::Reg) {
      ctx_.regs[size_t(in.ops[0].reg) * kWarpSize + lane] = extend_to_register(old, in.type);
    }
  }
}

void Warp::address_conversion(const Inst& in, LaneMask exec) {
  uint64_t window = 0;
  if (in.space == StateSpace::Shared)
    window = kSharedWindowBase;
  else if (in.space == StateSpace::Local)
    window = kLocalWindowBase;
  else if (in.space != StateSpace::Global && in.space != StateSpace::Const)
    fault(in, unsigned(__builtin_ctz(exec | 1)), "cvta on this state space is not supported");
  const bool to_space = in.sub == 1;
  const uint64_t mask = type_size(in.type) == 4 ? 0xffffffffull : ~0ull;
  const Operand& s = in.src(0);
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    const uint64_t v =
        s.kind == Operand::Kind::Addr ? address_of(s, lane) : read_bits(ctx_, s, lane);
    ctx_.regs[size_t(in.ops[0].reg) * kWarpSize + lane] =
        (to_space ? v - window : v + window) & mask;
  }
}

// An mbarrier is 8 bytes: pending arrivals in bits 0..30, expected arrivals in bits 32..62, and
// the phase in bit 63. A phase completes when pending reaches zero.
void Warp::mbarrier(const Inst& in, LaneMask exec) {
  const Operand& a = in.src(0);  // the mbarrier's address
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    uint8_t* p = resolve(in, in.space, address_of(a, lane), 8, lane, in.op != Op::MbarTestWait);
    uint64_t word;
    std::memcpy(&word, p, 8);
    const uint64_t phase = word >> 63;
    if (in.op == Op::MbarInit) {
      const uint64_t count = read_bits(ctx_, in.src(1), lane) & 0x7fffffff;
      word = count | (count << 32);
    } else if (in.op == Op::MbarArrive) {
      if ((word & 0x7fffffff) == 0) {
        fault(in, lane,
              "mbarrier.arrive on an mbarrier with no pending arrivals (not initialized?)");
      }
      const uint64_t pending = (word & 0x7fffffff) - 1;
      const uint64_t expected = (word >> 32) & 0x7fffffff;
      word = pending == 0 ? (expected | (expected << 32) | ((phase ^ 1) << 63))
                          : (pending | (expected << 32) | (phase << 63));
      if (pending == 0 && racecheck_) racecheck_->new_epoch();  // the phase orders
      if (in.num_dst) ctx_.regs[size_t(in.ops[0].reg) * kWarpSize + lane] = phase << 63;
    } else {  // test_wait / try_wait: has the phase of `state` completed?
      const uint64_t state = read_bits(ctx_, in.src(1), lane);
      ctx_.regs[size_t(in.ops[0].reg) * kWarpSize + lane] = (state >> 63) != phase;
    }
    std::memcpy(p, &word, 8);
  }
}

// Tells the observer about an access before it executes: global lanes always, on-chip ones
// (shared, const, param, local) only when the CTA asks for them. Generic addresses are resolved
// per lane, so one instruction may make a call for each space it touches.
void Warp::observe(const Inst& in, LaneMask exec, GlobalAccess kind) {
  const bool on_chip = cta_->observe_on_chip;
  const unsigned bytes = type_size(in.type) * in.vec;
  // An access without a state space (ld.u32) is generic, like an explicit .generic one.
  const bool generic = in.space == StateSpace::None || in.space == StateSpace::Generic;
  if (in.space != StateSpace::Global && !generic) {
    if (!on_chip) return;
    uint64_t addresses[kWarpSize];
    for (LaneMask m = exec; m; m &= m - 1) {
      const unsigned lane = unsigned(__builtin_ctz(m));
      addresses[lane] = address_of(in.src(0), lane);
    }
    if (exec) cta_->observer->on_chip_access(in.space, kind, addresses, exec, bytes);
    return;
  }
  uint64_t global[kWarpSize], shared[kWarpSize], local[kWarpSize];
  LaneMask global_lanes = 0, shared_lanes = 0, local_lanes = 0;
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    const LaneMask bit = LaneMask(1) << lane;
    const uint64_t a = address_of(in.src(0), lane);
    if (generic && in_shared_window(a)) {
      shared[lane] = a - kSharedWindowBase;
      shared_lanes |= bit;
    } else if (generic && in_local_window(a)) {
      local[lane] = a - kLocalWindowBase;
      local_lanes |= bit;
    } else {
      global[lane] = a;
      global_lanes |= bit;
    }
  }
  if (global_lanes) cta_->observer->global_access(kind, global, global_lanes, bytes);
  if (!on_chip) return;
  if (shared_lanes)
    cta_->observer->on_chip_access(StateSpace::Shared, kind, shared, shared_lanes, bytes);
  if (local_lanes)
    cta_->observer->on_chip_access(StateSpace::Local, kind, local, local_lanes, bytes);
}

void Warp::execute_memory(const Inst& in, LaneMask exec) {
  switch (in.op) {
    case Op::Ld:
      if (cta_->observer) observe(in, exec, GlobalAccess::Load);
      if (in.space == StateSpace::Global || in.space == StateSpace::Generic) {
        last_load_ = &in;
        last_load_at_ = warp_instructions_;
      }
      load(in, exec);
      break;
    case Op::St:
      if (cta_->observer) observe(in, exec, GlobalAccess::Store);
      store(in, exec);
      if (in.space == StateSpace::Global || in.space == StateSpace::Shared ||
          in.space == StateSpace::Generic)
        progress_at_ = warp_instructions_;
      break;
    case Op::Atom:
    case Op::Red:
      if (cta_->observer) observe(in, exec, GlobalAccess::Atomic);
      atomic(in, exec);
      break;
    case Op::Tex:
    case Op::Tld4:
    case Op::Txq:
    case Op::Suld:
    case Op::Sust:
    case Op::Sured:
    case Op::Suq:
      texture(in, exec);
      break;
    case Op::Cvta:
      address_conversion(in, exec);
      break;
    case Op::MovAddr:
      for (LaneMask m = exec; m; m &= m - 1) {
        const unsigned lane = unsigned(__builtin_ctz(m));
        ctx_.regs[size_t(in.ops[0].reg) * kWarpSize + lane] = address_of(in.src(0), lane);
      }
      break;
    case Op::ReadClock: {
      const uint64_t v = clock_value(ClockReg(in.sub));
      for (LaneMask m = exec; m; m &= m - 1)
        ctx_.regs[size_t(in.ops[0].reg) * kWarpSize + unsigned(__builtin_ctz(m))] = v;
      break;
    }
    case Op::MbarInit:
    case Op::MbarArrive:
    case Op::MbarTestWait:
      mbarrier(in, exec);
      if (in.op != Op::MbarTestWait) progress_at_ = warp_instructions_;
      break;
    default:
      fault(in, unsigned(__builtin_ctz(exec | 1)),
            "instruction not executable by the functional core");
  }
}

}  // namespace gpusoc::ptx
