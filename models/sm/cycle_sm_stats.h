// What the cycle-level SMs count: one group per SM (gpu.smN) and one per kernel over all SMs
// (gpu.kernels.<name>, KernelCycleStats). Scheduler cycles are counted per processing block while
// the SM holds at least one CTA: each either issues or is charged to the reason nothing could
// issue. A kernel is charged the cycles one of its CTAs is resident, the scheduler cycles whose
// issuing (or most nearly issuing) warp is its own, and the accesses of its warps; the memory
// port's counts are per SM only.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/common/histogram.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"

namespace gpusoc::sm {

struct CycleStats : StatGroup {
  CycleStats(StatGroup& parent, std::string name, uint32_t warp_slots);

  Counter ctas{*this, "ctas", "CTAs", "CTAs run to completion"};
  Counter warp_instructions{*this, "warp_instructions", "instructions", "warp instructions issued"};
  Counter thread_instructions{*this, "thread_instructions", "instructions",
                              "thread instructions executed (active, guard-true lanes)"};
  Counter cycles{*this, "cycles", "cycles", "cycles with at least one CTA resident"};
  Counter issue_slots{*this, "issue_slots", "slots",
                      "scheduler cycles: cycles x processing blocks"};
  Counter stall_memory{*this, "stall_memory", "slots",
                       "scheduler cycles without an issue: the best warp waits on memory"};
  Counter stall_texture{*this, "stall_texture", "slots",
                        "scheduler cycles without an issue: the best warp waits on a texture or "
                        "surface instruction"};
  Counter stall_dependency{*this, "stall_dependency", "slots",
                           "scheduler cycles without an issue: the best warp waits on a "
                           "register written by an arithmetic instruction"};
  Counter stall_barrier{*this, "stall_barrier", "slots",
                        "scheduler cycles without an issue: the warps wait at a barrier"};
  Counter stall_pipeline{*this, "stall_pipeline", "slots",
                         "scheduler cycles without an issue: the unit a ready warp needs is busy"};
  Counter stall_no_warp{*this, "stall_no_warp", "slots",
                        "scheduler cycles without an issue: the block has no warp"};
  Counter resident_warp_cycles{*this, "resident_warp_cycles", "warp-cycles",
                               "sum over cycles of the warps resident"};
  Histogram occupancy{
      *this, "occupancy", "warps", "resident warps, weighted by the cycles they stayed resident",
      0,     1,           65};
  Counter shared_accesses{*this, "shared_accesses", "accesses",
                          "warp-level shared-memory accesses"};
  Counter shared_cycles{*this, "shared_cycles", "cycles",
                        "cycles the shared-memory banks were busy (conflicts serialize)"};
  Counter global_accesses{*this, "global_accesses", "accesses",
                          "warp-level global loads, stores and atomics"};
  Counter global_sectors{*this, "global_sectors", "sectors", "32-byte sectors they touched"};
  Counter global_lines{*this, "global_lines", "lines", "cache lines they touched"};
  Counter l1_hits{*this, "l1_hits", "lines", "L1 line lookups that hit"};
  Counter l1_misses{*this, "l1_misses", "lines", "L1 line lookups that missed (an MSHR fetched)"};
  Counter l1_merges{*this, "l1_merges", "lines", "L1 misses merged into an MSHR in flight"};
  Counter l1_stalls{*this, "l1_mshr_stalls", "lookups",
                    "L1 or constant-cache lookups refused for want of an MSHR (retried later)"};
  Counter const_hits{*this, "const_hits", "lines", "constant-cache lookups that hit"};
  Counter const_misses{*this, "const_misses", "lines", "constant-cache lookups that missed"};
  Counter memory_requests{*this, "memory_requests", "requests", "requests sent to the memory path"};
  Counter texture_requests{*this, "texture_requests", "requests",
                           "texture and surface warp instructions sent to the texture unit"};
  Counter memory_bytes{*this, "memory_bytes", "bytes", "bytes those requests carried"};
  Counter port_stalls{*this, "port_stalls", "cycles",
                      "simulated cycles a request waited for the memory port (backpressure) or "
                      "the in-flight cap (cycles the SM skipped are not counted)"};
  Formula ipc;
  Formula issue_utilization;
  Formula achieved_occupancy;
  Formula l1_hit_rate;
  Formula const_hit_rate;
  Formula sectors_per_access;
  Formula shared_cycles_per_access;
};

/// Adds `n` to a counter of an SM and of its kernel (null: not kept).
inline void count_cycle_stat(CycleStats& sm, CycleStats* kernel, Counter CycleStats::*counter,
                             uint64_t n = 1) {
  (sm.*counter) += n;
  if (kernel) (kernel->*counter) += n;
}

/// The per-kernel groups, shared by all cycle-level SMs of a GPU; kernels of the same name (from
/// different modules) share a group.
class KernelCycleStats {
 public:
  KernelCycleStats(StatGroup& parent, uint32_t warp_slots)
      : group_(parent, "kernels"), warp_slots_(warp_slots) {}
  /// The group of `kernel`, made on first use.
  CycleStats& of(const std::string& kernel);
  /// The group of `kernel`, or null before its first CTA.
  const CycleStats* find(const std::string& kernel) const;

 private:
  StatGroup group_;
  uint32_t warp_slots_;
  std::vector<std::unique_ptr<CycleStats>> kernels_;
};

}  // namespace gpusoc::sm
