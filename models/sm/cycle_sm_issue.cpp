// The cycle-level SM's issue stage: each processing block tries its warps in its scheduler's
// order and issues the first whose next instruction has its registers and its unit free.
#include "models/sm/cycle_sm.h"

#include <algorithm>

namespace gpusoc::sm {
using ptx::Inst;

bool CycleSm::try_issue(Block& block, uint32_t s) {
  WarpSlot& slot = slots_[s];
  if (slot.ready_at > cycle_) return false;
  ResidentCta& cta = *slot.cta;
  ptx::CtaRunner& runner = *cta.runner;
  if (runner.warp(slot.warp).state() == ptx::Warp::State::AtBarrier) {
    slot.stall = Stall::Barrier;
    slot.ready_at = kNever;
    return false;
  }
  const Inst* in = nullptr;
  try {
    in = runner.next_instruction(slot.warp);
  } catch (const ptx::ExecutionError& e) {  // its end left the others deadlocked at a barrier
    fail_cta(cta, e.what());
    return true;
  }
  if (!in) {  // it ran off the end of the kernel
    wake_released(cta);
    warp_done(s);
    return false;
  }
  // A warp is often tried several times before it issues: decode its registers once.
  const uint32_t frame = runner.warp(slot.warp).register_frame();
  if (slot.regs_for != in || slot.regs_frame != frame) {
    slot.regs = RegisterUse(*in, frame);
    slot.regs_for = in;
    slot.regs_frame = frame;
  }
  const RegisterUse& regs = slot.regs;
  const uint64_t ready = slot.scoreboard.ready_cycle(regs.regs, regs.count(), cycle_);
  if (ready > cycle_) {
    switch (slot.scoreboard.waits_on(regs.regs, regs.count())) {
      case Scoreboard::Wait::Texture:
        slot.stall = Stall::Texture;
        break;
      case Scoreboard::Wait::Memory:
        slot.stall = Stall::Memory;
        break;
      default:
        slot.stall = Stall::Dependency;
    }
    slot.ready_at = ready == Scoreboard::kUnknown ? kNever : ready;
    return false;
  }
  const Unit unit = block.units.unit_of(in->cls);
  const bool via_mio = unit == Unit::Lsu && mio_.enabled();
  const uint32_t block_index = s % uint32_t(blocks_.size());
  uint64_t unit_free = block.units.free_at(unit);
  if (via_mio)  // the queue waits for the pipe and the banks
    unit_free = std::max(unit_free, mio_.room_at(block_index, cycle_));
  else if (in->space == ptx::StateSpace::Shared)
    unit_free = std::max(unit_free, lsu_.shared_free());
  if (unit_free > cycle_) {
    slot.stall = Stall::Pipeline;
    slot.ready_at = unit_free;
    return false;
  }
  if (unit == Unit::Lsu && !lsu_.has_room()) {  // woken when the LSU drains
    slot.stall = Stall::Pipeline;
    slot.ready_at = kNever;
    lsu_.hold(s);
    return false;
  }

  // Issue: the PTX core executes it now; the SM decides when its results land.
  uint32_t reused = 0;
  if (config_.operand_reuse) {
    reused = reused_operands(regs, slot.last_issued);
    slot.last_issued = regs;
  }
  const uint32_t extra = operand_bank_conflict_cycles(regs.sources(), regs.num_sources,
                                                      config_.register_banks, reused);
  uint64_t result = block.units.issue(in->cls, cycle_, extra);
  uint64_t start = cycle_;  // when the LSU takes it
  if (via_mio) {
    const bool banks = in->space == ptx::StateSpace::Shared;
    // The operand reads (extra) come first; the queue's wait adds to them.
    start = mio_.enqueue(block_index, cycle_ + extra, banks ? lsu_.shared_free() : 0);
    result += start - (cycle_ + extra);
  }
  lsu_.begin_instruction(s, slot.generation, slot.warp, in, cta.kernel, start);
  try {
    runner.step(slot.warp, 1);
  } catch (const ptx::ExecutionError& e) {  // a kernel fault; model errors propagate
    lsu_.abandon_instruction();             // the faulting access never leaves the SM
    fail_cta(cta, e.what());
    return true;
  }
  block.scheduler->issued(s);
  count(&CycleStats::warp_instructions, cta.kernel);
  const uint32_t access = lsu_.instruction_access();
  if (access == Lsu::kNone) {
    for (unsigned i = 0; i < regs.num_dests; ++i) slot.scoreboard.reserve(regs.dests()[i], result);
  } else {
    LsuAccess& a = lsu_.access(access);
    if (a.parts == 0) {  // served on chip: the time is known already
      for (unsigned i = 0; i < regs.num_dests; ++i)
        slot.scoreboard.reserve(regs.dests()[i], std::max(a.ready, cycle_ + 1), 0, true);
      lsu_.release(access);
    } else {
      for (unsigned i = 0; i < regs.num_dests; ++i)
        slot.scoreboard.reserve(regs.dests()[i], Scoreboard::kUnknown, access, true, a.texture);
      if (regs.num_dests) {
        a.has_result = true;
        ++slot.loads_waiting;
      }
    }
  }
  // One instruction per warp per cycle; a branch holds its warp until it resolves.
  slot.ready_at = slot.hold_until = unit == Unit::Branch ? result : cycle_ + 1;
  slot.stall = Stall::None;
  const ptx::Warp& warp = runner.warp(slot.warp);
  if (warp.state() == ptx::Warp::State::AtBarrier) {
    slot.stall = Stall::Barrier;
    slot.ready_at = kNever;
  }
  wake_released(cta);
  if (warp.state() == ptx::Warp::State::Done) {
    warp_done(s);
  } else {
    update_long_wait(s);
  }
  return true;
}

void CycleSm::access_completed(uint32_t id, const LsuAccess& a) {
  WarpSlot& slot = slots_[a.slot];
  if (!slot.cta || slot.generation != a.generation) return;  // its warp has gone
  if (a.has_result) --slot.loads_waiting;
  if (slot.draining) {
    if (slot.loads_waiting == 0) finish_warp(a.slot);
  } else {
    slot.scoreboard.complete(id, a.ready);
    slot.ready_at = std::min(slot.ready_at, std::max({a.ready, cycle_, slot.hold_until}));
    unsettle(a.slot);
    update_long_wait(a.slot);
  }
}

void CycleSm::lsu_room_again(const std::vector<uint32_t>& waiting) {
  for (uint32_t s : waiting) {
    WarpSlot& slot = slots_[s];
    if (slot.cta && slot.ready_at == kNever && slot.stall == Stall::Pipeline) {
      slot.ready_at = std::max(cycle_ + 1, slot.hold_until);
      unsettle(s);
    }
  }
}

void CycleSm::update_long_wait(uint32_t s) {
  WarpSlot& slot = slots_[s];
  const bool waits = slot.loads_waiting > 0 || slot.stall == Stall::Barrier;
  if (waits == slot.long_wait) return;
  slot.long_wait = waits;
  blocks_[s % blocks_.size()].scheduler->long_latency_wait(s, waits);
}

void CycleSm::wake_released(ResidentCta& cta) {
  for (uint32_t w : cta.runner->released()) {
    WarpSlot& slot = slots_[cta.slots[w]];
    if (slot.cta != &cta) continue;
    slot.hold_until = std::max(slot.hold_until, cycle_ + std::max(1u, config_.barrier_cycles));
    slot.ready_at = slot.hold_until;
    slot.stall = Stall::None;
    unsettle(cta.slots[w]);
    update_long_wait(cta.slots[w]);
  }
}

bool CycleSm::issue_cycle() {
  bool any = false;
  for (Block& block : blocks_) {
    if (block.live.empty()) {
      block.stall = Stall::NoWarp;
      block.charged_kernel = nullptr;
      continue;
    }
    if (block.settled && cycle_ < block.settled_until) {
      block.stall = block.settled_stall;
      block.charged_kernel = block.settled_kernel;
      continue;
    }
    block.settled = false;
    // A block that cannot issue reports the stall nearest to issuing (Stall's order); warps
    // that only wait for their own last issue or their start leave it at "no eligible warp".
    Stall worst = Stall::NoWarp;
    block.charged_kernel = nullptr;
    auto note = [&](const WarpSlot& slot) {
      if (slot.cta && slot.stall != Stall::None && uint8_t(slot.stall) < uint8_t(worst)) {
        worst = slot.stall;
        block.charged_kernel = slot.cta->kernel;
      }
    };
    // Most cycles of a busy SM find no warp of the block due, or one: settle those without
    // asking the scheduler for an order (when its order holds every warp). One pass counts the
    // due warps and notes the others' stalls, which is all those cases need.
    unsigned due = 0;
    uint32_t lone = 0;
    uint64_t earliest = kNever;
    for (uint32_t s : block.live) {
      const WarpSlot& slot = slots_[s];
      if (slot.ready_at <= cycle_) {
        ++due;
        lone = s;
      } else {
        note(slot);
        earliest = std::min(earliest, slot.ready_at);
      }
    }
    if (due == 0) {
      block.stall = worst;
      block.settled = true;
      block.settled_until = earliest;
      block.settled_stall = worst;
      block.settled_kernel = block.charged_kernel;
      continue;
    }
    if (due == 1 && block.scheduler->orders_every_warp()) {
      block.order.assign(1, lone);
    } else {
      worst = Stall::NoWarp;  // noted again below, for the warps the order tries
      block.charged_kernel = nullptr;
      block.scheduler->order(block.live, block.order);
    }
    bool issued = false;
    for (uint32_t s : block.order) {
      if (!slots_[s].cta) continue;                // a fault freed it during this cycle
      CycleStats* kernel = slots_[s].cta->kernel;  // try_issue may free the slot
      if (try_issue(block, s)) {
        issued = true;
        block.charged_kernel = kernel;
        break;
      }
      note(slots_[s]);
    }
    block.stall = issued ? Stall::None : worst;
    any |= issued;
  }
  return any;
}

}  // namespace gpusoc::sm
