#include "models/common/bandwidth_booking.h"

#include <algorithm>

namespace gpusoc {

uint64_t BandwidthBooking::book(uint64_t arrival_ps, uint64_t occupancy_ps, uint64_t now_ps) {
  used_.erase(used_.begin(), used_.lower_bound(now_ps / window_ps_));
  // Each window is booked from its start like a FIFO, but not before the request arrives.
  uint64_t remaining = occupancy_ps;
  uint64_t w = arrival_ps / window_ps_;
  uint64_t from = arrival_ps % window_ps_;
  for (;; ++w, from = 0) {
    uint64_t& booked = used_[w];  // booked up to this offset into the window
    booked = std::max(booked, from);
    const uint64_t take = std::min(remaining, window_ps_ - booked);
    booked += take;
    remaining -= take;
    if (remaining == 0) return w * window_ps_ + booked;
  }
}

}  // namespace gpusoc
