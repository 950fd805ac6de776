// The memory partition's contract on hand-built packets: sectors split into the device's bursts
// (32 or 64 bytes), an idle read answered after exactly tRCD + CL + B, replies in completion
// order, backpressure from a full controller queue, packets of other partitions refused; and
// memory.controller.* reaching the controller configuration.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "models/common/error.h"
#include "models/mempart/controller_params.h"
#include "tests/unit/mempart/partition_harness.h"

namespace gpusoc::mempart {
namespace {

MemPacket packet(uint64_t address, uint32_t mask, MemOp op = MemOp::Read) {
  MemPacket p;
  p.address = address, p.sector_mask = mask, p.op = op;
  return p;
}

TEST(MemoryPartition, SectorsSplitIntoTheDevicesBursts) {
  // GDDR5 bursts are 32 bytes (a sector each), DDR4's 64 (two sectors each).
  for (const auto& [preset, full, odd, low_pair] :
       std::vector<std::tuple<std::string, uint64_t, uint64_t, uint64_t>>{{"GDDR5", 4, 2, 2},
                                                                          {"DDR4", 2, 2, 1}}) {
    SCOPED_TRACE(preset);
    PartitionHarness h(dram_preset(preset), 1, ControllerConfig{});
    const uint64_t line = h.address(0, 0, 0, 9, 4);  // 128-byte aligned
    uint64_t bursts = 0;
    for (auto [mask, want] : {std::pair{0xfu, full}, {0xau, odd}, {0x3u, low_pair}}) {
      h.run(1, [&](uint64_t) { return packet(line, mask); });
      bursts += want;
      EXPECT_EQ(h.partition.stats().bursts.value(), bursts) << "mask " << mask;
    }
    EXPECT_EQ(h.partition.stats().read_packets.value(), 3u);
    h.expect_no_violations();
  }
}

TEST(MemoryPartition, IdleReadIsAnsweredAfterTrcdClAndTheBurst) {
  for (const std::string& preset : dram_preset_names()) {
    SCOPED_TRACE(preset);
    const DramTiming& t = dram_preset(preset);
    PartitionHarness h(t, 2, ControllerConfig{});
    const uint64_t end = h.run(1, [&](uint64_t) { return packet(h.address(1, 0, 2, 5, 3), 1); });
    EXPECT_EQ(end, t.tRCD + t.CL + t.burst_cycles());
    EXPECT_EQ(h.partition.stats().read_latency_cycles.value(), end);
    EXPECT_EQ(h.partition.controller(1).stats().reads.value(), 1u);
    EXPECT_EQ(h.partition.controller(0).stats().reads.value(), 0u);
  }
}

TEST(MemoryPartition, RepliesComeInCompletionOrderAndAFullQueueHoldsPacketsBack) {
  const DramTiming& t = dram_preset("GDDR5");
  ControllerConfig config;
  config.read_queue = 1;
  PartitionHarness h(t, 1, config);
  // A row miss first, then a packet to another bank whose row is found open later: with one
  // queue entry the second waits for the first to issue.
  const MemPacket a = packet(h.address(0, 0, 0, 1, 0), 1);
  const MemPacket b = packet(h.address(0, 1, 0, 2, 0), 1);
  ASSERT_TRUE(h.partition.can_accept(a));
  h.partition.accept(a, 0);
  EXPECT_FALSE(h.partition.can_accept(b));
  EXPECT_THROW(h.partition.accept(b, 0), ModelError);
  h.partition.advance(0);       // ACT of a
  h.partition.advance(t.tRCD);  // RD of a: its entry is free
  ASSERT_TRUE(h.partition.can_accept(b));
  MemPacket b2 = b;
  b2.id = 7;
  h.partition.accept(b2, t.tRCD);
  std::vector<uint64_t> order;
  for (uint64_t e = h.partition.next_event(); e != MemoryPartition::kNever && order.size() < 2;
       e = h.partition.next_event()) {
    h.partition.advance(e);
    for (; h.partition.reply_ready(e); h.partition.pop_reply())
      order.push_back(h.partition.reply().id);
  }
  EXPECT_EQ(order, (std::vector<uint64_t>{0, 7}));
  h.expect_no_violations();
}

TEST(MemoryPartition, PacketOfAnotherPartitionIsAModelError) {
  const auto t = std::make_shared<const DramTiming>(dram_preset("HBM2"));
  const AddressMapping mapping(mapping_from_config(Config{}, *t, 4, 2, 0));
  StatGroup stats;
  MemoryPartition partition(1, mapping, t, ControllerConfig{}, stats);
  const uint64_t elsewhere = mapping.address_of(DramLocation{2, 0, 0, 0, 0, 0});
  EXPECT_THROW((void)partition.can_accept(packet(elsewhere, 1)), ModelError);
  StatGroup other;
  EXPECT_THROW(MemoryPartition(4, mapping, t, ControllerConfig{}, other), ConfigError);
  EXPECT_THROW(MemoryPartition(1, mapping, nullptr, ControllerConfig{}, other), ModelError);
}

TEST(MemoryPartition, ItsControllersShareTheTimingItIsGiven) {
  const auto t = std::make_shared<const DramTiming>(dram_preset("HBM2"));
  const AddressMapping mapping(mapping_from_config(Config{}, *t, 4, 2, 0));
  StatGroup stats;
  const MemoryPartition partition(1, mapping, t, ControllerConfig{}, stats);
  ASSERT_EQ(partition.channels(), 2u);
  EXPECT_EQ(&partition.controller(0).channel().timing(), t.get());
  EXPECT_EQ(&partition.controller(1).channel().timing(), t.get());
}

TEST(ControllerParams, DefaultsAndSettingsReachTheControllerConfig) {
  const ControllerConfig defaults = controller_config_from(Config{});
  const ControllerConfig want;
  EXPECT_EQ(defaults.scheduler.name, want.scheduler.name);
  EXPECT_EQ(defaults.page_policy.name, want.page_policy.name);
  EXPECT_EQ(defaults.write_high, want.write_high);
  Config config;
  config.apply_set("memory.controller.scheduler=fcfs");
  config.apply_set("memory.controller.page_policy=closed");
  config.apply_set("memory.controller.read_queue=48");
  config.apply_set("memory.controller.write_low=4");
  config.apply_set("memory.controller.refresh=per_bank");
  const ControllerConfig c = controller_config_from(config);
  EXPECT_EQ(c.scheduler.name, "fcfs");
  EXPECT_EQ(c.page_policy.name, "closed");
  EXPECT_EQ(c.read_queue, 48u);
  EXPECT_EQ(c.write_low, 4u);
  EXPECT_EQ(c.refresh.name, "per_bank");
  EXPECT_THROW(config.apply_set("memory.controller.scheduler=lifo"), ConfigError);
  config.apply_set("memory.controller.write_low=30");
  try {
    (void)controller_config_from(config);
    FAIL() << "write_low above write_high";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "memory.controller.write_low must be below memory.controller.write_high (24) (it is "
              "30)");
  }
}

}  // namespace
}  // namespace gpusoc::mempart
