// How the host thread waits for the GPU: it sleeps in HostBus::wait_for_interrupt until an MSI
// (INTR_FENCE, INTR_ERROR, INTR_COPY) or a poll interval passes, then re-checks its condition,
// which reads host memory (fence words, semaphores) or a register. Latched interrupt causes are
// cleared before every sleep so that the next cause raises a new MSI however the endpoint turns
// status into messages. Errors outside channels (refused MMIO, refused DMA) seen on the way are
// kept for the next synchronizing call to report.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <systemc>

#include "sw/runtime/bar0.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {

class InterruptWaiter {
 public:
  enum class Outcome { Done, Stopped, TimedOut };

  /// `poll_interval`: how long to sleep between checks of conditions no interrupt announces.
  InterruptWaiter(Bar0& bar0, sc_core::sc_time timeout, sc_core::sc_time poll_interval);

  /// Waits until done() holds; interrupts wake it. `stop`, checked whenever the error
  /// interrupt fired, ends the wait early (the caller then reports the error). `poll` makes it
  /// also wake every poll interval (for GET, which no interrupt announces).
  Outcome wait(const std::function<bool()>& done, const std::function<bool()>& stop = {},
               bool poll = false);

  /// The ERROR_STATUS bits other than kErrorChannel seen since the last call, as an error to
  /// throw; they are cleared in the device when seen.
  std::optional<Error> take_device_error();

  const sc_core::sc_time& timeout() const { return timeout_; }

 private:
  void note_device_errors();

  Bar0& bar0_;
  sc_core::sc_time timeout_, poll_interval_;
  uint32_t device_errors_ = 0;
  uint32_t device_error_offset_ = 0;
};

}  // namespace gpusoc::rt
