#include "models/ptx/warp.h"

#include <fmt/format.h>

#include <cstring>
#include <new>

#include "models/common/bit_count.h"
#include "models/ptx/address_space.h"
#include "models/ptx/cfg.h"

namespace gpusoc::ptx {

void Warp::start(const LaunchContext& launch, CtaContext& cta, uint32_t warp_index,
                 LaneMask lanes) {
  launch_ = &launch;
  cta_ = &cta;
  warp_index_ = warp_index;
  state_ = State::Ready;
  exited_ = ~lanes;
  simt_.clear();
  calls_.clear();
  independent_ = launch.simt_model->yields_on_backward_branch();
  simt_deadlock_limit_ = launch.simt_model->deadlock_instructions();
  memcheck_ = launch.memcheck;
  memcheck_cache_ = {};
  racecheck_ = cta.racecheck;
  warp_instructions_ = thread_instructions_ = path_start_ = progress_at_ = 0;
  last_load_ = nullptr;
  class_counts_ = {};
  const size_t local_bytes = size_t(kWarpSize) * launch.local_bytes_per_thread();
  // Local memory is not cleared between CTAs: like registers, its initial contents are undefined.
  if (local_size_ < local_bytes) {
    local_.reset(static_cast<uint8_t*>(std::calloc(local_bytes, 1)));
    if (!local_) throw std::bad_alloc();
    local_size_ = local_bytes;
  }
  regs_.clear();
  frame_base_ = 0;
  stack_used_ = launch.kernel->depot_bytes;
  enter_function(*launch.kernel, 0);
  simt_.push_back(SimtEntry{0, kNoReconverge, lanes, 0});
  running_ = simt_.data();
  select_active();
}

uint64_t Warp::special_value(SpecialReg s, unsigned lane) const {
  const uint32_t linear = warp_index_ * kWarpSize + lane;
  const Dim3& b = launch_->block;
  const Dim3& g = launch_->grid;
  switch (s) {
    case SpecialReg::TidX:
      return linear % b.x;
    case SpecialReg::TidY:
      return (linear / b.x) % b.y;
    case SpecialReg::TidZ:
      return linear / (b.x * b.y);
    case SpecialReg::NtidX:
      return b.x;
    case SpecialReg::NtidY:
      return b.y;
    case SpecialReg::NtidZ:
      return b.z;
    case SpecialReg::CtaidX:
      return cta_->ctaid.x;
    case SpecialReg::CtaidY:
      return cta_->ctaid.y;
    case SpecialReg::CtaidZ:
      return cta_->ctaid.z;
    case SpecialReg::NctaidX:
      return g.x;
    case SpecialReg::NctaidY:
      return g.y;
    case SpecialReg::NctaidZ:
      return g.z;
    case SpecialReg::LaneId:
      return lane;
    case SpecialReg::WarpId:
      return warp_index_;
    case SpecialReg::NWarpId:
      return cta_->num_warps;
    case SpecialReg::SmId:
      return cta_->sm_id;
    case SpecialReg::NSmId:
      return launch_->num_sms;
    case SpecialReg::GridId:
      return launch_->grid_id;
    case SpecialReg::LanemaskEq:
      return uint32_t(1u << lane);
    case SpecialReg::LanemaskLt:
      return uint32_t((1u << lane) - 1);
    case SpecialReg::LanemaskLe:
      return uint32_t((2ull << lane) - 1);
    case SpecialReg::LanemaskGt:
      return uint32_t(~((2ull << lane) - 1));
    case SpecialReg::LanemaskGe:
      return uint32_t(~((1u << lane) - 1));
    case SpecialReg::DynamicSmemSize:
      return launch_->dynamic_shared_bytes;
    case SpecialReg::TotalSmemSize:
      return cta_shared_bytes(*launch_->kernel, launch_->dynamic_shared_bytes);
    case SpecialReg::AggrSmemSize:
    case SpecialReg::ReservedSmemEnd:
      return cta_->shared.size();
    case SpecialReg::ReservedSmemBegin:
    case SpecialReg::ReservedSmem0:
      return launch_->reserved_shared_begin();
    case SpecialReg::ReservedSmem1:
      return launch_->reserved_shared_begin() + (launch_->reserved_shared_bytes >= 16 ? 8 : 0);
    case SpecialReg::ReservedSmemCap:
      return launch_->reserved_shared_bytes;
    case SpecialReg::ClusterIdX:
      return cta_->ctaid.x;
    case SpecialReg::ClusterIdY:
      return cta_->ctaid.y;
    case SpecialReg::ClusterIdZ:
      return cta_->ctaid.z;
    case SpecialReg::NClusterIdX:
      return g.x;
    case SpecialReg::NClusterIdY:
      return g.y;
    case SpecialReg::NClusterIdZ:
      return g.z;
    case SpecialReg::ClusterNctaidX:
    case SpecialReg::ClusterNctaidY:
    case SpecialReg::ClusterNctaidZ:
    case SpecialReg::ClusterNctaRank:
      return 1;
    case SpecialReg::ClusterCtaidX:
    case SpecialReg::ClusterCtaidY:
    case SpecialReg::ClusterCtaidZ:
    case SpecialReg::ClusterCtaRank:
    case SpecialReg::IsExplicitCluster:
    case SpecialReg::CurrentGraphExec:
    case SpecialReg::PerfCounter:
    case SpecialReg::PerfCounter64:
      return 0;
    default:  // %envreg0..31: this model's driver defines none
      return 0;
  }
}

// A timed SM's cycle counter; the functional core has no cycles: there, clocks (and the global
// timer's nanoseconds) count this warp's instructions.
uint64_t Warp::clock_value(ClockReg c) const {
  const uint64_t cycles = cta_->clock ? *cta_->clock : warp_instructions_;
  const uint64_t ns = cta_->clock ? cycles * cta_->clock_period_ps / 1000 : cycles;
  switch (c) {
    case ClockReg::Clock:
      return uint32_t(cycles);
    case ClockReg::ClockHi:
      return uint32_t(cycles >> 32);
    case ClockReg::Clock64:
      return cycles;
    case ClockReg::GlobalTimer:
      return ns;
    case ClockReg::GlobalTimerLo:
      return uint32_t(ns);
    case ClockReg::GlobalTimerHi:
      return uint32_t(ns >> 32);
  }
  return cycles;
}

// Pushes a register frame for `fn` and fills the special registers it reads.
void Warp::enter_function(const Function& fn, size_t reg_base) {
  fn_ = &fn;
  reg_base_ = reg_base;
  const size_t need = reg_base + size_t(fn.num_regs) * kWarpSize;
  if (regs_.size() < need) regs_.resize(need);
  ctx_.regs = regs_.data() + reg_base_;
  for (const HiddenRegister& h : fn.hidden) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      ctx_.regs[size_t(h.reg) * kWarpSize + lane] = special_value(h.source, lane);
    }
  }
}

