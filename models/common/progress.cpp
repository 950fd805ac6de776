#include "models/common/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include <fmt/format.h>

namespace gpusoc {
namespace detail {
bool progress_on = false;
}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;

struct State {
  bool terminal = false;  // stderr is one: rewrite the line in place
  bool forced = false;
  bool printed = false;  // a line is on the terminal
  ProgressLine last;     // for progress_done()
  Clock::time_point start = Clock::now();
  Clock::time_point next = Clock::now();
};
State state;

double wall_s() {
  return std::chrono::duration<double>(Clock::now() - state.start).count();
}

// A terminal gets a fresh line a few times a second; a log file one every few seconds.
Clock::duration interval() {
  return state.terminal ? std::chrono::milliseconds(250) : std::chrono::seconds(5);
}

void clear_terminal_line() {
  if (state.printed) std::fputs("\r\x1b[K", stderr);
  state.printed = false;
  std::fflush(stderr);
}

std::string format_line(const ProgressLine& line, double wall) {
  std::string text = fmt::format("gpusoc: {} simulated", readable_seconds(line.simulated_s));
  if (wall > 0) text += fmt::format(" ({}/s)", readable_seconds(line.simulated_s / wall));
  if (!line.work.empty()) text += " | " + line.work;
  if (line.remaining_s >= 0) text += " | ~" + readable_seconds(line.remaining_s) + " left";
  return text;
}

}  // namespace

void set_progress_mode(ProgressMode mode) {
  state = State{};
  state.terminal = isatty(STDERR_FILENO) != 0;
  state.forced = mode == ProgressMode::On;
  detail::progress_on = mode == ProgressMode::On || (mode == ProgressMode::Auto && state.terminal);
  // Auto waits a second, so that short runs print nothing; forced shows the first line sooner.
  state.next =
      state.start + (state.forced ? std::chrono::milliseconds(500) : std::chrono::seconds(1));
}

namespace detail {

bool progress_due() {
  return Clock::now() >= state.next;
}

void progress_print(const ProgressLine& line) {
  std::string text = format_line(line, wall_s());
  if (state.terminal) {
    // A line wider than the terminal would wrap, and \r would rewrite only its last row.
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 &&
        text.size() >= size.ws_col)
      text.resize(size.ws_col - 1);
    std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
    state.printed = true;
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
  std::fflush(stderr);
  state.next = Clock::now() + interval();
}

void progress_keep(ProgressLine line) {
  state.last = std::move(line);
  clear_terminal_line();
}

}  // namespace detail

void progress_clear() {
  if (detail::progress_on) clear_terminal_line();
}

void progress_done() {
  if (!detail::progress_on) return;
  clear_terminal_line();
  if (state.forced && !state.terminal && !state.last.work.empty()) {
    ProgressLine line = state.last;
    line.remaining_s = -1;
    std::fprintf(stderr, "%s in %s of wall time\n", format_line(line, wall_s()).c_str(),
                 readable_seconds(wall_s()).c_str());
  }
  std::fflush(stderr);
  detail::progress_on = false;
}

void RemainingTime::reset() {
  started_ = false;
}

double RemainingTime::estimate(uint64_t done, uint64_t total) {
  const double now = wall_s();
  if (!started_) {
    started_ = true;
    start_s_ = now;
    start_done_ = done;
    return -1;
  }
  if (done <= start_done_ || now <= start_s_ || done >= total) return -1;
  return (now - start_s_) * double(total - done) / double(done - start_done_);
}

std::string readable_seconds(double s) {
  // The unit is chosen after rounding to the digits shown: 0.9996 ms is "1 ms", not "1e+03 us".
  const double shown = std::stod(fmt::format("{:.3g}", s));
  if (shown >= 99.95) return fmt::format("{:.0f} s", s);
  if (shown >= 1) return fmt::format("{:.1f} s", s);
  if (shown >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  if (shown >= 1e-6) return fmt::format("{:.3g} us", s * 1e6);
  return fmt::format("{:.3g} ns", s * 1e9);
}

}  // namespace gpusoc
