// The cycle-level SM's load/store unit. The PTX core reports each access of the instruction being
// issued as it executes; shared, parameter and local accesses are timed on the spot (shared
// memory by its bank conflicts), global and constant ones are coalesced into cache lines queued
// here, and each cycle the line at the head goes to the L1 miss path (l1_miss_path.h): a cached
// load is looked up, anything else passes to the memory port. An access (a load, an atomic, a
// texture fetch) is done when all its parts are; the LSU then tells its client, the SM, which
// owns the warps.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "models/ptx/cta_runner.h"
#include "models/sm/coalescer.h"
#include "models/sm/cycle_sm_config.h"
#include "models/sm/cycle_sm_stats.h"
#include "models/sm/l1_miss_path.h"

namespace gpusoc::sm {

/// A load, atomic or texture fetch whose result lands when all its parts are done.
struct LsuAccess {
  uint32_t slot = 0;        // the warp slot that issued it
  uint32_t generation = 0;  // the slot's placement then: a later warp in the slot ignores it
  uint32_t parts = 0;       // lines (or texture requests) still outstanding
  uint64_t ready = 0;       // latest part's completion so far
  bool has_result = false;  // the warp counts it among its loads in flight
  bool texture = false;     // a texture unit's answer (the stall reason "texture")
};

/// What the LSU needs of the SM that owns the warps.
class LsuClient {
 public:
  virtual ~LsuClient() = default;
  /// Every part of access `id` is done, the last at `access.ready`.
  virtual void access_completed(uint32_t id, const LsuAccess& access) = 0;
  /// The line queue has room again: the warps in `slots`, held back for it, may try to issue.
  virtual void lsu_room_again(const std::vector<uint32_t>& slots) = 0;
};

class Lsu {
 public:
  static constexpr uint32_t kNone = ~uint32_t(0);

  /// All four outlive it; `stats` are the SM's own counts.
  Lsu(const CycleSmConfig& config, L1MissPath& miss_path, CycleStats& stats, LsuClient& client);
  Lsu(const Lsu&) = delete;
  Lsu& operator=(const Lsu&) = delete;

  /// The instruction the PTX core is about to execute for warp `warp` in slot `slot`: its
  /// accesses are counted to `kernel` (null: not kept) and start at `cycle`, the issue cycle.
  void begin_instruction(uint32_t slot, uint32_t generation, uint32_t warp, const ptx::Inst* inst,
                         CycleStats* kernel, uint64_t cycle);
  /// The instruction faulted: its lines never leave the SM, and its access is forgotten unless a
  /// texture request of it went out already (the request's answer then frees it; the failed
  /// warp's slot ignores it).
  void abandon_instruction();
  /// The access the instruction made (kNone: it made none).
  uint32_t instruction_access() const { return instruction_access_; }
  uint32_t instruction_warp() const { return warp_; }
  CycleStats* instruction_kernel() const { return kernel_; }
  /// The instruction's access, made on first use.
  uint32_t access_for_instruction();
  /// One more part of the instruction's access: a request to the texture unit, whose answer
  /// comes back through part_done(). Returns the access.
  uint32_t add_texture_part();
  LsuAccess& access(uint32_t id) { return accesses_[id]; }
  /// Forgets access `id`, served without leaving the SM (no parts).
  void release(uint32_t id) { free_accesses_.push_back(id); }

  // What the PTX core reports (ptx::GlobalAccessObserver, through the SM).
  void global_access(ptx::GlobalAccess kind, const uint64_t* addresses, ptx::LaneMask lanes,
                     unsigned bytes);
  void on_chip_access(ptx::StateSpace space, ptx::GlobalAccess kind, const uint64_t* addresses,
                      ptx::LaneMask lanes, unsigned bytes);

  /// The shared-memory banks' next free cycle.
  uint64_t shared_free() const { return shared_free_; }
  /// Room for a warp instruction's worth of lines.
  bool has_room() const;
  /// Warp slot `slot` waits for room: the client hears when there is.
  void hold(uint32_t slot) { waiters_.push_back(slot); }
  /// Lines are queued and the miss path could take one next cycle.
  bool can_progress() const;
  bool idle() const { return queue_.empty(); }

  /// One cycle: the line at the head of the queue to the miss path.
  void cycle(uint64_t now);
  /// One part of access `id` is done at `cycle`.
  void part_done(uint32_t id, uint64_t cycle);

 private:
  enum class LineKind : uint8_t { CachedLoad, ConstLoad, Load, Store, Atomic };
  struct QueuedLine {
    uint64_t line;
    uint32_t sectors;  // mask
    uint32_t access;   // kNone for stores
    LineKind kind;
    AtomicOp atomic;  // kind Atomic: which one
    uint32_t warp;
    CycleStats* kernel;
  };
  void queue_lines(LineKind kind, uint32_t access, AtomicOp atomic = AtomicOp::Add);
  void count(Counter CycleStats::*counter, CycleStats* kernel, uint64_t n = 1) {
    count_cycle_stat(stats_, kernel, counter, n);
  }

  const CycleSmConfig& config_;
  L1MissPath& miss_path_;
  CycleStats& stats_;
  LsuClient& client_;

  // The instruction being issued.
  uint32_t slot_ = 0, generation_ = 0, warp_ = 0;
  const ptx::Inst* inst_ = nullptr;
  CycleStats* kernel_ = nullptr;
  uint64_t issue_cycle_ = 0;
  uint32_t instruction_access_ = kNone;
  size_t queued_before_ = 0;

  std::vector<LsuAccess> accesses_;
  std::vector<uint32_t> free_accesses_;
  std::vector<LineRequest> lines_;  // scratch for the coalescer
  std::deque<QueuedLine> queue_;    // lines waiting for the L1 or the port
  std::vector<uint32_t> waiters_;   // slots waiting for room in queue_
  uint64_t shared_free_ = 0;        // the shared-memory banks' next free cycle
};

}  // namespace gpusoc::sm
