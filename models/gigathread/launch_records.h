// Statistics per launch, beside the per-kernel ones: a group for each grid the CTA distributor
// ran (launches.grid<ID>), with its kernel, the channel (the runtime's stream) it came from, when
// its first CTA started and its last finished, its CTAs, warps and instructions, its achieved
// occupancy and how it ended. At most `max_records` launches are kept, so that a run of millions
// of launches does not keep millions of groups; the rest are counted.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/gigathread/grid_executor.h"

namespace gpusoc::gigathread {

/// Counts kept by blocks other than the distributor (the cycle-level SMs per kernel, the L2,
/// the texture caches), as totals so far: a launch's record holds what they grew by between its
/// start and its end. Launches of one kernel that overlap in time share the SMs' counts; every
/// launch running at once shares the L2's and the texture caches'.
class LaunchCounters {
 public:
  virtual ~LaunchCounters() = default;
  /// The counters' names, units and descriptions, in the order totals() gives them.
  struct Name {
    const char *name, *unit, *description;
  };
  virtual const std::vector<Name>& names() const = 0;
  /// The totals so far for a launch of `kernel`.
  virtual void totals(const std::string& kernel, std::vector<uint64_t>& out) const = 0;
};

class LaunchRecords {
 public:
  LaunchRecords(StatGroup& parent, uint64_t max_records);
  ~LaunchRecords();
  /// Where the records' further counts come from (null: none); it outlives the records.
  void set_counters(const LaunchCounters* counters) { counters_ = counters; }
  /// Grid `grid_id` of `kernel` starts: the counters' totals now.
  void started(uint32_t grid_id, const std::string& kernel);
  /// Grid `grid_id` of `request` ended with `result` (launches refused before running get no
  /// grid: refused_launches counts them).
  void record(uint32_t grid_id, const GridRequest& request, const GridResult& result);

 private:
  struct Record;
  StatGroup group_;
  uint64_t max_records_;
  Counter unrecorded_;
  std::deque<std::unique_ptr<Record>> records_;
  const LaunchCounters* counters_ = nullptr;
  std::map<uint32_t, std::vector<uint64_t>> at_start_;  // grids running: totals at their start
};

}  // namespace gpusoc::gigathread
