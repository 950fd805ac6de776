// The L2 slice's misses, MSHRs and bounded queues: which fills go to memory, when merged
// packets are answered, and exactly how long a head waits when an MSHR or a queue is full.
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "tests/unit/l2/l2_harness.h"

namespace gpusoc::l2::testing {
namespace {

TEST(L2Miss, AMissFetchesItsSectorsAndRepliesHitLatencyAfterTheFill) {
  Harness h(small_config());
  h.accept(packet(1, 0x2040, 0x3), 5);  // sectors 2-3 of line 0x2000
  h.run_until(5);
  ASSERT_EQ(h.memory.size(), 1u);
  EXPECT_EQ(h.memory[0].cycle, 5u);
  EXPECT_EQ(h.memory[0].packet.op, MemOp::Read);
  EXPECT_EQ(h.memory[0].packet.address, 0x2040u);
  EXPECT_EQ(h.memory[0].packet.sector_mask, 0x3u);
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);  // only memory can move it on
  h.answer(0, 40);
  EXPECT_EQ(h.slice.next_event(), 50u);
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 1u);
  EXPECT_EQ(h.replies[0].cycle, 50u);
  EXPECT_EQ(h.replies[0].packet.id, 1u);
  EXPECT_EQ(h.slice.stats().fills.value(), 1u);
  EXPECT_EQ(h.slice.stats().fill_sectors.value(), 2u);
}

TEST(L2Miss, APartialHitIsAMissThatFetchesOnlyTheMissingSectors) {
  Harness h(small_config());
  h.accept(packet(1, 0x2040, 0x3), 0);
  h.run_until(0);
  h.answer(0, 30);
  h.accept(packet(2, 0x2000, 0xF), 60);  // sectors 2-3 present, 0-1 missing
  h.run_until(60);
  ASSERT_EQ(h.memory.size(), 2u);
  EXPECT_EQ(h.memory[1].cycle, 60u);
  EXPECT_EQ(h.memory[1].packet.address, 0x2000u);
  EXPECT_EQ(h.memory[1].packet.sector_mask, 0x3u);
  h.answer(1, 80);
  h.run_until(200);
  ASSERT_EQ(h.replies.size(), 2u);
  EXPECT_EQ(h.replies[1].cycle, 90u);
  EXPECT_EQ(h.slice.stats().read_misses.value(), 2u);
  EXPECT_EQ(h.slice.stats().read_hits.value(), 0u);
  h.accept(packet(3, 0x2000, 0xF), 200);  // now all there
  h.run_until(300);
  EXPECT_EQ(h.replies.back().cycle, 210u);
  EXPECT_EQ(h.slice.stats().read_hits.value(), 1u);
}

TEST(L2Miss, MergedPacketsShareOneFillAndAFullMergeListStallsTheHead) {
  Harness h(small_config());            // 2 packets per MSHR
  h.accept(packet(1, 0x3000, 0x1), 0);  // lookup 0: miss
  h.accept(packet(2, 0x3000, 0x1), 0);  // lookup 1: merges
  h.accept(packet(3, 0x3000, 0x1), 0);  // lookup 2: merge list full, waits
  h.accept(packet(4, 0x5000, 0x1), 0);  // behind it
  h.run_until(29);
  ASSERT_EQ(h.memory.size(), 1u);
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);
  h.answer(0, 30);  // 1 and 2 answered at 40; 3 looked up at 30: a hit; 4 at 31
  h.run_until(31);
  ASSERT_EQ(h.memory.size(), 2u);
  EXPECT_EQ(h.memory[1].cycle, 31u);
  EXPECT_EQ(h.memory[1].packet.address, 0x5000u);
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(h.replies[i].packet.id, i + 1);
    EXPECT_EQ(h.replies[i].cycle, 40u);
  }
  EXPECT_EQ(h.slice.stats().mshr_merges.value(), 1u);
  EXPECT_EQ(h.slice.stats().mshr_stall_cycles.value(), 28u);  // cycles 2 to 30
  EXPECT_EQ(h.slice.stats().read_hits.value(), 1u);
  EXPECT_EQ(h.slice.stats().read_misses.value(), 3u);
}

