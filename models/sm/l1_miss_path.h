// The cycle-level SM's way to memory below its LSU: the L1 data cache and the constant cache
// (sectored, with MSHRs), the requests waiting for the memory port, and the replies on their way
// back until the SM cycle they land in. The LSU hands it one line per cycle (a cached load, or an
// uncached load, atomic or store); the SM sends one request per cycle, takes the ports'
// completions, and lands what is due, learning which accesses completed. Plain C++ in SM cycles;
// the port (the SM's TLM initiator) is the SM's.
#pragma once

#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

#include <systemc>

#include "models/common/picoseconds.h"
#include "models/sm/cycle_sm_config.h"
#include "models/sm/cycle_sm_stats.h"
#include "models/sm/memory_request_port.h"
#include "models/sm/sectored_cache.h"

namespace gpusoc::sm {

class L1MissPath {
 public:
  // Reply tags: what a memory (or texture unit) reply completes.
  static constexpr uint64_t kTagKind = uint64_t(3) << 62;
  static constexpr uint64_t kAccessTag = 0;  // | access id: an uncached load, atomic or texture
  static constexpr uint64_t kL1FillTag = uint64_t(1) << 62;     // | MSHR
  static constexpr uint64_t kConstFillTag = uint64_t(2) << 62;  // | MSHR
  static constexpr uint64_t kStoreTag = uint64_t(3) << 62;

  L1MissPath(const CycleSmConfig& config, MemoryRequestPort& port);

  /// A cached load of `sectors` of `line` for access `access` of warp `warp`, from the constant
  /// cache or the L1: a Hit is ready at result.ready_cycle; Merged waits on an MSHR already
  /// fetching; a Miss queues the fill of the missing sectors; a Stall (no MSHR free) leaves
  /// nothing behind and is to be tried again after a fill.
  SectoredCache::Result load(bool constant, uint64_t line, uint32_t sectors, uint64_t cycle,
                             uint32_t access, uint32_t warp);
  /// An uncached load or an atomic (for access `access`), or a store: straight to the port. An
  /// atomic invalidates the line in the L1, a store writes through it.
  void pass(AccessKind kind, uint64_t line, uint32_t sectors, AtomicOp atomic, uint64_t cycle,
            uint32_t access, uint32_t warp);
  bool waits_for_mshr() const { return waits_for_mshr_; }

  size_t waiting() const { return outbox_.size(); }  // requests not sent yet
  uint32_t in_flight() const { return outstanding_; }
  /// A request waits and the port and the in-flight cap allow it.
  bool can_send() const {
    return !outbox_.empty() && outstanding_ < max_in_flight_ && port_.can_send();
  }
  /// Sends the oldest waiting request at `time` (can_send()); true when it is the only one in
  /// flight (the lost-reply watchdog's clock starts).
  bool send(const sc_core::sc_time& time, CycleStats& stats);
  /// A request sent elsewhere (to the texture unit) whose reply lands here too; as send().
  bool sent_elsewhere() { return outstanding_++ == 0; }

  /// Replies whose time is known, landing at the first SM cycle not before it (nor before
  /// `cycle`).
  void arrived(const std::vector<MemoryCompletion>& replies, uint64_t cycle, uint64_t cycle_ps,
               const Picoseconds& ps);
  bool has_due() const { return !due_.empty(); }
  uint64_t next_due() const { return due_.top().cycle; }
  /// Lands every reply due by `cycle`: fills the caches, and calls done(access, cycle) for each
  /// access part a reply completes.
  template <typename Done>
  void land(uint64_t cycle, Done&& done) {
    while (!due_.empty() && due_.top().cycle <= cycle) {
      const Due d = due_.top();
      due_.pop();
      --outstanding_;
      const uint64_t kind = d.tag & kTagKind;
      const uint64_t index = d.tag & ~kTagKind;
      if (kind == kL1FillTag || kind == kConstFillTag) {
        (kind == kL1FillTag ? l1_ : constant_).fill(uint32_t(index), d.cycle, woken_);
        waits_for_mshr_ = false;
        for (uint64_t id : woken_) done(uint32_t(id), d.cycle);
      } else if (kind == kAccessTag) {
        done(uint32_t(index), d.cycle);
      }
    }
  }

 private:
  struct Due {  // a reply landing at a cycle
    uint64_t cycle;
    uint64_t tag;
    bool operator>(const Due& o) const { return cycle != o.cycle ? cycle > o.cycle : tag > o.tag; }
  };
  // One request per line: from its first to its last needed sector, with the mask of those.
  void request(uint64_t line, uint32_t mask, uint32_t sector_bytes, AccessKind kind,
               AtomicOp atomic, uint32_t warp, uint64_t tag);

  MemoryRequestPort& port_;
  const uint32_t max_in_flight_;
  const uint32_t l1_sector_bytes_, constant_sector_bytes_;
  SectoredCache l1_;
  SectoredCache constant_;
  bool waits_for_mshr_ = false;
  std::deque<MemoryRequest> outbox_;  // requests waiting for the port
  uint32_t outstanding_ = 0;          // requests sent whose reply has not landed
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
  std::vector<uint64_t> woken_;  // scratch for cache fills
};

}  // namespace gpusoc::sm
