// The warp scheduling policies behind warp_schedulers(), one per file, and the round-robin walk
// that lrr and two_level share. Internal to models/sm.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/sm/warp_scheduler.h"

namespace gpusoc::sm {

// Each policy's entry, defined in its own file (lrr_scheduler.cpp, ...).
extern const WarpSchedulerRegistry::Entry kLrrScheduler, kGtoScheduler, kTwoLevelScheduler;

/// Appends the slots of `live` (in slot order) that `take` accepts, starting with the first slot
/// >= `start` and wrapping around.
template <typename Take>
void append_round_robin(const std::vector<uint32_t>& live, uint32_t start, Take take,
                        std::vector<uint32_t>& out) {
  size_t first = 0;
  while (first < live.size() && live[first] < start) ++first;
  for (size_t i = first; i < live.size(); ++i)
    if (take(live[i])) out.push_back(live[i]);
  for (size_t i = 0; i < first; ++i)
    if (take(live[i])) out.push_back(live[i]);
}

}  // namespace gpusoc::sm
