#include "sw/runtime/interrupt_waiter.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/pcie/bar0_map.h"

namespace gpusoc::rt {

InterruptWaiter::InterruptWaiter(Bar0& bar0, sc_core::sc_time timeout,
                                 sc_core::sc_time poll_interval)
    : bar0_(bar0), timeout_(timeout), poll_interval_(poll_interval) {}

InterruptWaiter::Outcome InterruptWaiter::wait(const std::function<bool()>& done,
                                               const std::function<bool()>& stop, bool poll) {
  if (done()) return Outcome::Done;
  host::HostBus& bus = bar0_.bus();
  const sc_core::sc_time deadline = bus.now() + timeout_;
  for (;;) {
    const uint32_t causes = bar0_.read(bar0::INTR_STATUS);
    if (causes != 0) bar0_.write(bar0::INTR_CLEAR, causes);
    if (causes & bar0::kIntrError) {
      note_device_errors();
      if (stop && stop()) return Outcome::Stopped;
    }
    // Anything that completed before the clear has been seen here; anything after raises a new
    // interrupt, which wait_for_interrupt() does not lose.
    if (done()) return Outcome::Done;
    const sc_core::sc_time now = bus.now();
    if (now >= deadline) return Outcome::TimedOut;
    const sc_core::sc_time left = deadline - now;
    bus.wait_for_interrupt(poll ? std::min(left, poll_interval_) : left);
    if (done()) return Outcome::Done;
  }
}

void InterruptWaiter::note_device_errors() {
  const uint32_t bits = bar0_.read(bar0::ERROR_STATUS) & ~bar0::kErrorChannel;
  if (bits == 0) return;  // channel errors are taken by their channel
  if (device_errors_ == 0) device_error_offset_ = bar0_.read(bar0::ERROR_OFFSET);
  device_errors_ |= bits;
  bar0_.write(bar0::ERROR_CLEAR, bits);
}

std::optional<Error> InterruptWaiter::take_device_error() {
  if (device_errors_ == 0) return std::nullopt;
  Error e(status_from_error_bits(device_errors_),
          fmt::format("the GPU reported {} (ERROR_STATUS {:#x}; last refused MMIO offset {:#x})",
                      error_bits_names(device_errors_), device_errors_, device_error_offset_));
  device_errors_ = 0;
  return e;
}

}  // namespace gpusoc::rt
