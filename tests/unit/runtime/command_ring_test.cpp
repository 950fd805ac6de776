// The ring buffer: packets land at PUT and wrap at the ring's end; PUT and the doorbell are
// written only on publication; a full ring publishes what it holds and waits for the GPU's GET.
#include <cstring>

#include <gtest/gtest.h>

#include "models/pcie/bar0_map.h"
#include "sw/runtime/command_ring.h"
#include "sw/runtime/commands.h"
#include "tests/unit/runtime/fake_host_bus.h"

namespace gpusoc::rt {
namespace {

using testing::FakeHostBus;

class CommandRingTest : public ::testing::Test {
 protected:
  static constexpr uint32_t kChannel = 2;
  static uint32_t reg(uint32_t r) { return bar0::channel_offset(kChannel, r); }

  CommandRingTest()
      : bar0_(bus_, FakeHostBus::kBar0),
        waiter_(bar0_, sc_core::sc_time(1, sc_core::SC_MS), sc_core::sc_time(1, sc_core::SC_US)),
        pinned_(bus_.dram_base(), bus_.dram(), 64 * 1024) {
    pinned_.allocate(64);  // the ring does not start at the region's base
    block_ = pinned_.allocate(256);
    bus_.read_hooks[reg(bar0::CH_GET)] = [this] { return gpu_get_; };
  }

  cmd::Packet packet_at(uint32_t offset) {
    cmd::Packet p;
    std::memcpy(&p, block_.pointer + offset, sizeof p);
    return p;
  }

  FakeHostBus bus_;
  Bar0 bar0_;
  InterruptWaiter waiter_;
  PinnedMemory pinned_;
  PinnedMemory::Block block_;
  uint32_t gpu_get_ = 0;
};

TEST_F(CommandRingTest, ProgramsTheRingRegisters) {
  CommandRing ring(bar0_, waiter_, kChannel, block_, sc_core::SC_ZERO_TIME);
  ring.program();
  EXPECT_EQ(bus_.regs[reg(bar0::CH_RING_BASE_LO)], uint32_t(block_.address));
  EXPECT_EQ(bus_.regs[reg(bar0::CH_RING_BASE_HI)], uint32_t(block_.address >> 32));
  EXPECT_EQ(bus_.regs[reg(bar0::CH_RING_SIZE)], 256u);
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_PUT)), std::vector<uint32_t>{0});
}

TEST_F(CommandRingTest, PacketsWrapAndPublishOnlyOnDoorbell) {
  CommandRing ring(bar0_, waiter_, kChannel, block_, sc_core::sc_time(8, sc_core::SC_NS));
  ring.program();
  ring.push(commands::fence(0x100, 1), "a");
  ring.push(commands::fence(0x100, 2), "b");
  ring.push(commands::fence(0x100, 3), "c");
  EXPECT_EQ(bus_.reads[reg(bar0::CH_GET)], 0);  // three packets fit without asking the GPU
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_DOORBELL)).size(), 0u);
  EXPECT_EQ(bus_.computed, sc_core::sc_time(24, sc_core::SC_NS));  // 8 ns per packet written
  ring.ring_doorbell();
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_PUT)), (std::vector<uint32_t>{0, 192}));
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_DOORBELL)).size(), 1u);
  EXPECT_EQ(packet_at(128).a[1], 3u);

  gpu_get_ = 128;  // the GPU has fetched two packets: two slots free (one always stays empty)
  ring.push(commands::fence(0x100, 4), "d");
  ring.push(commands::fence(0x100, 5), "e");
  EXPECT_EQ(packet_at(192).a[1], 4u);
  EXPECT_EQ(packet_at(0).a[1], 5u);  // wrapped
  EXPECT_EQ(ring.put(), 64u);
  EXPECT_EQ(ring.what_at(0), "e");
  EXPECT_EQ(ring.what_at(192), "d");
  EXPECT_EQ(ring.what_at(100), "");
  ring.ring_doorbell();
  EXPECT_EQ(bus_.writes_to(reg(bar0::CH_PUT)).back(), 64u);
}

TEST_F(CommandRingTest, AFullRingPublishesThenWaitsForGet) {
  CommandRing ring(bar0_, waiter_, kChannel, block_, sc_core::SC_ZERO_TIME);
  ring.program();
  for (uint64_t v = 1; v <= 3; ++v) ring.push(commands::fence(0x100, v), "x");
  int turns = 0;
  bus_.on_wait = [&] {
    // The GPU sees only what was published: PUT must already say three packets.
    EXPECT_EQ(bus_.regs[reg(bar0::CH_PUT)], 192u);
    EXPECT_EQ(bus_.writes_to(reg(bar0::CH_DOORBELL)).size(), 1u);
    if (++turns == 3) gpu_get_ = 64;  // a few polls later one packet has been fetched
    return false;
  };
  ring.push(commands::fence(0x100, 4), "x");
  EXPECT_EQ(turns, 3);
  EXPECT_EQ(packet_at(192).a[1], 4u);
  // Each poll slept one poll interval.
  EXPECT_EQ(bus_.now(), sc_core::sc_time(3, sc_core::SC_US));
}

TEST_F(CommandRingTest, ARingThatStaysFullTimesOut) {
  CommandRing ring(bar0_, waiter_, kChannel, block_, sc_core::SC_ZERO_TIME);
  ring.program();
  for (uint64_t v = 1; v <= 3; ++v) ring.push(commands::fence(0x100, v), "x");
  try {
    ring.push(commands::fence(0x100, 4), "x");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::Timeout);
    EXPECT_EQ(e.message(), "channel 2: the ring stayed full for 1 ms (GET 0x0, PUT 0xc0)");
  }
  EXPECT_EQ(bus_.now(), sc_core::sc_time(1, sc_core::SC_MS));
}

TEST_F(CommandRingTest, RejectsRingsTheChannelCannotUse) {
  PinnedMemory::Block odd = block_;
  odd.bytes = 192;
  EXPECT_THROW(CommandRing(bar0_, waiter_, kChannel, odd, sc_core::SC_ZERO_TIME), Error);
  PinnedMemory::Block misaligned = block_;
  misaligned.address += 8;
  EXPECT_THROW(CommandRing(bar0_, waiter_, kChannel, misaligned, sc_core::SC_ZERO_TIME), Error);
}

}  // namespace
}  // namespace gpusoc::rt
