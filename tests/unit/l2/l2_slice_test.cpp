// The L2 slice's hits, writes, port bandwidth, atomics and pass-through, against cycle numbers
// computed by hand from the contract in models/l2/l2_slice.h.
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/common/stats_report.h"
#include "tests/unit/l2/l2_harness.h"

namespace gpusoc::l2::testing {
namespace {

TEST(L2Slice, AReadHitRepliesExactlyHitLatencyAfterItsLookup) {
  Harness h(small_config());
  h.accept(packet(1, 0x1000, 0xF, MemOp::Write), 0);  // 128 bytes: the port for 2 cycles
  h.accept(packet(2, 0x1020, 0x3), 0);                // sectors 1-2 of the written line
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 2u);
  EXPECT_EQ(h.replies[0].cycle, 10u);  // write ack: lookup 0 + 10
  EXPECT_EQ(h.replies[0].packet.id, 1u);
  EXPECT_EQ(h.replies[1].cycle, 12u);  // lookup 2 + 10
  EXPECT_EQ(h.replies[1].packet.id, 2u);
  EXPECT_TRUE(h.memory.empty());  // write-allocate fetches nothing, the victim was empty
  EXPECT_EQ(h.slice.stats().write_misses.value(), 1u);
  EXPECT_EQ(h.slice.stats().read_hits.value(), 1u);
  EXPECT_EQ(h.slice.stats().read_misses.value(), 0u);
  EXPECT_EQ(h.slice.stats().bytes_in.value(), 128u);
  EXPECT_EQ(h.slice.stats().bytes_out.value(), 64u);
}

TEST(L2Slice, IdleSliceHasNoEventAndAnInFlightHitHasItsReplyCycle) {
  Harness h(small_config());
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);
  h.accept(packet(1, 0x0, 0x1, MemOp::Write), 7);
  EXPECT_EQ(h.slice.next_event(), 7u);
  h.slice.advance(7);
  EXPECT_EQ(h.slice.next_event(), 17u);  // the ack becomes ready
  h.slice.advance(17);
  EXPECT_TRUE(h.slice.reply_ready(17));
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);  // nothing more without a pop
  h.slice.pop_reply();
  EXPECT_EQ(h.slice.next_event(), L2Slice::kNever);
}

TEST(L2Slice, FullLinePacketsAt32BytesPerCycleTakeFourCyclesEach) {
  L2Config c = small_config();
  c.bytes_per_cycle = 32;
  Harness h(c);
  h.accept(packet(1, 0x0, 0xF, MemOp::Write), 0);  // lookup 0
  h.accept(packet(2, 0x0, 0xF), 0);                // 4
  h.accept(packet(3, 0x0, 0xF), 0);                // 8
  h.accept(packet(4, 0x0, 0x1), 0);                // 12: one sector, one cycle
  h.run_until(12);
  h.accept(packet(5, 0x20, 0x1), 12);  // 13
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 5u);
  const uint64_t expected[] = {10, 14, 18, 22, 23};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(h.replies[i].packet.id, i + 1);
    EXPECT_EQ(h.replies[i].cycle, expected[i]) << "packet " << i + 1;
  }
}

TEST(L2Slice, DirtyEvictionWritesBackExactlyTheDirtySectors) {
  Harness h(small_config());
  // Lines 0x0, 0x200, 0x400, 0x600 share set 0 (2 ways).
  h.accept(packet(1, 0x0, 0b101, MemOp::Write), 0);    // line 0x0: sectors 0 and 2
  h.accept(packet(2, 0x220, 0b101, MemOp::Write), 0);  // line 0x200: sectors 1 and 3
  h.accept(packet(3, 0x400, 0x1), 0);                  // evicts 0x0 (least recent)
  h.accept(packet(4, 0x600, 0x1), 0);                  // 0x400 is pending: evicts 0x200
  h.run_until(3);
  ASSERT_EQ(h.memory.size(), 4u);
  const MemPacket& fill1 = h.memory[0].packet;
  EXPECT_EQ(fill1.op, MemOp::Read);
  EXPECT_EQ(fill1.address, 0x400u);
  EXPECT_EQ(fill1.sector_mask, 0x1u);
  const MemPacket& wb1 = h.memory[1].packet;
  EXPECT_EQ(wb1.op, MemOp::Write);
  EXPECT_EQ(wb1.address, 0x0u);
  EXPECT_EQ(wb1.sector_mask, 0b101u);
  EXPECT_EQ(h.memory[1].cycle, 2u);
  const MemPacket& wb2 = h.memory[3].packet;
  EXPECT_EQ(wb2.op, MemOp::Write);
  EXPECT_EQ(wb2.address, 0x220u);
  EXPECT_EQ(wb2.sector_mask, 0b101u);
  EXPECT_EQ(h.memory[3].cycle, 3u);
  EXPECT_EQ(h.slice.stats().writebacks.value(), 2u);
  EXPECT_EQ(h.slice.stats().writeback_sectors.value(), 4u);
  h.slice.memory_reply(wb1.id, 3);  // a write-back's acknowledgement is allowed and ignored
}

