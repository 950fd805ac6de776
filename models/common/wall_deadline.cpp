#include "models/common/wall_deadline.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include <fmt/format.h>

namespace gpusoc {
namespace detail {
std::atomic<bool> wall_deadline_passed{false};
}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;

// Time the polling code has to notice the flag and unwind before the process is ended for it.
constexpr std::chrono::seconds kGrace{5};

struct Deadline {
  std::mutex mutex;
  std::condition_variable changed;
  Clock::time_point at;
  double seconds = 0;
  bool started = false;
};

Deadline& deadline() {
  static Deadline* d = new Deadline;  // never destroyed: the timer thread outlives main()
  return *d;
}

std::string message(double seconds) {
  return fmt::format(
      "--max-wall {:g}: the run took longer than {:g} s of wall time and was "
      "stopped",
      seconds, seconds);
}

void watch() {
  Deadline& d = deadline();
  std::unique_lock<std::mutex> lock(d.mutex);
  for (;;) {
    if (d.changed.wait_until(lock, d.at) == std::cv_status::no_timeout) continue;
    if (Clock::now() < d.at) continue;
    detail::wall_deadline_passed.store(true, std::memory_order_relaxed);
    const Clock::time_point armed = d.at;
    if (d.changed.wait_until(lock, armed + kGrace, [&] { return d.at != armed; })) {
      detail::wall_deadline_passed.store(false, std::memory_order_relaxed);
      continue;  // re-armed
    }
    const std::string text = "gpusoc: error: " + message(d.seconds) + "\n";
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    _exit(1);
  }
}

}  // namespace

void arm_wall_deadline(double seconds) {
  Deadline& d = deadline();
  {
    std::lock_guard<std::mutex> lock(d.mutex);
    d.seconds = seconds;
    d.at = Clock::now() +
           std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    detail::wall_deadline_passed.store(false, std::memory_order_relaxed);
    if (!d.started) {
      d.started = true;
      std::thread(watch).detach();
    }
  }
  d.changed.notify_all();
}

namespace detail {
void throw_wall_time_exceeded() {
  throw WallTimeExceeded(message(deadline().seconds));
}
}  // namespace detail

}  // namespace gpusoc
