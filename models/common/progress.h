// Progress of a long run on stderr (`--progress`, `--quiet`). The run loops that poll the wall
// deadline (the SoC platform between slices of simulated time, memtrace between rounds) also
// call progress_tick(), which costs a load and a compare while progress is off and builds its
// line only when one is due. On a terminal the line is rewritten in place a few times a second
// and cleared when the run ends; forced on where stderr is not a terminal (a log file), a line
// is written every few seconds and one last line at the end.
#pragma once

#include <cstdint>
#include <string>

namespace gpusoc {

enum class ProgressMode { Auto, On, Off };

/// Auto: on when stderr is a terminal, from the first second of a run on. Set once by the
/// command line, before the run; the wall clock of the run starts here.
void set_progress_mode(ProgressMode mode);

/// One progress line: simulated time so far, what is done (the caller's words), and the wall
/// time left where the caller can estimate it (< 0: unknown).
struct ProgressLine {
  double simulated_s = 0;
  std::string work;
  double remaining_s = -1;
};

namespace detail {
extern bool progress_on;
bool progress_due();
void progress_print(const ProgressLine& line);
void progress_keep(ProgressLine line);
}  // namespace detail

/// Prints the line `make()` builds when one is due. A clock read while progress is on: call it
/// every few thousand rounds of a fast loop, not every round.
template <class Make>
inline void progress_tick(Make&& make) {
  if (detail::progress_on && detail::progress_due()) detail::progress_print(make());
}

/// Where a run loop ends: clears the line from a terminal, so that what the command prints next
/// starts on a line of its own, and keeps `make()` for progress_done().
template <class Make>
inline void progress_last(Make&& make) {
  if (detail::progress_on) detail::progress_keep(make());
}

/// Clears the line from a terminal before output of the run's own (device printf, results
/// printed from the host program); the next tick writes it again.
void progress_clear();

/// The command is over (or failed): clears the line on a terminal; elsewhere, with progress
/// forced on, writes the last line kept, with the wall time the run took.
void progress_done();

/// Wall time left for `done` of `total` units of work, from the rate since the first call
/// after a reset (the units of a kernel, a trace); < 0 until there is a rate.
class RemainingTime {
 public:
  void reset();
  double estimate(uint64_t done, uint64_t total);

 private:
  bool started_ = false;
  double start_s_ = 0;
  uint64_t start_done_ = 0;
};

/// "1.23 ms", "45.6 us", "2.5 s": a duration in the unit that keeps it readable.
std::string readable_seconds(double seconds);

}  // namespace gpusoc
