// The cycle-level SM's load/store path: the PTX core reports each access as it executes; shared,
// parameter and local accesses are timed on the spot, global and constant ones become cache lines
// queued for the LSU, which looks up one line per cycle in the L1 or the constant cache and hands
// misses, stores and atomics to the memory port, one request per cycle.
#include <algorithm>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/sm/cycle_sm.h"

namespace gpusoc::sm {
namespace {

// PTX's atom/red operation as the memory system names it (models/common does not know the ISA).
AtomicOp atomic_op(ptx::AtomOp op) {
  using P = ptx::AtomOp;
  switch (op) {
    case P::Add:
      return AtomicOp::Add;
    case P::Min:
      return AtomicOp::Min;
    case P::Max:
      return AtomicOp::Max;
    case P::Inc:
      return AtomicOp::Inc;
    case P::Dec:
      return AtomicOp::Dec;
    case P::And:
      return AtomicOp::And;
    case P::Or:
      return AtomicOp::Or;
    case P::Xor:
      return AtomicOp::Xor;
    case P::Exch:
      return AtomicOp::Exch;
    case P::Cas:
      return AtomicOp::Cas;
  }
  return AtomicOp::Add;  // unreachable: every operation is listed
}

// Where a local-memory offset of a lane lies in the interleaved layout hardware uses (consecutive
// 32-bit words of one thread are a warp apart), so that same-offset accesses of a warp coalesce.
uint64_t interleaved_local(uint64_t offset, unsigned lane) {
  return (offset / 4) * 4 * ptx::kWarpSize + lane * 4 + offset % 4;
}

}  // namespace

uint32_t CycleSm::new_access(uint32_t slot) {
  uint32_t id;
  if (!free_accesses_.empty()) {
    id = free_accesses_.back();
    free_accesses_.pop_back();
  } else {
    id = uint32_t(accesses_.size());
    accesses_.emplace_back();
  }
  accesses_[id] = Access{slot, slots_[slot].generation, 0, cycle_, false, true};
  return id;
}

uint32_t CycleSm::issuing_access() {
  if (issuing_access_ == kNone) issuing_access_ = new_access(issuing_slot_);
  return issuing_access_;
}

void CycleSm::part_done(uint32_t id, uint64_t cycle) {
  Access& a = accesses_[id];
  a.ready = std::max(a.ready, cycle);
  if (--a.parts != 0) return;
  WarpSlot& slot = slots_[a.slot];
  if (slot.cta && slot.generation == a.generation) {
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
  a.live = false;
  free_accesses_.push_back(id);
}

void CycleSm::global_access(ptx::GlobalAccess kind, const uint64_t* addresses, ptx::LaneMask lanes,
                            unsigned bytes) {
  CoalescerGeometry geometry;
  if (config_.l1.enabled()) geometry = {config_.l1.line_bytes, config_.l1.sector_bytes};
  coalesce(addresses, lanes, bytes, geometry, lines_);
  CycleStats* kernel = slots_[issuing_slot_].cta->kernel;
  count(&CycleStats::global_accesses, kernel);
  count(&CycleStats::global_lines, kernel, lines_.size());
  for (const LineRequest& l : lines_)
    count(&CycleStats::global_sectors, kernel, sector_count(l.sector_mask));
  LineKind line_kind = LineKind::Store;
  AtomicOp atomic = AtomicOp::Add;
  uint32_t access = kNone;
  if (kind == ptx::GlobalAccess::Load) {
    const bool cached = config_.l1.enabled() && !(issuing_->flags & ptx::kVolatile);
    line_kind = cached ? LineKind::CachedLoad : LineKind::Load;
    access = issuing_access();
  } else if (kind == ptx::GlobalAccess::Atomic) {
    line_kind = LineKind::Atomic;
    atomic = atomic_op(ptx::AtomOp(issuing_->sub));
    access = issuing_access();
  }
  queue_lines(line_kind, access, atomic);
}

void CycleSm::queue_lines(LineKind kind, uint32_t access, AtomicOp atomic) {
  for (const LineRequest& l : lines_) {
    lsu_queue_.push_back(QueuedLine{l.line_address, l.sector_mask, access, kind, atomic,
                                    issuing_slot_, slots_[issuing_slot_].cta->kernel});
    if (access != kNone) ++accesses_[access].parts;
  }
}

void CycleSm::on_chip_access(ptx::StateSpace space, ptx::GlobalAccess kind,
                             const uint64_t* addresses, ptx::LaneMask lanes, unsigned bytes) {
  const bool has_result = kind != ptx::GlobalAccess::Store;
  uint64_t ready = cycle_;
  switch (space) {
    case ptx::StateSpace::Shared: {
      const uint32_t degree = config_.shared.conflict_degree(addresses, lanes, bytes);
      // The first pass takes a cycle, each further one (a replay) shared_replay_cycles.
      const uint64_t busy =
          degree == 0 ? 0 : 1 + uint64_t(degree - 1) * config_.shared_replay_cycles;
      const uint64_t start = std::max(cycle_, shared_free_);
      shared_free_ = start + busy;
      CycleStats* kernel = slots_[issuing_slot_].cta->kernel;
      count(&CycleStats::shared_accesses, kernel);
      count(&CycleStats::shared_cycles, kernel, busy);
      ready = start + busy - 1 + config_.shared_latency;
      break;
    }
    case ptx::StateSpace::Const:
      coalesce(addresses, lanes, bytes,
               {config_.constant.line_bytes, config_.constant.sector_bytes}, lines_);
      queue_lines(LineKind::ConstLoad, issuing_access());
      return;
    case ptx::StateSpace::Param:
      ready = cycle_ + config_.param_latency;
      break;
    case ptx::StateSpace::Local: {
      // Assumed L1-resident (spills and small stacks): one LSU cycle per line of the interleaved
      // layout, then the L1 hit latency (the shared-memory latency without an L1).
      uint64_t interleaved[ptx::kWarpSize];
      for (ptx::LaneMask m = lanes; m; m &= m - 1) {
        const unsigned lane = unsigned(__builtin_ctz(m));
        interleaved[lane] = interleaved_local(addresses[lane], lane);
      }
      coalesce(interleaved, lanes, bytes, {128, 32}, lines_);
      const uint64_t start = std::max(cycle_, shared_free_);
      shared_free_ = start + lines_.size();
      ready = start + lines_.size() - 1 +
              (config_.l1.enabled() ? config_.l1.hit_latency : config_.shared_latency);
      break;
    }
    default:
      return;
  }
  if (!has_result) return;
  Access& a = accesses_[issuing_access()];
  a.ready = std::max(a.ready, ready);
}

bool CycleSm::lsu_has_room() const {
  // A warp instruction touches at most 64 lines (32 lanes, each straddling two).
  return lsu_queue_.size() + 2 * ptx::kWarpSize <= config_.lsu_queue;
}

bool CycleSm::lsu_can_progress() const {
  return miss_path_.can_send() || texture_can_send() ||
         (!lsu_queue_.empty() && !miss_path_.waits_for_mshr() &&
          miss_path_.waiting() < config_.max_in_flight);
}

// The line at the head of the LSU queue goes to the L1 miss path: a cached load is looked up,
// anything else passes to the port.
void CycleSm::lsu_cycle() {
  if (lsu_queue_.empty() || miss_path_.waiting() >= config_.max_in_flight) return;
  const QueuedLine& q = lsu_queue_.front();
  const uint32_t warp = slots_[q.slot].warp;
  switch (q.kind) {
    case LineKind::CachedLoad:
    case LineKind::ConstLoad: {
      const bool is_const = q.kind == LineKind::ConstLoad;
      const SectoredCache::Result r =
          miss_path_.load(is_const, q.line, q.sectors, cycle_, q.access, warp);
      switch (r.outcome) {
        case SectoredCache::Outcome::Hit:
          count(is_const ? &CycleStats::const_hits : &CycleStats::l1_hits, q.kernel);
          part_done(q.access, r.ready_cycle);
          break;
        case SectoredCache::Outcome::Merged:
          count(is_const ? &CycleStats::const_hits : &CycleStats::l1_merges, q.kernel);
          break;
        case SectoredCache::Outcome::Miss:
          count(is_const ? &CycleStats::const_misses : &CycleStats::l1_misses, q.kernel);
          break;
        case SectoredCache::Outcome::Stall:  // until a fill frees an MSHR
          ++stats_.l1_stalls;
          return;
      }
      break;
    }
    case LineKind::Load:
      miss_path_.pass(AccessKind::Load, q.line, q.sectors, q.atomic, cycle_, q.access, warp);
      break;
    case LineKind::Atomic:
      miss_path_.pass(AccessKind::Atomic, q.line, q.sectors, q.atomic, cycle_, q.access, warp);
      break;
    case LineKind::Store:
      miss_path_.pass(AccessKind::Store, q.line, q.sectors, q.atomic, cycle_, q.access, warp);
      break;
  }
  lsu_queue_.pop_front();
  if (!lsu_waiters_.empty() && lsu_has_room()) {  // warps held back for room may go again
    for (uint32_t s : lsu_waiters_) {
      WarpSlot& slot = slots_[s];
      if (slot.cta && slot.ready_at == kNever && slot.stall == Stall::Pipeline) {
        slot.ready_at = std::max(cycle_ + 1, slot.hold_until);
        unsettle(s);
      }
    }
    lsu_waiters_.clear();
  }
}

void CycleSm::send_cycle() {
  if (miss_path_.waiting() == 0) return;
  if (!miss_path_.can_send()) {
    ++stats_.port_stalls;
    return;
  }
  if (miss_path_.send(time_of(cycle_), stats_))
    last_reply_ = sc_core::sc_time_stamp();  // the watchdog's clock starts
}

void CycleSm::take_replies() {
  replies_.clear();
  port_.take_completions(replies_);
  if (texture_in_flight_) {
    tex_port_.take_completions(replies_);
    texture_in_flight_ = tex_port_.in_flight() > 0;
  }
  last_reply_ = sc_core::sc_time_stamp();
  for (const MemoryCompletion& c : replies_) {
    if (c.error) {
      throw ModelError(name(), fmt::format("device memory answered a timing request with an error "
                                           "(tag 0x{:x})",
                                           c.tag));
    }
  }
  miss_path_.arrived(replies_, cycle_, cycle_ps_, ps_);
}

void CycleSm::land_replies() {
  miss_path_.land(cycle_, [this](uint32_t access, uint64_t cycle) { part_done(access, cycle); });
}

}  // namespace gpusoc::sm
