// Runs one CTA of a launch to completion in the functional core: its warps take turns, and
// named barriers (bar.sync, bar.red, bar.arrive) hold and release them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/ptx/device.h"
#include "models/ptx/launch.h"
#include "models/ptx/warp.h"

namespace gpusoc::ptx {

class CtaRunner {
 public:
  explicit CtaRunner(const LaunchContext& launch);
  /// Runs the CTA `ctaid` on `sm_id`, adding its instruction counts to `stats`.
  void run(Dim3 ctaid, uint32_t sm_id, LaunchStats& stats);

 private:
  struct Barrier {
    uint32_t arrived = 0;           // threads
    uint32_t expected = 0;          // 0: every live thread of the CTA
    uint32_t voters = 0;            // bar.red: threads that executed the barrier instruction
    uint32_t true_lanes = 0;        // bar.red: those whose predicate was true
    std::vector<uint32_t> waiting;  // warp indices
  };
  void arrive(uint32_t warp);
  void release_completed();
  uint32_t live_threads() const;
  [[noreturn]] void deadlock() const;

  const LaunchContext& launch_;
  CtaContext cta_;
  std::vector<Warp> warps_;
  std::vector<LaneMask> lanes_;  // threads that exist, per warp
  std::array<Barrier, 16> barriers_;
  uint64_t launch_instructions_ = 0;  // every CTA of the launch so far, for the watchdog
};

}  // namespace gpusoc::ptx
