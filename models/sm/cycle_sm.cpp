#include "models/sm/cycle_sm.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/decoupling_quantum.h"
#include "models/common/error.h"
#include "models/sm/device_memory_view.h"

namespace gpusoc::sm {

using sc_core::sc_time;

CycleSm::CycleSm(sc_core::sc_module_name name, uint32_t sm_id, const CycleSmConfig& config,
                 StatGroup& stats_parent)
    : sc_module(name),
      mem_initiator(port_.mem_initiator),
      tex_initiator(tex_port_.mem_initiator),
      sm_id_(sm_id),
      config_(config),
      cycle_ps_(config.cycle_ps()),
      port_("port", sm_id, config.max_in_flight),
      tex_port_("tex_port", sm_id, kTextureRequestsInFlight),
      miss_path_(config_, port_),
      stats_(stats_parent, basename(), config.warp_slots),
      lsu_(config_, miss_path_, stats_, *this),
      mio_(config.processing_blocks, config.mio_queue,
           config.units.units[size_t(Unit::Lsu)].lanes) {
  if (config.warp_slots == 0 || config.processing_blocks == 0)
    throw ModelError(sc_module::name(), "an SM needs warp slots and processing blocks");
  // With MIO queues a block issues a memory instruction a cycle into its queue; the SM's pipe
  // takes the block's lanes' worth.
  ExecutionUnitsConfig block_units = config.units;
  if (mio_.enabled()) block_units.units[size_t(Unit::Lsu)].lanes = ptx::kWarpSize;
  port_.on_dmi_revoked([this](uint64_t start, uint64_t end) {
    if (vram_) vram_->revoke(start, end);  // asked for again at the next access
  });
  slots_.resize(config.warp_slots);
  for (uint32_t b = 0; b < config.processing_blocks; ++b) {
    blocks_.push_back(Block{warp_schedulers().make(config.scheduler),
                            ExecutionUnits(block_units),
                            {},
                            {},
                            Stall::NoWarp});
  }
  SC_HAS_PROCESS(CycleSm);
  SC_THREAD(run);
}

CycleSm::~CycleSm() = default;

uint64_t CycleSm::now_cycle() const {
  const uint64_t ps = ps_.now();
  return (ps + cycle_ps_ - 1) / cycle_ps_;
}

sc_time CycleSm::time_of(uint64_t cycle) const {
  return ps_.time(cycle * cycle_ps_);
}

void CycleSm::launch_cta(GridWork& grid, ptx::Dim3 ctaid) {
  arriving_.push_back({&grid, ctaid, now_cycle()});
  work_arrived_.notify(sc_core::SC_ZERO_TIME);
}

void CycleSm::report(ResidentCta& cta, bool failed, bool dropped, const std::string& message) {
  CtaReport r;
  r.ctaid = cta.ctaid;
  r.start = time_of(cta.start_cycle);
  r.end = std::max(time_of(cycle_), sc_core::sc_time_stamp());
  r.failed = failed;
  r.dropped = dropped;
  r.message = message;
  if (!failed && !dropped) {
    cta.runner->add_stats(r.stats);
    count(&CycleStats::ctas, cta.kernel);
    count(&CycleStats::thread_instructions, cta.kernel, r.stats.thread_instructions);
  }
  if (cta.kernel && --resident_kernel(cta.kernel).ctas == 0) {
    resident_kernels_.erase(std::find_if(resident_kernels_.begin(), resident_kernels_.end(),
                                         [&](const auto& k) { return k.stats == cta.kernel; }));
  }
  if (cta.done_cycle != kNever) --finished_ctas_;
  GridWork& grid = *cta.grid;
  runners_.give_back(grid, std::move(cta.runner));
  listener_->cta_retired(grid, sm_id_, r);
}

bool CycleSm::place(GridWork& grid, ptx::Dim3 ctaid) {
  if (!vram_) vram_ = map_device_memory(*port_.mem_initiator.operator->(), name());
  auto cta = std::make_unique<ResidentCta>();
  cta->grid = &grid;
  cta->ctaid = ctaid;
  cta->runner = runners_.take(grid);
  cta->runner->start(ctaid, sm_id_, vram_.get(), this);
  cta->runner->set_timing_hooks(true, &cycle_, cycle_ps_);
  cta->start_cycle = cycle_;
  if (kernel_stats_) cta->kernel = &kernel_stats_->of(grid.launch.kernel->name);
  const uint32_t warps = cta->runner->num_warps();
  if (warps > config_.warp_slots - resident_warps_) {
    throw ModelError(name(), fmt::format("a CTA of {} warps was placed with {} warp slots free",
                                         warps, config_.warp_slots - resident_warps_));
  }
  for (uint32_t w = 0, s = 0; w < warps; ++s) {
    WarpSlot& slot = slots_[s];
    if (slot.cta) continue;
    slot.cta = cta.get();
    slot.warp = w++;
    slot.ready_at = slot.hold_until = cycle_ + config_.cta_launch_cycles;
    slot.stall = Stall::None;
    slot.long_wait = false;
    slot.loads_waiting = 0;
    slot.draining = false;
    slot.last_issued = RegisterUse();
    ++slot.generation;
    slot.scoreboard.clear();
    cta->slots.push_back(s);
    Block& block = blocks_[s % blocks_.size()];
    block.live.insert(std::upper_bound(block.live.begin(), block.live.end(), s), s);
    block.scheduler->warp_added(s, warps_placed_++);
    unsettle(s);
  }
  cta->live_warps = warps;
  resident_warps_ += warps;
  if (cta->kernel) {
    ResidentKernel& k = resident_kernel(cta->kernel);
    ++k.ctas;
    k.warps += warps;
  }
  // A warp may be done before it starts (a CTA of threads that all exist is never empty, but its
  // last warp may hold no thread of a partial block only if the block is empty, which the
  // dispatcher refuses).
  resident_.push_back(std::move(cta));
  return true;
}

void CycleSm::grid_failed() {
  drop_due_ = true;
  work_arrived_.notify(sc_core::SC_ZERO_TIME);
}

void CycleSm::admit_arrivals() {
  // Reporting a dropped CTA can place another on this SM: take the list first.
  std::vector<Arrival> batch;
  batch.swap(arriving_);
  for (const Arrival& a : batch) {
    if (a.grid->failed) {  // its grid faulted before the CTA got here: it never starts
      const sc_time now = sc_core::sc_time_stamp();
      listener_->cta_retired(*a.grid, sm_id_, dropped_cta(a.ctaid, now, now));
      continue;
    }
    place(*a.grid, a.ctaid);
  }
}

void CycleSm::finish_warp(uint32_t s) {
  WarpSlot& slot = slots_[s];
  ResidentCta& cta = *slot.cta;
  Block& block = blocks_[s % blocks_.size()];
  block.live.erase(std::find(block.live.begin(), block.live.end(), s));
  block.scheduler->warp_removed(s);
  unsettle(s);
  slot.cta = nullptr;
  slot.scoreboard.clear();
  --resident_warps_;
  if (cta.kernel) --resident_kernel(cta.kernel).warps;
  if (--cta.live_warps == 0) {
    cta.done_cycle = cycle_ + 1 + config_.cta_retire_cycles;
    ++finished_ctas_;
  }
}

void CycleSm::warp_done(uint32_t s) {
  WarpSlot& slot = slots_[s];
  if (slot.loads_waiting == 0) {
    finish_warp(s);
    return;
  }
  slot.draining = true;
  slot.ready_at = kNever;
  slot.stall = Stall::Memory;
  unsettle(s);
}

void CycleSm::release_slots(ResidentCta& cta) {
  for (uint32_t w = 0; w < cta.slots.size(); ++w) {
    const uint32_t s = cta.slots[w];
    if (slots_[s].cta == &cta) finish_warp(s);
  }
}

void CycleSm::fail_cta(ResidentCta& cta, const std::string& message) {
  release_slots(cta);
  synchronize_to(cycle_);
  cta.grid->failed = true;
  auto it = std::find_if(resident_.begin(), resident_.end(),
                         [&](const auto& c) { return c.get() == &cta; });
  std::unique_ptr<ResidentCta> failed = std::move(*it);
  resident_.erase(it);
  report(*failed, true, false, message);
  drop_failed_grids();
}

void CycleSm::drop_failed_grids() {
  for (size_t i = 0; i < resident_.size();) {
    if (!resident_[i]->grid->failed) {
      ++i;
      continue;
    }
    std::unique_ptr<ResidentCta> cta = std::move(resident_[i]);
    resident_.erase(resident_.begin() + long(i));
    release_slots(*cta);
    synchronize_to(cycle_);
    report(*cta, false, true, "");
  }
}

void CycleSm::retire_finished() {
  for (size_t i = 0; i < resident_.size();) {
    if (resident_[i]->done_cycle > cycle_) {
      ++i;
      continue;
    }
    std::unique_ptr<ResidentCta> cta = std::move(resident_[i]);
    resident_.erase(resident_.begin() + long(i));
    synchronize_to(cycle_);  // the listener hears of it at its simulated time
    report(*cta, false, false, "");
  }
}

CycleSm::ResidentKernel& CycleSm::resident_kernel(CycleStats* kernel) {
  for (ResidentKernel& k : resident_kernels_)
    if (k.stats == kernel) return k;
  resident_kernels_.push_back(ResidentKernel{kernel});
  return resident_kernels_.back();
}

uint64_t CycleSm::next_wake() const {
  uint64_t next = kNever;
  for (const Block& b : blocks_) {
    if (b.settled && b.settled_until > cycle_) {
      next = std::min(next, b.settled_until);
      continue;
    }
    for (uint32_t s : b.live) next = std::min(next, slots_[s].ready_at);
  }
  if (miss_path_.has_due()) next = std::min(next, miss_path_.next_due());
  for (const auto& cta : resident_) next = std::min(next, cta->done_cycle);
  if (!arriving_.empty()) next = std::min(next, cycle_ + 1);
  if (lsu_can_progress()) next = std::min(next, cycle_ + 1);
  return next == kNever ? kNever : std::max(next, cycle_ + 1);
}

void CycleSm::advance_to(uint64_t target) {
  if (target <= cycle_) return;
  const uint64_t n = target - cycle_;
  if (!resident_.empty()) {
    stats_.cycles += n;
    stats_.issue_slots += n * blocks_.size();
    stats_.resident_warp_cycles += n * resident_warps_;
    stats_.occupancy.sample(resident_warps_, n);
    for (const ResidentKernel& k : resident_kernels_) {
      k.stats->cycles += n;
      k.stats->resident_warp_cycles += n * k.warps;
      k.stats->occupancy.sample(k.warps, n);
    }
    for (const Block& b : blocks_) {
      static constexpr Counter CycleStats::*kReasons[] = {nullptr,
                                                          &CycleStats::stall_pipeline,
                                                          &CycleStats::stall_dependency,
                                                          &CycleStats::stall_memory,
                                                          &CycleStats::stall_texture,
                                                          &CycleStats::stall_barrier,
                                                          &CycleStats::stall_no_warp};
      // A block's slot goes to the kernel that issued or is blamed for the stall; one no warp can
      // be blamed for goes to the kernel resident longest. (Stall::None: the block issued this
      // cycle; n > 1 only when no block did.)
      CycleStats* kernel = b.charged_kernel;
      if (!kernel && !resident_kernels_.empty()) kernel = resident_kernels_.front().stats;
      if (kernel) kernel->issue_slots += n;
      if (b.stall != Stall::None) count(kReasons[size_t(b.stall)], kernel, n);
    }
  }
  cycle_ = target;
}

void CycleSm::synchronize_to(uint64_t cycle) {
  const sc_time t = time_of(cycle);
  if (t > sc_core::sc_time_stamp()) wait(t - sc_core::sc_time_stamp());
}

void CycleSm::wait_for_activity() {
  if (resident_.empty() && arriving_.empty() && miss_path_.in_flight() == 0 && lsu_.idle() &&
      miss_path_.waiting() == 0 && tex_outbox_.empty()) {
    wait(work_arrived_);
  } else {
    // Replies whose time only the memory path knows, or END_REQ: let SystemC catch up to them.
    synchronize_to(cycle_);
    collect_replies();
    if (arriving_.empty() && !miss_path_.has_due() && !lsu_can_progress()) wait_for_replies();
  }
  for (Block& b : blocks_)
    if (b.stall == Stall::None) b.stall = b.live.empty() ? Stall::NoWarp : Stall::Memory;
  advance_to(std::max(cycle_, now_cycle()));
}

void CycleSm::wait_for_replies() {
  if (config_.watchdog_reply_cycles == 0 || miss_path_.in_flight() == 0 || resident_.empty()) {
    wait(port_.activity() | tex_port_.activity() | work_arrived_);
    return;
  }
  // One deadline event, armed once and left pending while replies come: waiting costs no timer.
  const sc_time limit = time_of(config_.watchdog_reply_cycles) - time_of(0);
  const sc_time now = sc_core::sc_time_stamp();
  if (deadline_ <= now) {
    deadline_ = std::max(last_reply_ + limit, now);
    reply_deadline_.notify(deadline_ - now);
  }
  wait(port_.activity() | tex_port_.activity() | work_arrived_ | reply_deadline_);
  if (sc_core::sc_time_stamp() < deadline_) return;  // woken by something else
  if (port_.has_completions() || tex_port_.has_completions() ||
      sc_core::sc_time_stamp() - last_reply_ < limit)
    return;
  std::vector<ResidentCta*> waiting;
  for (const auto& cta : resident_) {
    for (uint32_t s : cta->slots) {
      if (slots_[s].cta == cta.get() && slots_[s].loads_waiting > 0) {
        waiting.push_back(cta.get());
        break;
      }
    }
  }
  for (ResidentCta* cta : waiting) fail_cta(*cta, lost_reply_report(*cta));
}

std::string CycleSm::lost_reply_report(const ResidentCta& cta) const {
  std::string report = fmt::format(
      "kernel '{}' block ({},{},{}): watchdog: SM {} got no memory reply for {} cycles "
      "(sm.cycle.watchdog_reply_cycles) with {} requests outstanding: lost replies; its warps:",
      cta.runner->launch().kernel->name, cta.ctaid.x, cta.ctaid.y, cta.ctaid.z, sm_id_,
      config_.watchdog_reply_cycles, miss_path_.in_flight());
  for (uint32_t w = 0; w < cta.slots.size(); ++w) {
    const WarpSlot& slot = slots_[cta.slots[w]];
    if (slot.cta != &cta) continue;
    report += "\n  " + cta.runner->warp(w).describe();
    if (slot.loads_waiting > 0)
      report += fmt::format("; waits for {} memory replies", slot.loads_waiting);
  }
  return report;
}

void CycleSm::run() {
  quantum_ = decoupling_quantum(config_.quantum);
  const uint64_t quantum_ps = ps_.of(quantum_);
  for (;;) {
    if (!arriving_.empty()) {
      cycle_ = std::max(cycle_, now_cycle());
      admit_arrivals();
    }
    // Another SM's fault fails a grid: its CTAs here are dropped soon (checked every 64 rounds:
    // checking every round costs more than the few cycles it would save).
    if ((++rounds_ & 63) == 0 || drop_due_) {
      drop_due_ = false;
      drop_failed_grids();
    }
    collect_replies();
    land_replies();
    if (finished_ctas_) retire_finished();
    const bool issued = issue_cycle();
    lsu_.cycle(cycle_);
    send_cycle();
    if (!tex_outbox_.empty()) send_texture();
    collect_replies();  // replies the target answered at once belong in the next wake-up
    const uint64_t next = issued ? cycle_ + 1 : next_wake();
    if (next == kNever) {
      wait_for_activity();
      continue;
    }
    // Jump at most a quantum past SystemC time, so that CTAs and replies arriving meanwhile are
    // late by no more than that. A request held back for END_REQ (the memory's port queue full)
    // keeps the SM within a 64th of it: a quantum ahead, it would learn of the room a quantum
    // late and send its next requests then. (In step costs 11% more host instructions on the
    // V100 reduction, a 64th 3%, with the same timing to 0.1%; a 16th still moved it by 4%.)
    const uint64_t lookahead_ps = port_.awaiting_end_req() ? quantum_ps / 64 : quantum_ps;
    const uint64_t horizon = (ps_.now() + lookahead_ps) / cycle_ps_;
    if (next > horizon) {
      advance_to(std::max(horizon, cycle_ + 1));
      synchronize_to(cycle_);
      continue;
    }
    advance_to(next);
    if (cycle_ * cycle_ps_ > ps_.now() + lookahead_ps) synchronize_to(cycle_);
  }
}

}  // namespace gpusoc::sm
