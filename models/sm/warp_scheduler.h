// Warp scheduling policy of one processing block: each cycle, the block asks its scheduler for the
// order in which to try its warps; the first one that can issue does. Policies are chosen by name
// (sm.scheduler) from warp_schedulers(); the SM never branches on the policy itself.
//
// Contract: order() fills `out` with a permutation of the block's warp slots that are occupied
// (the `live` list, in slot order), the first to try first. issued() tells the policy which warp
// issued this cycle (at most one per block per cycle), so that it can keep its state; a cycle
// without an issue calls nothing. Policies are deterministic: the same calls give the same orders.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/registry.h"

namespace gpusoc::sm {

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  virtual const char* name() const = 0;
  /// A warp slot was filled (by a new CTA's warp); `age` grows with every warp placed on the SM,
  /// so a smaller age is an older warp.
  virtual void warp_added(uint32_t slot, uint64_t age) = 0;
  virtual void warp_removed(uint32_t slot) = 0;
  /// Order in which to try the live slots this cycle.
  virtual void order(const std::vector<uint32_t>& live, std::vector<uint32_t>& out) = 0;
  virtual void issued(uint32_t slot) = 0;
  /// Whether order() lists every live warp (so that a lone ready warp is the one to issue and
  /// the SM may skip asking); false for policies that hold some warps back.
  virtual bool orders_every_warp() const { return true; }
  /// Told when a warp starts or stops waiting on a long-latency operation (global memory), which
  /// the two-level policy uses to move it between its active and pending sets. Report a barrier
  /// wait too: two_level tries only its active set, so active warps waiting at a barrier for
  /// pending warps of their CTA would otherwise wait forever.
  virtual void long_latency_wait(uint32_t slot, bool waiting) { (void)slot, (void)waiting; }
};

using WarpSchedulerRegistry = Registry<WarpScheduler>;
/// The policies sm.scheduler names: lrr (loose round-robin: start after the warp that issued
/// last), gto (greedy-then-oldest: the warp that issued last, then the oldest), two_level
/// (round-robin within an active set of warps; a warp waiting on memory is swapped out for the
/// oldest pending one). make() throws ConfigError naming sm.scheduler for an unknown name.
WarpSchedulerRegistry& warp_schedulers();

}  // namespace gpusoc::sm
