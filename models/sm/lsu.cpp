// The load/store unit (lsu.h): accesses timed on chip, lines queued, one line a cycle to the L1
// miss path, and the accesses' parts counted down.
#include "models/sm/lsu.h"

#include <algorithm>

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

Lsu::Lsu(const CycleSmConfig& config, L1MissPath& miss_path, CycleStats& stats, LsuClient& client)
    : config_(config), miss_path_(miss_path), stats_(stats), client_(client) {}

void Lsu::begin_instruction(uint32_t slot, uint32_t generation, uint32_t warp,
                            const ptx::Inst* inst, CycleStats* kernel, uint64_t cycle) {
  slot_ = slot;
  generation_ = generation;
  warp_ = warp;
  inst_ = inst;
  kernel_ = kernel;
  issue_cycle_ = cycle;
  instruction_access_ = kNone;
  queued_before_ = queue_.size();
}

void Lsu::abandon_instruction() {
  queue_.resize(queued_before_);
  // A texture request that went out frees the access when its answer comes.
  if (instruction_access_ != kNone && !accesses_[instruction_access_].texture)
    release(instruction_access_);
  instruction_access_ = kNone;
}

uint32_t Lsu::access_for_instruction() {
  if (instruction_access_ != kNone) return instruction_access_;
  if (!free_accesses_.empty()) {
    instruction_access_ = free_accesses_.back();
    free_accesses_.pop_back();
  } else {
    instruction_access_ = uint32_t(accesses_.size());
    accesses_.emplace_back();
  }
  accesses_[instruction_access_] = LsuAccess{slot_, generation_, 0, issue_cycle_, false, false};
  return instruction_access_;
}

uint32_t Lsu::add_texture_part() {
  const uint32_t id = access_for_instruction();
  ++accesses_[id].parts;
  accesses_[id].texture = true;
  return id;
}

void Lsu::part_done(uint32_t id, uint64_t cycle) {
  LsuAccess& a = accesses_[id];
  a.ready = std::max(a.ready, cycle);
  if (--a.parts != 0) return;
  client_.access_completed(id, a);
  release(id);
}

void Lsu::global_access(ptx::GlobalAccess kind, const uint64_t* addresses, ptx::LaneMask lanes,
                        unsigned bytes) {
  CoalescerGeometry geometry;
  if (config_.l1.enabled()) geometry = {config_.l1.line_bytes, config_.l1.sector_bytes};
  coalesce(addresses, lanes, bytes, geometry, lines_);
  CycleStats* kernel = kernel_;
  count(&CycleStats::global_accesses, kernel);
  count(&CycleStats::global_lines, kernel, lines_.size());
  for (const LineRequest& l : lines_)
    count(&CycleStats::global_sectors, kernel, sector_count(l.sector_mask));
  LineKind line_kind = LineKind::Store;
  AtomicOp atomic = AtomicOp::Add;
  uint32_t access = kNone;
  if (kind == ptx::GlobalAccess::Load) {
    const bool cached = config_.l1.enabled() && !(inst_->flags & ptx::kVolatile);
    line_kind = cached ? LineKind::CachedLoad : LineKind::Load;
    access = access_for_instruction();
  } else if (kind == ptx::GlobalAccess::Atomic) {
    line_kind = LineKind::Atomic;
    atomic = atomic_op(ptx::AtomOp(inst_->sub));
    access = access_for_instruction();
  }
  queue_lines(line_kind, access, atomic);
}

void Lsu::queue_lines(LineKind kind, uint32_t access, AtomicOp atomic) {
  for (const LineRequest& l : lines_) {
    queue_.push_back(
        QueuedLine{l.line_address, l.sector_mask, access, kind, atomic, warp_, kernel_});
    if (access != kNone) ++accesses_[access].parts;
  }
}

void Lsu::on_chip_access(ptx::StateSpace space, ptx::GlobalAccess kind, const uint64_t* addresses,
                         ptx::LaneMask lanes, unsigned bytes) {
  const bool has_result = kind != ptx::GlobalAccess::Store;
  uint64_t ready = issue_cycle_;
  switch (space) {
    case ptx::StateSpace::Shared: {
      const uint32_t degree = config_.shared.conflict_degree(addresses, lanes, bytes);
      // The first pass takes a cycle, each further one (a replay) shared_replay_cycles.
      const uint64_t busy =
          degree == 0 ? 0 : 1 + uint64_t(degree - 1) * config_.shared_replay_cycles;
      const uint64_t start = std::max(issue_cycle_, shared_free_);
      shared_free_ = start + busy;
      count(&CycleStats::shared_accesses, kernel_);
      count(&CycleStats::shared_cycles, kernel_, busy);
      ready = start + busy - 1 + config_.shared_latency;
      break;
    }
    case ptx::StateSpace::Const:
      coalesce(addresses, lanes, bytes,
               {config_.constant.line_bytes, config_.constant.sector_bytes}, lines_);
      queue_lines(LineKind::ConstLoad, access_for_instruction());
      return;
    case ptx::StateSpace::Param:
      ready = issue_cycle_ + config_.param_latency;
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
      const uint64_t start = std::max(issue_cycle_, shared_free_);
      shared_free_ = start + lines_.size();
      ready = start + lines_.size() - 1 +
              (config_.l1.enabled() ? config_.l1.hit_latency : config_.shared_latency);
      break;
    }
    default:
      return;
  }
  if (!has_result) return;
  LsuAccess& a = accesses_[access_for_instruction()];
  a.ready = std::max(a.ready, ready);
}

bool Lsu::has_room() const {
  // A warp instruction touches at most 64 lines (32 lanes, each straddling two).
  return queue_.size() + 2 * ptx::kWarpSize <= config_.lsu_queue;
}

bool Lsu::can_progress() const {
  return !queue_.empty() && !miss_path_.waits_for_mshr() &&
         miss_path_.waiting() < config_.max_in_flight;
}

// The line at the head of the LSU queue goes to the L1 miss path: a cached load is looked up,
// anything else passes to the port.
void Lsu::cycle(uint64_t now) {
  if (queue_.empty() || miss_path_.waiting() >= config_.max_in_flight) return;
  const QueuedLine& q = queue_.front();
  const uint32_t warp = q.warp;
  switch (q.kind) {
    case LineKind::CachedLoad:
    case LineKind::ConstLoad: {
      const bool is_const = q.kind == LineKind::ConstLoad;
      const SectoredCache::Result r =
          miss_path_.load(is_const, q.line, q.sectors, now, q.access, warp);
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
      miss_path_.pass(AccessKind::Load, q.line, q.sectors, q.atomic, now, q.access, warp);
      break;
    case LineKind::Atomic:
      miss_path_.pass(AccessKind::Atomic, q.line, q.sectors, q.atomic, now, q.access, warp);
      break;
    case LineKind::Store:
      miss_path_.pass(AccessKind::Store, q.line, q.sectors, q.atomic, now, q.access, warp);
      break;
  }
  queue_.pop_front();
  if (!waiters_.empty() && has_room()) {  // warps held back for room may go again
    client_.lsu_room_again(waiters_);
    waiters_.clear();
  }
}

}  // namespace gpusoc::sm
