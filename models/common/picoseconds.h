// Picoseconds and SystemC time, at whatever time resolution the platform set. The SMs, texture
// units and memory system keep their clocks in integer picoseconds; a virtual platform may run
// SystemC at a coarser resolution (1 ns is common) or a finer one. Reading a time floors it to a
// picosecond; a time the model schedules is rounded up to the resolution, so nothing happens
// before its time, and each wait starts again from the model's own picosecond clock, so
// rounding never accumulates.
#pragma once

#include <cmath>
#include <cstdint>

#include <systemc>

namespace gpusoc {

class Picoseconds {
 public:
  /// SystemC's resolution now (fixed once any sc_time exists: take it at construction).
  Picoseconds() {
    const double fs = std::round(sc_core::sc_get_time_resolution().to_seconds() * 1e15);
    if (fs >= 1000) {
      ps_per_unit_ = uint64_t(fs / 1000);
    } else {
      units_per_ps_ = uint64_t(1000 / fs);
    }
  }
  /// Saturates at 2^64 - 1 ps (213 days), beyond what a coarse resolution's time could hold.
  uint64_t of(const sc_core::sc_time& t) const {
    if (units_per_ps_ != 1) return t.value() / units_per_ps_;
    return t.value() > kMax / ps_per_unit_ ? kMax : t.value() * ps_per_unit_;
  }
  uint64_t now() const { return of(sc_core::sc_time_stamp()); }
  /// Saturates at sc_max_time() where a fine resolution cannot count that far.
  sc_core::sc_time time(uint64_t ps) const {
    if (units_per_ps_ != 1)
      return ps > kMax / units_per_ps_ ? sc_core::sc_max_time()
                                       : sc_core::sc_time::from_value(ps * units_per_ps_);
    return sc_core::sc_time::from_value(ps / ps_per_unit_ + (ps % ps_per_unit_ != 0));
  }
  /// From now until `ps` (rounded up to the resolution); zero when that is not after now.
  sc_core::sc_time until(uint64_t ps) const {
    const sc_core::sc_time at = time(ps), now = sc_core::sc_time_stamp();
    return at > now ? at - now : sc_core::SC_ZERO_TIME;
  }

 private:
  static constexpr uint64_t kMax = ~uint64_t(0);
  uint64_t ps_per_unit_ = 1;   // at 1 ps or coarser
  uint64_t units_per_ps_ = 1;  // finer than 1 ps
};

}  // namespace gpusoc
