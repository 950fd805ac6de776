// The progress line's arithmetic: durations in a readable unit, and the time left from the rate
// since the first estimate (no estimate without a rate, none once the work is done).
#include "models/common/progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace gpusoc {
namespace {

TEST(Progress, DurationsTakeTheUnitThatKeepsThemShort) {
  EXPECT_EQ(readable_seconds(250), "250 s");
  EXPECT_EQ(readable_seconds(2.54), "2.5 s");
  EXPECT_EQ(readable_seconds(0.0123), "12.3 ms");
  EXPECT_EQ(readable_seconds(45.6e-6), "45.6 us");
  EXPECT_EQ(readable_seconds(7e-9), "7 ns");
}

TEST(Progress, RemainingTimeIsTheRateSoFarAppliedToWhatIsLeft) {
  RemainingTime left;
  EXPECT_LT(left.estimate(10, 100), 0);  // the first call only starts the clock
  const auto start = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_LT(left.estimate(10, 100), 0);            // no work done since: no rate
  const double estimate = left.estimate(40, 100);  // 30 units so far, 60 left: twice the time
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(estimate, 2 * 0.050);
  EXPECT_LE(estimate, 2 * elapsed + 1e-3);
  EXPECT_LT(left.estimate(100, 100), 0);  // done
  left.reset();
  EXPECT_LT(left.estimate(50, 100), 0);  // a new piece of work starts its own clock
}

}  // namespace
}  // namespace gpusoc