TEST(L2Miss, AMergeNeedingOtherSectorsFetchesThemAndWaitsForBothFills) {
  Harness h(small_config());
  h.accept(packet(1, 0x3000, 0x1), 0);  // fetches sector 0
  h.accept(packet(2, 0x3000, 0x3), 0);  // merges, fetches sector 1 as well
  h.run_until(1);
  ASSERT_EQ(h.memory.size(), 2u);
  EXPECT_EQ(h.memory[1].packet.address, 0x3020u);
  EXPECT_EQ(h.memory[1].packet.sector_mask, 0x1u);
  h.answer(0, 20);  // packet 1 complete: 30
  h.answer(1, 25);  // packet 2 complete: 35
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 2u);
  EXPECT_EQ(h.replies[0].cycle, 30u);
  EXPECT_EQ(h.replies[1].cycle, 35u);
}

TEST(L2Miss, WithEveryMshrBusyTheHeadWaitsForAFill) {
  L2Config c = small_config();
  c.mshrs = 2;
  Harness h(c);
  h.accept(packet(1, 0x0, 0x1), 0);
  h.accept(packet(2, 0x80, 0x1), 0);
  h.accept(packet(3, 0x100, 0x1), 0);  // lookup 2: no MSHR
  h.run_until(24);
  ASSERT_EQ(h.memory.size(), 2u);
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);
  h.answer(1, 25);
  h.run_until(25);
  ASSERT_EQ(h.memory.size(), 3u);
  EXPECT_EQ(h.memory[2].cycle, 25u);
  EXPECT_EQ(h.slice.stats().mshr_stall_cycles.value(), 23u);
}

TEST(L2Miss, WhenEveryWayOfTheSetIsPendingTheHeadWaits) {
  Harness h(small_config());
  h.accept(packet(1, 0x0, 0x1), 0);
  h.accept(packet(2, 0x200, 0x1), 0);
  h.accept(packet(3, 0x400, 0x1, MemOp::Write), 0);  // set 0: both ways on their way
  h.run_until(19);
  EXPECT_EQ(h.replies.size(), 0u);
  h.answer(0, 20);  // line 0x0 present, clean: the write evicts it at 20
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 2u);
  EXPECT_EQ(h.replies[0].packet.id, 1u);
  EXPECT_EQ(h.replies[1].packet.id, 3u);
  EXPECT_EQ(h.replies[1].cycle, 30u);
  EXPECT_EQ(h.slice.stats().mshr_stall_cycles.value(), 18u);
}

TEST(L2Miss, AnAtomicMissRunsAtTheRopWhenItsFillLandsAndDirtiesItsSector) {
  Harness h(small_config(), mempart::RopConfig{1, 8});
  h.accept(packet(1, 0x20, 0x1, MemOp::Atomic), 0);
  h.run_until(0);
  h.answer(0, 40);  // ROP 40..48
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 1u);
  EXPECT_EQ(h.replies[0].cycle, 48u);
  EXPECT_EQ(h.slice.stats().atomic_misses.value(), 1u);
  h.slice.flush();
  h.run_until(100);
  ASSERT_EQ(h.memory.size(), 2u);
  EXPECT_EQ(h.memory[1].packet.op, MemOp::Write);
  EXPECT_EQ(h.memory[1].packet.address, 0x20u);
  EXPECT_EQ(h.memory[1].packet.sector_mask, 0x1u);
}

// The reply queue holds reply_queue replies waiting for the network beyond the hit pipeline's
// hit_latency: here 1 + 1.
TEST(L2Miss, AFullReplyQueueStallsLookupsUntilAPop) {
  L2Config c = small_config();
  c.reply_queue = 1;
  c.hit_latency = 1;
  Harness h(c);
  h.hold_replies = true;
  h.accept(packet(1, 0x0, 0x1, MemOp::Write), 0);  // lookup 0: ack ready at 1
  h.accept(packet(2, 0x0, 0x2, MemOp::Write), 0);  // lookup 1: ack ready at 2, the queue full
  h.accept(packet(3, 0x0, 0x4, MemOp::Write), 0);  // lookup 2: no room
  h.run_until(14);
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);
  EXPECT_TRUE(h.slice.reply_ready(14));
  h.slice.pop_reply();  // at 14
  EXPECT_EQ(h.slice.next_event(), 14u);
  h.hold_replies = false;
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 2u);
  EXPECT_EQ(h.replies[1].packet.id, 3u);
  EXPECT_EQ(h.replies[1].cycle, 15u);
  EXPECT_EQ(h.slice.stats().queue_stall_cycles.value(), 12u);
}

