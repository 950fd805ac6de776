// A wall-clock limit on a whole run (`--max-wall SECONDS`). A timer thread raises a flag at the
// deadline; the simulation loops poll it where that is cheap and safe (the SoC platform between
// slices of simulated time, the functional device between warp slices, memtrace between rounds)
// and throw WallTimeExceeded, which unwinds like any other error. Should the run be somewhere
// nothing polls (a host program's own endless loop, a CPU reference), the timer thread ends the
// process itself after a grace period, with the same message on stderr and exit status 1.
#pragma once

#include <atomic>

#include "models/common/error.h"

namespace gpusoc {

class WallTimeExceeded : public Error {
 public:
  using Error::Error;
};

/// Starts the clock: the run may take `seconds` of wall time (once per process; a second call
/// replaces the deadline).
void arm_wall_deadline(double seconds);

namespace detail {
extern std::atomic<bool> wall_deadline_passed;
[[noreturn]] void throw_wall_time_exceeded();
}  // namespace detail

/// Throws WallTimeExceeded once the deadline has passed; a relaxed load otherwise.
inline void check_wall_deadline() {
  if (detail::wall_deadline_passed.load(std::memory_order_relaxed))
    detail::throw_wall_time_exceeded();
}

}  // namespace gpusoc