void Warp::advance() {
  if (++running_->pc == running_->reconverge) select_active();
}

void Warp::call(const Inst& in, LaneMask exec) {
  const CallSite& site = fn_->call_sites[in.target];
  uint32_t callee_index = site.callee;
  if (site.callee_reg != kNoReg) {
    const unsigned first = unsigned(__builtin_ctz(exec));
    const uint64_t addr = ctx_.regs[size_t(site.callee_reg) * kWarpSize + first];
    for (LaneMask m = exec; m; m &= m - 1) {
      if (ctx_.regs[size_t(site.callee_reg) * kWarpSize + unsigned(__builtin_ctz(m))] != addr)
        fault(in, first, "indirect call with different targets in one warp is not supported");
    }
    const uint64_t index = (addr - kFunctionAddressBase) / 16;
    if (addr < kFunctionAddressBase || (addr - kFunctionAddressBase) % 16 != 0 ||
        index >= launch_->program->functions.size() ||
        !launch_->program->functions[index].has_body) {
      fault(in, first, fmt::format("indirect call to 0x{:x}, which is not a function", addr));
    }
    callee_index = uint32_t(index);
  }
  const Function& callee = launch_->program->functions[callee_index];
  if (site.callee_reg != kNoReg) {  // direct calls were checked when the module loaded
    const std::string bad = call_mismatch(site, callee);
    if (!bad.empty()) fault(in, unsigned(__builtin_ctz(exec)), bad);
  }
  const uint32_t callee_frame = frame_base_ + fn_->frame_bytes;
  const uint32_t stack_used = stack_used_ + callee.depot_bytes + LaunchContext::kCallOverheadBytes;
  if (stack_used > launch_->stack_bytes_per_thread ||
      uint64_t(callee_frame) + callee.frame_bytes > launch_->local_bytes_per_thread()) {
    fault(in, unsigned(__builtin_ctz(exec)),
          fmt::format("stack overflow calling '{}' (stack is {} bytes per thread)", callee.name,
                      launch_->stack_bytes_per_thread));
  }
  for (LaneMask m = exec; m; m &= m - 1) {
    uint8_t* stack = local(unsigned(__builtin_ctz(m)));
    for (size_t i = 0; i < callee.params.size(); ++i) {
      std::memcpy(stack + callee_frame + callee.params[i].offset,
                  stack + frame_base_ + site.arg_offsets[i], callee.params[i].size);
    }
  }
  running_->pc++;  // where the caller resumes
  const SimtEntry base{0, kNoReconverge, exec, running_->level + 1};
  const size_t index = running_index() + 1;  // the callee's base entry, a child of the caller's
  simt_.insert(simt_.begin() + ptrdiff_t(index), base);
  running_ = &simt_[index];
  calls_.push_back(CallFrame{fn_, reg_base_, frame_base_, in.target, index, stack_used_, 0});
  frame_base_ = callee_frame;
  stack_used_ = stack_used;
  enter_function(callee, reg_base_ + size_t(fn_->num_regs) * kWarpSize);
  select_active();
}

