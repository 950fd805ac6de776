// The counters of a --timeline, sampled between slices of simulated time: DRAM bandwidth per
// partition, the L2's read hit rate, achieved occupancy and issued IPC, each over the interval
// since the previous sample (timeline.interval_ns).
#pragma once

#include <cstdint>
#include <vector>

#include "models/common/config.h"
#include "models/common/timeline.h"

namespace gpusoc::platform {

class GpuSoc;

struct TimelineSettings {
  double interval_ns = 1000;  // between counter samples
  uint64_t max_events = 2'000'000;
  /// Reads timeline.interval_ns and timeline.max_events.
  static TimelineSettings from_config(const Config& config);
};

class TimelineSampler {
 public:
  TimelineSampler(GpuSoc& gpu, Timeline& timeline, double shader_mhz);
  /// Samples every counter at `ps` (simulated time), over the time since the last sample.
  void sample(uint64_t ps);
  bool samples(const Timeline& timeline) const { return &timeline_ == &timeline; }

 private:
  GpuSoc& gpu_;
  Timeline& timeline_;
  double shader_mhz_;
  uint64_t last_ps_ = 0;
  std::vector<uint64_t> last_dram_;
  uint64_t last_l2_hits_ = 0, last_l2_reads_ = 0, last_instructions_ = 0;
};

}  // namespace gpusoc::platform
