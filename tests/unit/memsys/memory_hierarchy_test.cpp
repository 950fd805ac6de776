// MemoryHierarchy: packets through crossbar, L2 slice and partition at hand-computed cycles (a
// fill refused for room included), the same through partition mode, backpressure at the ports,
// and whole-trace runs against the bounds the DRAM presets set.
#include "models/memsys/memory_hierarchy.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/memsys/trace_driver.h"

namespace gpusoc::memsys {
namespace {

// Two GDDR5 partitions of one channel, the L2 and the crossbar at 1 GHz.
HierarchyConfig small_config(bool through_l2) {
  HierarchyConfig h;
  h.ports = 2;
  h.through_l2 = through_l2;
  h.l2_clock_mhz = 1000;
  h.dram = mempart::dram_preset("GDDR5");
  h.mapping.partitions = 2;
  h.mapping.channels = 1;
  h.mapping.bank_groups = h.dram.bank_groups;
  h.mapping.banks_per_group = h.dram.banks_per_group;
  h.mapping.rows = h.dram.rows;
  h.mapping.columns = h.dram.columns / h.dram.burst_length;
  h.mapping.burst_bytes = h.dram.burst_bytes();
  h.l2.size_bytes = 64 * 1024;
  return h;
}

MemPacket read(uint64_t id, uint64_t address, uint32_t mask = 1) {
  MemPacket p;
  p.id = id;
  p.address = address;
  p.sector_mask = mask;
  return p;
}

std::vector<HierarchyCompletion> run(MemoryHierarchy& h) {
  std::vector<HierarchyCompletion> done;
  while (h.in_flight() > 0) h.advance(h.next_event(), done);
  return done;
}

// GDDR5 at 1.5 GHz under a 1 GHz L2: 1.5 DRAM cycles per L2 cycle. A read miss offered at 0:
//   request network: 8-byte header, one cycle on the switch (granted at 0), 2 cycles of latency:
//     in the slice's input at 2; looked up at 2, a miss: its fill goes to the partition at 2,
//     DRAM cycle floor(2 x 1.5) = 3;
//   DRAM: ACT at 3, RD at 3 + tRCD 18 = 21, last beat at 21 + CL 18 + burst 2 = 41, which the
//     L2 sees at the first L2 cycle whose DRAM cycle reaches 41: ceil(41 / 1.5) = 28;
//   L2: the answer is ready at 28 + hit latency 10 = 38;
//   reply network: 8 + 32 bytes take 2 cycles at 32 bytes per cycle, then 2 of latency: 38 + 1
//     + 2 = 41.
// A second read of the sector offered at 41 (the hierarchy has run through 41, so it enters at
// 42): in the slice at 44, a hit ready at 54, at its port at 57.
TEST(MemoryHierarchyTest, MissAndHitTakeTheHandComputedCycles) {
  StatGroup stats;
  MemoryHierarchy h(small_config(true), stats);
  EXPECT_DOUBLE_EQ(h.cycle_ps(), 1000.0);
  h.offer(0, read(1, 0x0), 0);
  EXPECT_EQ(h.in_flight(), 1u);
  auto done = run(h);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].cycle, 41u);
  EXPECT_EQ(done[0].packet.id, 1u);
  EXPECT_EQ(done[0].packet.source, 0u);
  h.offer(1, read(2, 0x0), 41);
  done = run(h);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].cycle, 57u);
  EXPECT_EQ(done[0].packet.source, 1u) << "the reply goes to the port that asked";
  EXPECT_EQ(h.slice(0).stats().read_hits.value() + h.slice(1).stats().read_hits.value(), 1u);
  EXPECT_EQ(h.in_flight(), 0u);
}

// Partition mode counts DRAM cycles: ACT at 0, RD at 18, the last beat at 18 + 18 + 2 = 38.
TEST(MemoryHierarchyTest, PartitionModeAnswersAfterActivateReadAndBurst) {
  StatGroup stats;
  MemoryHierarchy h(small_config(false), stats);
  EXPECT_NEAR(h.cycle_ps(), 1000.0 / 1.5, 1e-9);
  h.offer(0, read(1, 0x0), 0);
  auto done = run(h);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].cycle, 38u);
}

// Four partitions interleaved every 256 bytes, a 4-way 16 KB slice each (32 sets): a 48 KB
// footprint is 12 KB a slice and fits. Read twice, line by line, the second pass must hit every
// line. Indexed by the global line number instead, a slice's lines (two of every eight) would
// fall in 8 of its 32 sets, 4 KB of room, and the second pass would miss.
TEST(MemoryHierarchyTest, EachSliceIndexesItsSetsByThePartitionLocalAddress) {
  HierarchyConfig c = small_config(true);
  c.mapping.partitions = 4;
  c.mapping.xor_hash = false;
  c.l2.size_bytes = 16 * 1024;
  c.l2.ways = 4;
  StatGroup stats;
  MemoryHierarchy h(c, stats);
  const uint64_t lines = 48 * 1024 / 128;
  uint64_t id = 0, cycle = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint64_t line = 0; line < lines; ++line) {
      h.offer(0, read(++id, line * 128, 0xF), cycle);
      cycle = run(h).back().cycle;
    }
  }
  uint64_t hits = 0, misses = 0;
  for (uint32_t s = 0; s < 4; ++s) {
    hits += h.slice(s).stats().read_hits.value();
    misses += h.slice(s).stats().read_misses.value();
  }
  EXPECT_EQ(misses, lines);
  EXPECT_EQ(hits, lines);
}