// Replies still in the hit pipeline leave the room of those waiting for the network alone: with
// reply_queue 1, hit_latency lookups in a row all go, however long the network waits.
TEST(L2Miss, RepliesInTheHitPipelineDoNotFillTheReplyQueue) {
  L2Config c = small_config();
  c.reply_queue = 1;
  Harness h(c);
  h.hold_replies = true;
  for (uint64_t i = 0; i < 4; ++i) h.accept(packet(i + 1, 0x0, 1u << i, MemOp::Write), 0);
  h.run_until(9);  // lookups at 0..3, acks ready at 10..13
  EXPECT_EQ(h.slice.stats().queue_stall_cycles.value(), 0u);
  h.hold_replies = false;
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 4u);
  EXPECT_EQ(h.replies[3].cycle, 13u);
}

TEST(L2Miss, FillsAnsweredIntoAFullReplyQueueWaitInTheirMshr) {
  L2Config c = small_config();
  c.reply_queue = 1;
  c.hit_latency = 1;
  Harness h(c);
  h.hold_replies = true;
  h.accept(packet(9, 0x100, 0x1, MemOp::Write), 0);  // lookup 0: ack ready at 1, held
  h.accept(packet(1, 0x0, 0x1), 0);                  // lookup 1: miss
  h.accept(packet(2, 0x0, 0x1), 0);                  // lookup 2: merged
  h.run_until(2);
  h.answer(0, 20);  // room for packet 1 (ready 21), the queue then full; packet 2 waits
  h.run_until(35);
  h.slice.pop_reply();  // at 35, the ack: packet 2 placed, ready 36
  h.hold_replies = false;
  h.take(35);  // packet 1
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 2u);
  EXPECT_EQ(h.replies[0].packet.id, 1u);
  EXPECT_EQ(h.replies[1].packet.id, 2u);
  EXPECT_EQ(h.replies[1].cycle, 36u);
}

TEST(L2Miss, AFullMemoryQueueStallsMissesUntilAPop) {
  L2Config c = small_config();
  c.memory_queue = 2;
  Harness h(c);
  h.hold_memory = true;
  h.accept(packet(1, 0x0, 0x1), 0);
  h.accept(packet(2, 0x80, 0x1), 0);
  h.accept(packet(3, 0x100, 0x1), 0);  // lookup 2: no room
  h.run_until(20);
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);
  h.slice.pop_memory_request();  // at 20
  h.run_until(20);
  h.hold_memory = false;
  h.run_until(20);
  ASSERT_EQ(h.memory.size(), 2u);  // packets 2 and 3
  EXPECT_EQ(h.memory[1].packet.address, 0x100u);
  EXPECT_EQ(h.slice.stats().queue_stall_cycles.value(), 18u);
}

TEST(L2Miss, AFullInputQueueRefusesPackets) {
  L2Config c = small_config();
  c.input_queue = 2;
  Harness h(c);
  h.accept(packet(1, 0x0, 0x1), 0);
  EXPECT_TRUE(h.slice.can_accept());
  h.accept(packet(2, 0x80, 0x1), 0);
  EXPECT_FALSE(h.slice.can_accept());
  EXPECT_THROW(h.accept(packet(3, 0x100, 0x1), 0), ModelError);
  h.run_until(0);  // one lookup: room for one
  EXPECT_TRUE(h.slice.can_accept());
}

TEST(L2Miss, AnAnswerNoFillWaitsForIsAModelError) {
  Harness h(small_config());
  EXPECT_THROW(h.slice.memory_reply(12345, 0), ModelError);
}

}  // namespace
}  // namespace gpusoc::l2::testing
