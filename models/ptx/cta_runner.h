// Runs one CTA of a launch in the functional core: its warps take turns, and named barriers
// (bar.sync, bar.red, bar.arrive) hold and release them. Either all at once (run(), for the
// functional device) or one warp slice at a time (start() and step(), for the timed SMs, which
// choose the order and charge the time).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/ptx/device.h"
#include "models/ptx/launch.h"
#include "models/ptx/warp.h"

namespace gpusoc::ptx {

class CtaRunner {
 public:
  explicit CtaRunner(const LaunchContext& launch);

  /// Runs the CTA `ctaid` on `sm_id` to completion, adding its instruction counts to `stats`.
  void run(Dim3 ctaid, uint32_t sm_id, LaunchStats& stats);

  /// Prepares the CTA `ctaid` to be stepped. `global`: device memory as the SM sees it (null:
  /// the launch's); `observer`: told about global accesses (optional).
  void start(Dim3 ctaid, uint32_t sm_id, SparseMemory* global = nullptr,
             GlobalAccessObserver* observer = nullptr);
  /// For a cycle-level SM: also report on-chip accesses to the observer, and let %clock read
  /// `clock`, a cycle count of `clock_period_ps` (null: the functional stand-in). Kept across
  /// start().
  void set_timing_hooks(bool observe_on_chip, const uint64_t* clock, uint64_t clock_period_ps) {
    cta_.observe_on_chip = observe_on_chip;
    cta_.clock = clock;
    cta_.clock_period_ps = clock_period_ps;
  }
  /// Runs warp `w` (which must be ready) for up to `budget` instructions. A barrier it reaches
  /// is recorded; warps that a completed barrier releases are listed by released() (`w` among
  /// them after bar.arrive). Throws ExecutionError on a fault, a watchdog expiry, or a deadlock
  /// (no warp can run any more but the CTA is not done). Returns the instructions run.
  uint64_t step(uint32_t w, uint64_t budget);
  const std::vector<uint32_t>& released() const { return released_; }
  /// Warp `w`'s next instruction (ptx::Warp::next_instruction), keeping the CTA's books when
  /// resolving it finishes the warp (which can complete a barrier: see released()). Null when
  /// the warp is not ready. Throws ExecutionError when that leaves the CTA deadlocked.
  const Inst* next_instruction(uint32_t w);
  bool finished() const { return done_warps_ == warps_.size(); }

  uint32_t num_warps() const { return uint32_t(warps_.size()); }
  const Warp& warp(uint32_t w) const { return warps_[w]; }
  const CtaContext& cta() const { return cta_; }
  const LaunchContext& launch() const { return launch_; }
  /// Adds the CTA's instruction counts (so far) to `stats`.
  void add_stats(LaunchStats& stats) const;

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
  bool any_ready() const;
  [[noreturn]] void deadlock() const;
  [[noreturn]] void stuck(const std::string& why) const;  // the watchdog's report
  std::string warp_report() const;  // where each unfinished warp is and what it waits for

  const LaunchContext& launch_;
  CtaContext cta_;
  std::vector<Warp> warps_;
  std::vector<LaneMask> lanes_;  // threads that exist, per warp
  std::array<Barrier, 16> barriers_;
  std::vector<uint32_t> released_;
  size_t done_warps_ = 0;
  std::unique_ptr<SharedRaceCheck> racecheck_;  // when the launch checks races
};

}  // namespace gpusoc::ptx
