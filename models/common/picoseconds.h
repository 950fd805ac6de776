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
  uint64_t of(const sc_core::sc_time& t) const {
    return units_per_ps_ == 1 ? t.value() * ps_per_unit_ : t.value() / units_per_ps_;
  }
  uint64_t now() const { return of(sc_core::sc_time_stamp()); }
  sc_core::sc_time time(uint64_t ps) const {
    return sc_core::sc_time::from_value(units_per_ps_ == 1
                                            ? (ps + ps_per_unit_ - 1) / ps_per_unit_
                                            : ps * units_per_ps_);
  }

 private:
  uint64_t ps_per_unit_ = 1;   // at 1 ps or coarser
  uint64_t units_per_ps_ = 1;  // finer than 1 ps
};

}  // namespace gpusoc
