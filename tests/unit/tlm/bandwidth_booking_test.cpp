#include "models/common/bandwidth_booking.h"

#include <gtest/gtest.h>

namespace gpusoc {
namespace {

// Windows of 100 ps keep the arithmetic visible.
TEST(BandwidthBooking, InOrderRequestsQueueLikeAFifo) {
  BandwidthBooking port(100);
  EXPECT_EQ(port.book(0, 250, 0), 250u);
  EXPECT_EQ(port.book(0, 250, 0), 500u);
  EXPECT_EQ(port.book(600, 10, 0), 610u);  // the port is idle again by then
}

TEST(BandwidthBooking, AnEarlyRequestArrivingLateDoesNotWaitForLaterTraffic) {
  BandwidthBooking port(100);
  EXPECT_EQ(port.book(900, 50, 0), 950u);  // booked first, arrives at 900
  EXPECT_EQ(port.book(100, 50, 0), 150u);  // arrives earlier: not queued behind it
}

TEST(BandwidthBooking, ThroughputNeverExceedsTheBandwidth) {
  BandwidthBooking port(100);
  uint64_t last = 0;
  for (int i = 0; i < 1000; ++i) last = std::max(last, port.book(0, 30, 0));
  EXPECT_EQ(last, 30000u);  // 1000 requests of 30 ps each, all arriving at 0
}

TEST(BandwidthBooking, RequestsOfOneWindowAreServedInTurn) {
  BandwidthBooking port(100);
  EXPECT_EQ(port.book(50, 40, 0), 90u);
  EXPECT_EQ(port.book(10, 40, 0), 130u);  // 10 ps fit after the first, 30 spill over
  EXPECT_EQ(port.book(20, 40, 0), 170u);
  EXPECT_EQ(port.book(250, 40, 0), 290u);  // a later window is untouched
}

TEST(BandwidthBooking, NothingIsServedBeforeItArrives) {
  BandwidthBooking port(100);
  EXPECT_EQ(port.book(90, 40, 0), 130u);  // not 40: the window's first 90 ps had passed
}

TEST(BandwidthBooking, ForgetsWindowsBeforeNow) {
  BandwidthBooking port(100);
  EXPECT_EQ(port.book(0, 100, 0), 100u);
  EXPECT_EQ(port.book(0, 100, 0), 200u);
  EXPECT_EQ(port.book(300, 100, 300), 400u);  // windows 0-2 are gone, window 3 is free
}

}  // namespace
}  // namespace gpusoc