TEST(L2Slice, WriteHitsAPresentLineAndFlushWritesBackEveryDirtyLine) {
  Harness h(small_config());
  h.accept(packet(1, 0x80, 0x1, MemOp::Write), 0);   // set 1
  h.accept(packet(2, 0xA0, 0x1, MemOp::Write), 0);   // same line, sector 1: a write hit
  h.accept(packet(3, 0x100, 0x3, MemOp::Write), 0);  // set 2
  h.run_until(50);
  EXPECT_EQ(h.slice.stats().write_misses.value(), 2u);
  EXPECT_EQ(h.slice.stats().write_hits.value(), 1u);
  h.slice.flush();
  EXPECT_EQ(h.slice.next_event(), 50u);  // the write-backs are there to take now
  h.run_until(50);
  ASSERT_EQ(h.memory.size(), 2u);
  EXPECT_EQ(h.memory[0].packet.address, 0x80u);
  EXPECT_EQ(h.memory[0].packet.sector_mask, 0x3u);
  EXPECT_EQ(h.memory[1].packet.address, 0x100u);
  EXPECT_EQ(h.memory[1].packet.sector_mask, 0x3u);
  h.slice.flush();  // clean now: nothing more
  EXPECT_FALSE(h.slice.has_memory_request());
}

TEST(L2Slice, LruAndFifoEvictDifferentLinesAfterAHit) {
  for (const char* policy : {"lru", "fifo"}) {
    L2Config c = small_config();
    c.replacement = policy;
    Harness h(c);
    h.accept(packet(1, 0x0, 0x1, MemOp::Write), 0);    // A, set 0
    h.accept(packet(2, 0x200, 0x1, MemOp::Write), 0);  // B, set 0
    h.accept(packet(3, 0x0, 0x1), 0);                  // hit A
    h.accept(packet(4, 0x400, 0x1, MemOp::Write), 0);  // C evicts B (lru) or A (fifo)
    h.run_until(50);
    ASSERT_EQ(h.memory.size(), 1u) << policy;
    const uint64_t evicted = std::string(policy) == "lru" ? 0x200 : 0x0;
    EXPECT_EQ(h.memory[0].packet.address, evicted) << policy;
  }
}

TEST(L2Slice, AtomicsToOneAddressSerializeAtTheRopAndOthersPipeline) {
  L2Config c = small_config();
  c.reply_queue = 8;  // room for every reply: only the ROP orders them
  Harness h(c, mempart::RopConfig{1, 8});
  h.accept(packet(1, 0x0, 0xF, MemOp::Write), 0);    // lookup 0, ack 10
  h.accept(packet(2, 0x0, 0x1, MemOp::Atomic), 0);   // lookup 2: ROP 2..10
  h.accept(packet(3, 0x20, 0x1, MemOp::Atomic), 0);  // lookup 3: ROP 3..11
  h.accept(packet(4, 0x40, 0x1, MemOp::Atomic), 0);  // lookup 4: ROP 4..12
  h.run_until(4);
  h.accept(packet(5, 0x0, 0x1, MemOp::Atomic), 4);  // lookup 5: waits for 10, done 18
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 5u);
  const uint64_t id[] = {1, 2, 3, 4, 5}, ready[] = {10, 10, 11, 12, 18};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(h.replies[i].packet.id, id[i]);
    EXPECT_EQ(h.replies[i].cycle, ready[i]) << "packet " << id[i];
  }
  EXPECT_EQ(h.slice.stats().atomic_hits.value(), 4u);
  EXPECT_EQ(h.rop().stats().serialized.total(), 1u);
  EXPECT_EQ(h.rop().stats().wait_cycles.total(), 5u);  // packet 5: ready 5, started 10
}

TEST(L2Slice, AMultiSectorAtomicIsReadyWhenItsLastSectorIsDone) {
  Harness h(small_config(), mempart::RopConfig{1, 8});
  h.accept(packet(1, 0x0, 0xF, MemOp::Write), 0);
  h.accept(packet(2, 0x0, 0x7, MemOp::Atomic), 0);  // lookup 2: ROP slots 2, 3, 4
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 2u);
  EXPECT_EQ(h.replies[1].cycle, 12u);
  EXPECT_EQ(h.rop().stats().operations.total(), 3u);
}