// The callee's base SIMT entry is gone: every calling lane has returned or exited.
void Warp::leave_callee() {
  const CallFrame f = calls_.back();
  calls_.pop_back();
  const size_t callee_regs = reg_base_;
  fn_ = f.fn;
  reg_base_ = f.reg_base;
  frame_base_ = f.frame_base;
  stack_used_ = f.stack_used;
  regs_.resize(callee_regs);
  ctx_.regs = regs_.data() + reg_base_;
}

void Warp::ret(LaneMask exec) {
  if (calls_.empty()) {
    exit_lanes(exec);
    return;
  }
  CallFrame& f = calls_.back();
  const CallSite& site = f.fn->call_sites[f.call_site];
  for (LaneMask m = exec; m; m &= m - 1) {
    uint8_t* stack = local(unsigned(__builtin_ctz(m)));
    for (size_t i = 0; i < site.ret_offsets.size(); ++i) {
      std::memcpy(stack + f.frame_base + site.ret_offsets[i],
                  stack + frame_base_ + fn_->returns[i].offset, fn_->returns[i].size);
    }
  }
  f.returned |= exec;
  running_->pc++;
  select_active();
}

void Warp::exit_lanes(LaneMask exec) {
  exited_ |= exec;
  progress_at_ = warp_instructions_;
  running_->pc++;
  select_active();
}

void Warp::arrive_barrier(const Inst& in, LaneMask exec) {
  barrier_ = BarrierArrival{};
  barrier_.lanes = exec;
  barrier_.waits = in.op != Op::BarArrive;
  unsigned s = 0;
  if (in.op == Op::BarRed) {
    barrier_.reduces = true;
    barrier_.red_op = BarRedOp(in.sub);
    barrier_.red_dst = in.ops[0].reg;
    s = 1;
  }
  const unsigned lane = unsigned(__builtin_ctz(exec));
  barrier_.id = uint32_t(read_bits(ctx_, in.ops[s], lane));
  if (barrier_.id >= 16)
    fault(in, lane, fmt::format("barrier {} does not exist (0..15)", barrier_.id));
  const unsigned srcs = in.num_src;
  if (in.op == Op::BarArrive || (in.op == Op::BarSync && srcs == 2) ||
      (in.op == Op::BarRed && srcs == 3)) {
    barrier_.count = uint32_t(read_bits(ctx_, in.src(1), lane));
    if (barrier_.count == 0 || barrier_.count % kWarpSize != 0) {
      fault(in, lane,
            fmt::format("barrier thread count {} is not a positive multiple of {}", barrier_.count,
                        kWarpSize));
    }
  }
  // Barriers are executed per warp (PTX ISA, bar): the arrival counts the whole warp, so lanes
  // parked on another SIMT path (say, on their way to an early return) do not hold it up. Against
  // an explicit thread count (a multiple of the warp size) a warp counts as a full warp.
  barrier_.threads = barrier_.count ? kWarpSize : count_bits(~exited_);
  if (in.op == Op::BarRed) {
    const Operand& p = in.src(srcs - 1);
    for (LaneMask m = exec; m; m &= m - 1) {
      if (read_pred(ctx_, p, unsigned(__builtin_ctz(m)))) barrier_.red_true_lanes++;
    }
  }
  advance();
  state_ = State::AtBarrier;  // the CTA counts the arrival, and resumes bar.arrive at once
}

void Warp::release_barrier(uint32_t red_result) {
  if (barrier_.reduces) {
    for (LaneMask m = barrier_.lanes; m; m &= m - 1) {
      ctx_.regs[size_t(barrier_.red_dst) * kWarpSize + unsigned(__builtin_ctz(m))] = red_result;
    }
  }
  state_ = State::Ready;
  progress_at_ = warp_instructions_;
}

