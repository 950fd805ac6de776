// The MIO queues against hand-computed dispatch cycles: the pipe takes one instruction a cycle in
// the order they enter, whichever block queued them; a block's queue holds `depth` instructions
// the pipe has not taken yet.
#include "models/sm/mio_queues.h"

#include <gtest/gtest.h>

namespace gpusoc::sm {
namespace {

TEST(MioQueues, PipeTakesOneInstructionACycleInArrivalOrder) {
  MioQueues mio(4, 2, 8);  // 4 blocks x 8 lanes: a warp instruction a cycle
  EXPECT_TRUE(mio.enabled());
  EXPECT_EQ(mio.enqueue(0, 10, 0), 10u);  // straight into the pipe
  EXPECT_EQ(mio.enqueue(1, 10, 0), 11u);  // waits a cycle in block 1's queue
  EXPECT_EQ(mio.enqueue(1, 10, 0), 12u);  // block 1 now holds two: full
  EXPECT_EQ(mio.room_at(1, 10), 11u);     // until its first leaves
  EXPECT_EQ(mio.room_at(0, 10), 10u);     // block 0's went straight through
  EXPECT_EQ(mio.enqueue(2, 10, 0), 13u);  // behind block 1's, whichever block
  EXPECT_EQ(mio.room_at(1, 11), 11u);
  EXPECT_EQ(mio.enqueue(1, 11, 0), 14u);
  EXPECT_EQ(mio.room_at(1, 11), 12u);
}

TEST(MioQueues, BusyBanksHoldTheInstructionAndThoseBehindIt) {
  MioQueues mio(2, 4, 16);                // 2 blocks x 16 lanes: a warp instruction a cycle
  EXPECT_EQ(mio.enqueue(0, 0, 20), 20u);  // the banks are free at 20
  EXPECT_EQ(mio.enqueue(1, 1, 0), 21u);   // in order behind it
  EXPECT_EQ(mio.room_at(0, 5), 5u);       // block 0 holds one of 4
}

TEST(MioQueues, NarrowPipeTakesAnInstructionEveryFewCycles) {
  MioQueues mio(2, 1, 4);  // 2 blocks x 4 lanes = 8: a warp instruction every 4 cycles
  EXPECT_EQ(mio.enqueue(0, 0, 0), 0u);
  EXPECT_EQ(mio.enqueue(1, 0, 0), 4u);
  EXPECT_EQ(mio.room_at(1, 1), 4u);  // depth 1: full until the pipe takes it
  EXPECT_EQ(mio.enqueue(0, 1, 0), 8u);
}

TEST(MioQueues, DepthZeroIsSwitchedOff) {
  EXPECT_FALSE(MioQueues(4, 0, 8).enabled());
}

}  // namespace
}  // namespace gpusoc::sm
