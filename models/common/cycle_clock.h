// A clock of a fractional period in picoseconds over SystemC time: when a cycle begins, the
// first cycle not before a time (where an arrival lands), and the cycle a process woken at a
// time runs through. Cycle c begins at ceil(c * period) ps (rounded up to the time
// resolution by Picoseconds), so nothing happens before its cycle, and rounding never
// accumulates across cycles.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <systemc>

#include "models/common/picoseconds.h"

namespace gpusoc {

class CycleClock {
 public:
  /// `period_ps` > 0. Takes SystemC's time resolution now (see Picoseconds).
  explicit CycleClock(double period_ps) : period_ps_(period_ps) {}

  double period_ps() const { return period_ps_; }
  sc_core::sc_time time_of(uint64_t cycle) const {
    return ps_.time(uint64_t(std::ceil(double(cycle) * period_ps_)));
  }
  /// The first cycle that does not begin before `t`.
  uint64_t cycle_at(const sc_core::sc_time& t) const {
    uint64_t c = uint64_t(std::ceil(t.to_seconds() * 1e12 / period_ps_));
    while (c > 0 && time_of(c - 1) >= t) --c;
    while (time_of(c) < t) ++c;
    return c;
  }
  /// The last cycle that has begun by `t`. At a time resolution coarser than the period several
  /// cycles begin at one SystemC time: a process woken then runs through all of them.
  uint64_t reached(const sc_core::sc_time& t) const {
    uint64_t c = uint64_t(t.to_seconds() * 1e12 / period_ps_);
    while (c > 0 && time_of(c) > t) --c;
    while (time_of(c + 1) <= t) ++c;
    return c;
  }
  /// The cycle a process woken now runs through: the one now falls in (its first cycle not
  /// before now), or, where several cycles begin at this very time (a time resolution coarser
  /// than the period), the last of them; else a wake-up at the next cycle, which begins now
  /// too, would find the same cycle again, forever.
  uint64_t now() const {
    const sc_core::sc_time t = sc_core::sc_time_stamp();
    return std::max(cycle_at(t), reached(t));
  }
  /// From now until cycle `cycle` begins; zero when it is not after now.
  sc_core::sc_time until(uint64_t cycle) const {
    const sc_core::sc_time at = time_of(cycle), now = sc_core::sc_time_stamp();
    return at > now ? at - now : sc_core::SC_ZERO_TIME;
  }
  const Picoseconds& ps() const { return ps_; }

 private:
  double period_ps_;
  Picoseconds ps_;
};

}  // namespace gpusoc