std::string Warp::describe() const {
  const uint32_t at = pc();
  const uint32_t line = fn_ && at < fn_->code.size() ? fn_->code[at].line : 0;
  std::string where = fmt::format("warp {} at {}:{} (PC {} of {})", warp_index_,
                                  launch_->program->file, line, at, fn_ ? fn_->name : "?");
  if (state_ == State::AtBarrier) return fmt::format("{}: waits at barrier {}", where, barrier_.id);
  if (state_ == State::Done) return fmt::format("warp {}: done", warp_index_);
  where += fmt::format(": runs, {} instructions since it last stored, passed a barrier or exited",
                       warp_instructions_ - progress_at_);
  // The address as the first running lane's registers give it now: a spin does not change it,
  // and working it out here keeps loads free of the watchdog's bookkeeping.
  if (last_load_ && last_load_at_ > progress_at_ && active_ != 0)
    where += fmt::format("; it spins on a load of {:#x} at line {}",
                         address_of(last_load_->src(0), unsigned(__builtin_ctz(active_))),
                         last_load_->line);
  return where;
}

void Warp::fault(const Inst& in, unsigned lane, const std::string& what) const {
  const uint32_t linear = warp_index_ * kWarpSize + lane;
  const Dim3& b = launch_->block;
  throw ExecutionError(fmt::format("kernel '{}' block ({},{},{}) thread ({},{},{}): {} at {}:{}",
                                   launch_->kernel->name, cta_->ctaid.x, cta_->ctaid.y,
                                   cta_->ctaid.z, linear % b.x, (linear / b.x) % b.y,
                                   linear / (b.x * b.y), what, launch_->program->file, in.line));
}

void Warp::trap(const Inst& in, LaneMask exec) {
  const unsigned lane = unsigned(__builtin_ctz(exec));
  if (in.sub == 1) {  // __assertfail(message, file, line, function, char size)
    const CallSite& site = fn_->call_sites[in.target];
    auto arg = [&](size_t i, unsigned size) {
      uint64_t v = 0;
      if (i < site.arg_offsets.size())
        std::memcpy(&v, local(lane) + frame_base_ + site.arg_offsets[i], size);
      return v;
    };
    fault(in, lane,
          fmt::format("assertion '{}' failed ({}:{})", read_device_string(arg(0, 8), lane),
                      read_device_string(arg(1, 8), lane), uint32_t(arg(2, 4))));
  }
  fault(in, lane, "trap instruction executed");
}

uint64_t Warp::run(uint64_t budget) {
  const uint64_t first = warp_instructions_;
  while (warp_instructions_ - first < budget && state_ == State::Ready) {
    SimtEntry& top = *running_;
    if (top.pc >= fn_->code.size()) {  // fell off the end of the function: an implicit ret
      ret(active_);
      continue;
    }
    const Inst& in = fn_->code[top.pc];
    LaneMask exec = active_;
    if (in.guard != kNoReg) {
      const uint64_t* g = ctx_.regs + size_t(in.guard) * kWarpSize;
      LaneMask t = 0;
      for (LaneMask m = active_; m; m &= m - 1) {
        const unsigned lane = unsigned(__builtin_ctz(m));
        t |= LaneMask(g[lane] & 1) << lane;
      }
      exec = in.guard_negated ? active_ & ~t : t;
    }
    ++warp_instructions_;
    ++class_counts_[size_t(in.cls)];
    thread_instructions_ += count_bits(exec);
    if (in.exec) {
      ctx_.exec = exec;
      ctx_.active = active_;
      in.exec(in, ctx_);
      // Falling through into the reconvergence point ends this path too.
      if (++top.pc == top.reconverge) select_active();
      continue;
    }
    switch (in.op) {
      case Op::Bra:
        branch(in, exec);
        break;
      case Op::Call:
        if (exec)
          call(in, exec);
        else
          advance();
        break;
      case Op::Ret:
        ret(exec);
        break;
      case Op::Exit:
        exit_lanes(exec);
        break;
      case Op::Trap:
        if (exec) trap(in, exec);
        advance();
        break;
      case Op::BarSync:
      case Op::BarArrive:
      case Op::BarRed:
        if (exec)
          arrive_barrier(in, exec);
        else
          advance();
        break;
      case Op::Vprintf:
        device_printf(in, exec);
        advance();
        break;
      case Op::BarWarpSync:
      case Op::Membar:
      case Op::Nanosleep:
      case Op::Prefetch:
      case Op::Nop:
        advance();
        break;
      default:
        execute_memory(in, exec);
        advance();
        break;
    }
  }
  return warp_instructions_ - first;
}

}  // namespace gpusoc::ptx