// memory.partition_latency_ns delays what a partition answers, so L2 misses only: 12 ns is 18
// GDDR5 cycles (1.5 GHz), which the 1 GHz L2 sees 12 cycles later: the miss of
// MissAndHitTakeTheHandComputedCycles at 41 + 12 = 53, its hit still 16 cycles after it is
// offered; partition mode measures the DRAM alone and leaves the latency out.
TEST(MemoryHierarchyTest, ThePartitionLatencyDelaysMissesOnly) {
  HierarchyConfig c = small_config(true);
  c.partition_latency_ns = 12;
  StatGroup stats;
  MemoryHierarchy h(c, stats);
  h.offer(0, read(1, 0x0), 0);
  EXPECT_EQ(run(h).at(0).cycle, 53u);
  h.offer(1, read(2, 0x0), 53);
  EXPECT_EQ(run(h).at(0).cycle, 69u);
  HierarchyConfig dram_only = small_config(false);
  dram_only.partition_latency_ns = 12;
  StatGroup dram_stats;
  MemoryHierarchy d(dram_only, dram_stats);
  d.offer(0, read(1, 0x0), 0);
  EXPECT_EQ(run(d).at(0).cycle, 38u);
}

// A controller read queue of one entry refuses the second of two misses until the first one's
// RD issues; the refused fill goes the cycle after, not at whatever event comes next.
//   A (address 0), as in MissAndHitTakeTheHandComputedCycles: in the slice at 2, to the
//     partition at DRAM cycle 3, ACT at 3, RD at 21, at its port at 41.
//   B (same partition and channel, another bank group): granted on the switch at 1 (the output
//     is busy at 0), in the slice at 3, a miss: its fill is refused (the queue holds A).
//   A's RD at DRAM cycle 21 frees the entry at L2 cycle 14 (floor(14 x 1.5) = 21); B's fill
//     goes at 15, DRAM cycle 22: ACT at 22, RD at 22 + tRCD 18 = 40, last beat at 40 + CL 18 +
//     burst 2 = 60, L2 cycle 40; answered at 40 + 10 = 50, at its port at 50 + 1 + 2 = 53.
//   (Taken at the next event instead, A's data at DRAM 41, B would go at L2 cycle 28.)
TEST(MemoryHierarchyTest, AFillRefusedForRoomGoesTheCycleAfterRoomAppears) {
  HierarchyConfig c = small_config(true);
  c.controller.read_queue = 1;
  StatGroup stats;
  MemoryHierarchy h(c, stats);
  const mempart::DramLocation a = h.mapping().map(0);
  uint64_t b = 0;
  for (uint64_t address = 0x80; b == 0; address += 0x80) {
    const mempart::DramLocation at = h.mapping().map(address);
    if (at.partition == a.partition && at.channel == a.channel && at.bank_group != a.bank_group)
      b = address;
  }
  h.offer(0, read(1, 0), 0);
  h.offer(1, read(2, b), 0);
  auto done = run(h);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].packet.id, 1u);
  EXPECT_EQ(done[0].cycle, 41u);
  EXPECT_EQ(done[1].packet.id, 2u);
  EXPECT_EQ(done[1].cycle, 53u);
}

TEST(MemoryHierarchyTest, AFullCrossbarInputRefusesTheNextPacket) {
  HierarchyConfig c = small_config(true);
  c.xbar.input_buffer = 3;
  StatGroup stats;
  MemoryHierarchy h(c, stats);
  for (uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(h.can_offer(0, read(i, 0x1000 * i)));
    h.offer(0, read(i, 0x1000 * i), 0);
  }
  EXPECT_FALSE(h.can_offer(0, read(3, 0x3000)));
  EXPECT_THROW(h.offer(0, read(3, 0x3000), 0), ModelError);
  EXPECT_TRUE(h.can_offer(1, read(3, 0x3000))) << "ports have their own buffers";
  std::vector<HierarchyCompletion> done;
  h.advance(0, done);  // one packet crosses the switch at 0 and frees its slot
  EXPECT_TRUE(h.can_offer(0, read(3, 0x3000)));
}

TEST(MemoryHierarchyTest, APacketSpanningTwoLinesIsRefused) {
  StatGroup stats;
  MemoryHierarchy h(small_config(true), stats);
  EXPECT_THROW(h.offer(0, read(1, 0x60, 0b11), 0), ModelError);  // sectors 3 and 4 of a line
  EXPECT_NO_THROW(h.offer(0, read(2, 0x40, 0b11), 0));
}

// A request outside device memory would alias onto another address (the mapping masks the row):
// the driver refuses it, naming the trace line, before anything is offered. The check must not
// overflow for an address near 2^64.
TEST(MemoryHierarchyTest, TraceRequestsOutsideDeviceMemoryNameTheirLine) {
  const auto error = [](const std::string& trace) {
    StatGroup stats;
    MemoryHierarchy h(small_config(true), stats);
    TraceDriver driver(h, 2, 0, {0x1000, 0x10000, "memory.capacity_bytes"});
    std::istringstream in(trace);
    const auto source = trace_reader(in, "t.trace");
    try {
      driver.run(*source);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("0 R 0x1000 32\n1 R 0x10fe0 32\n"), "");  // the first and the last 32 bytes
  EXPECT_EQ(error("0 R 0x1000 32\n1 R 0x10fe1 32\n"),
            "t.trace:2: 32 bytes at 0x10fe1 are outside device memory [0x1000, 0x11000) "
            "(memory.capacity_bytes = 65536 bytes)");
  EXPECT_EQ(error("0 R 0xfe0 32\n"),
            "t.trace:1: 32 bytes at 0xfe0 are outside device memory [0x1000, 0x11000) "
            "(memory.capacity_bytes = 65536 bytes)");
  EXPECT_NE(error("0 R 0xfffffffffffffff0 32\n"), "");
}

}  // namespace
}  // namespace gpusoc::memsys
