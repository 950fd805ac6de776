#include "models/sm/l1_miss_path.h"

#include <algorithm>

#include "models/sm/coalescer.h"

namespace gpusoc::sm {

L1MissPath::L1MissPath(const CycleSmConfig& config, MemoryRequestPort& port)
    : port_(port),
      max_in_flight_(config.max_in_flight),
      l1_sector_bytes_(config.l1.enabled() ? config.l1.sector_bytes : 32),
      constant_sector_bytes_(config.constant.sector_bytes),
      l1_(config.l1),
      constant_(config.constant) {}

void L1MissPath::request(uint64_t line, uint32_t mask, uint32_t sector_bytes, AccessKind kind,
                         AtomicOp atomic, uint32_t warp, uint64_t tag) {
  const unsigned first = unsigned(__builtin_ctz(mask));
  const unsigned last = 31 - unsigned(__builtin_clz(mask));
  outbox_.push_back(MemoryRequest{line + uint64_t(first) * sector_bytes,
                                  (last - first + 1) * sector_bytes, kind, atomic, warp,
                                  sector_count(mask), mask >> first, tag});
}

SectoredCache::Result L1MissPath::load(bool constant, uint64_t line, uint32_t sectors,
                                       uint64_t cycle, uint32_t access, uint32_t warp) {
  SectoredCache& cache = constant ? constant_ : l1_;
  const SectoredCache::Result r = cache.read(line, sectors, cycle, access);
  if (r.outcome == SectoredCache::Outcome::Miss) {
    request(line, r.missing_mask, constant ? constant_sector_bytes_ : l1_sector_bytes_,
            AccessKind::Load, AtomicOp::Add, warp,
            (constant ? kConstFillTag : kL1FillTag) | r.mshr);
  }
  if (r.outcome == SectoredCache::Outcome::Stall) waits_for_mshr_ = true;  // until a fill lands
  return r;
}

void L1MissPath::pass(AccessKind kind, uint64_t line, uint32_t sectors, AtomicOp atomic,
                      uint64_t cycle, uint32_t access, uint32_t warp) {
  uint64_t tag = kAccessTag | access;
  if (kind == AccessKind::Atomic) {
    l1_.invalidate(line);
  } else if (kind == AccessKind::Store) {
    l1_.write(line, sectors, cycle);
    tag = kStoreTag;
  }
  request(line, sectors, l1_sector_bytes_, kind, atomic, warp, tag);
}

bool L1MissPath::send(const sc_core::sc_time& time, CycleStats& stats) {
  const MemoryRequest& r = outbox_.front();
  port_.send(r, time);
  ++stats.memory_requests;
  stats.memory_bytes += r.bytes;
  outbox_.pop_front();
  return outstanding_++ == 0;
}

void L1MissPath::arrived(const std::vector<MemoryCompletion>& replies, uint64_t cycle,
                         uint64_t cycle_ps, const Picoseconds& ps) {
  for (const MemoryCompletion& c : replies) {
    const uint64_t at = ps.of(c.time);
    due_.push(Due{std::max(cycle, (at + cycle_ps - 1) / cycle_ps), c.tag});
  }
}

}  // namespace gpusoc::sm
