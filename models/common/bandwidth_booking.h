// Bandwidth of a port shared by temporally decoupled initiators. Their requests arrive out of
// time order (each runs ahead of SystemC time by up to a quantum, and a timed SM issues a whole
// warp slice at once), so a single "port free at" time would queue an early request behind a
// later one. Instead, time is cut into windows and each request books its transfer time from
// its own arrival, first-come first-served within a window and spilling into later windows when
// one is full: throughput never exceeds the bandwidth, nothing is served before it arrives, and
// a request only waits for traffic of its own window or earlier.
#pragma once

#include <cstdint>
#include <map>

namespace gpusoc {

class BandwidthBooking {
 public:
  explicit BandwidthBooking(uint64_t window_ps = 100'000) : window_ps_(window_ps) {}

  /// Books `occupancy_ps` of the port for a request arriving at `arrival_ps`; returns when its
  /// last byte has passed (at least arrival + occupancy). `now_ps` is the earliest time any
  /// request can still arrive at (SystemC time): windows before it are forgotten.
  uint64_t book(uint64_t arrival_ps, uint64_t occupancy_ps, uint64_t now_ps);

  uint64_t window_ps() const { return window_ps_; }

 private:
  uint64_t window_ps_;
  std::map<uint64_t, uint64_t> used_;  // window index -> booked up to this offset into it
};

}  // namespace gpusoc
