// How the CTA work distributor and the SMs talk: the distributor places a CTA on an SM it has
// checked has room (threads, warps, registers, shared memory, CTA slots); the SM runs it and
// reports it retired. Both the loosely timed SM and the cycle-level SM implement
// StreamingMultiprocessor, so the distributor and the platform do not change between them.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "models/ptx/device.h"
#include "models/ptx/launch.h"

namespace gpusoc::sm {

/// A grid while it runs, as the SMs see it (owned by the distributor).
struct GridWork {
  ptx::LaunchContext launch;
  /// Set when one of the grid's CTAs faulted: SMs drop the grid's other CTAs at once.
  bool failed = false;
};

/// What an SM reports when a CTA leaves it.
struct CtaReport {
  ptx::Dim3 ctaid;
  sc_core::sc_time start, end;  // simulated times the CTA started and retired
  ptx::LaunchStats stats;
  bool failed = false;   // the CTA faulted (message says how) ...
  bool dropped = false;  // ... or was abandoned because another CTA of its grid faulted
  std::string message;
};

/// The report of a CTA abandoned because its grid failed (it ran from `start` until `end`, or
/// never started when they are equal).
inline CtaReport dropped_cta(ptx::Dim3 ctaid, sc_core::sc_time start, sc_core::sc_time end) {
  CtaReport r;
  r.ctaid = ctaid;
  r.start = start;
  r.end = end;
  r.dropped = true;
  return r;
}

class CtaRetirementListener {
 public:
  virtual ~CtaRetirementListener() = default;
  /// Called by the SM's process at the simulated time the CTA retires.
  virtual void cta_retired(GridWork& grid, uint32_t sm, const CtaReport& report) = 0;
};

class StreamingMultiprocessor {
 public:
  virtual ~StreamingMultiprocessor() = default;
  virtual uint32_t sm_id() const = 0;
  /// Places a CTA on the SM (from any process, at the caller's current time); it starts at once.
  virtual void launch_cta(GridWork& grid, ptx::Dim3 ctaid) = 0;
  virtual void set_listener(CtaRetirementListener& listener) = 0;
  /// A grid with CTAs here failed without them (a reset): drop them at the next step, waking
  /// the SM if it sleeps until a far event.
  virtual void grid_failed() = 0;
  /// Warp instructions issued so far (cycle-level SMs; 0 where the SM does not count them as it
  /// goes), for a timeline's IPC samples.
  virtual uint64_t issued_warp_instructions() const { return 0; }
};

}  // namespace gpusoc::sm
