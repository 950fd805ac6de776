// Statistics per launch, beside the per-kernel ones: a group for each grid the CTA distributor
// ran (launches.grid<ID>), with its kernel, the channel (the runtime's stream) it came from, when
// its first CTA started and its last finished, its CTAs, warps and instructions, its achieved
// occupancy and how it ended. At most `max_records` launches are kept, so that a run of millions
// of launches does not keep millions of groups; the rest are counted.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>

#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/gigathread/grid_executor.h"

namespace gpusoc::gigathread {

class LaunchRecords {
 public:
  LaunchRecords(StatGroup& parent, uint64_t max_records);
  ~LaunchRecords();
  /// Grid `grid_id` of `request` ended with `result` (launches refused before running get no
  /// grid: refused_launches counts them).
  void record(uint32_t grid_id, const GridRequest& request, const GridResult& result);

 private:
  struct Record;
  StatGroup group_;
  uint64_t max_records_;
  Counter unrecorded_;
  std::deque<std::unique_ptr<Record>> records_;
};

}  // namespace gpusoc::gigathread