TEST(L2Slice, TheRopCountsEachOperationAndItsContentionApart) {
  L2Config c = small_config();
  c.reply_queue = 8;
  Harness h(c, mempart::RopConfig{1, 8});
  h.accept(packet(1, 0x0, 0xF, MemOp::Write), 0);  // the line present: every atomic hits
  auto atomic = [](uint64_t id, uint64_t address, uint32_t mask, AtomicOp op) {
    MemPacket p = packet(id, address, mask, MemOp::Atomic);
    p.atomic = op;
    return p;
  };
  // The ROP issues in order, one operation a cycle, each done 8 cycles after it starts.
  h.accept(atomic(2, 0x0, 0x1, AtomicOp::Cas), 0);   // lookup 2: sector 0 starts at 2, done 10
  h.accept(atomic(3, 0x0, 0x3, AtomicOp::Add), 0);   // lookup 3: sector 0 waits for the CAS
                                                     // (starts 10), sector 1 for the slot (11)
  h.accept(atomic(4, 0x40, 0x1, AtomicOp::Xor), 0);  // lookup 4: the next slot, 12
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 4u);
  const mempart::RopStats& r = h.rop().stats();
  EXPECT_EQ(r.operations.total(), 4u);
  for (unsigned k = 0; k < kAtomicOps; ++k) {
    const uint64_t expected = k == unsigned(AtomicOp::Add)   ? 2
                              : k == unsigned(AtomicOp::Cas) ? 1
                              : k == unsigned(AtomicOp::Xor) ? 1
                                                             : 0;
    EXPECT_EQ(r.operations[k], expected) << kAtomicOpNames[k];
    EXPECT_EQ(r.serialized[k], k == unsigned(AtomicOp::Add) ? 1u : 0u) << kAtomicOpNames[k];
  }
  EXPECT_EQ(r.wait_cycles[unsigned(AtomicOp::Cas)], 0u);
  EXPECT_EQ(r.wait_cycles[unsigned(AtomicOp::Add)], (10u - 3) + (11 - 3));
  EXPECT_EQ(r.wait_cycles[unsigned(AtomicOp::Xor)], 12u - 4);
  EXPECT_EQ(r.wait_cycles.total(), 15u + 8);
  // The same counts, under the partition's ROP group, in every statistics dump.
  const auto dump = stats_values_json(h.stats());
  EXPECT_EQ(dump["rop"]["operations"]["add"], 2);
  EXPECT_EQ(dump["rop"]["wait_cycles"]["total"], 23);
}

// Reads and atomics are answered in memory's order; a write is posted: answered at its lookup,
// and memory's acknowledgement of it changes nothing.
TEST(L2Slice, WithoutCachePacketsPassToMemoryUnchangedAndReplyInMemorysOrder) {
  L2Config c = small_config();
  c.size_bytes = 0;
  Harness h(c, mempart::RopConfig{1, 8});
  h.accept(packet(11, 0x1000, 0xF), 0);                 // port 2 cycles
  h.accept(packet(12, 0x2000, 0x1, MemOp::Write), 0);   // lookup 2
  h.accept(packet(13, 0x3040, 0x1, MemOp::Atomic), 0);  // lookup 3
  h.run_until(5);
  ASSERT_EQ(h.memory.size(), 3u);
  EXPECT_EQ(h.memory[0].cycle, 0u);
  EXPECT_EQ(h.memory[1].cycle, 2u);
  EXPECT_EQ(h.memory[2].cycle, 3u);
  EXPECT_EQ(h.memory[0].packet.id, 11u);
  EXPECT_EQ(h.memory[0].packet.address, 0x1000u);
  EXPECT_EQ(h.memory[0].packet.sector_mask, 0xFu);
  EXPECT_EQ(h.memory[1].packet.op, MemOp::Write);
  EXPECT_EQ(h.memory[1].packet.address, 0x2000u);
  EXPECT_EQ(h.memory[2].packet.op, MemOp::Atomic);
  ASSERT_EQ(h.replies.size(), 1u);
  EXPECT_EQ(h.replies[0].packet.id, 12u);
  EXPECT_EQ(h.replies[0].cycle, 2u);  // posted
  h.answer(1, 20);  // memory acknowledges the write first: nothing waits for it
  h.answer(2, 25);  // the atomic's read: ROP 25..33
  h.answer(0, 30);
  h.run_until(100);
  ASSERT_EQ(h.replies.size(), 3u);
  EXPECT_EQ(h.replies[1].packet.id, 11u);
  EXPECT_EQ(h.replies[1].cycle, 30u);
  EXPECT_EQ(h.replies[2].packet.id, 13u);
  EXPECT_EQ(h.replies[2].cycle, 33u);
  EXPECT_EQ(h.slice.stats().read_misses.value(), 1u);
  EXPECT_EQ(h.slice.stats().fills.value(), 0u);
}

TEST(L2Slice, APacketCrossingALineIsAModelError) {
  Harness h(small_config());
  EXPECT_THROW(h.accept(packet(1, 0x60, 0x3), 0), ModelError);  // sectors 3 and 4
  EXPECT_THROW(h.accept(packet(2, 0x10, 0x1), 0), ModelError);  // not sector-aligned
  h.accept(packet(3, 0x60, 0x1), 0);
}

}  // namespace
}  // namespace gpusoc::l2::testing
