// The command processor against test doubles: ring protocol, ordering within a channel,
// concurrency across channels, semaphores, fences and interrupts, copy routing, statistics.
#include <gtest/gtest.h>

#include "models/gigathread/packet_executor.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/gigathread/testbench.h"
#include "tests/unit/gigathread/tiny_module.h"

namespace gpusoc::gigathread::testing {
namespace {

using cmd::Opcode;
using sc_core::sc_time_stamp;

uint64_t ps(const sc_time& t) {
  return uint64_t(t / sc_time(1, sc_core::SC_PS));
}

std::vector<uint8_t> add_one_params(uint64_t pointer, uint32_t increment) {
  std::vector<uint8_t> p(12);
  std::memcpy(p.data(), &pointer, 8);
  std::memcpy(p.data() + 8, &increment, 4);
  return p;
}

TEST(CommandProcessor, RingWrapsAroundAndSplitsTheFetchAtTheEnd) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const sc_time L = tb.options.host_latency, P = tb.options.config.packet_time;
  std::vector<uint64_t> records;
  sc_time second_doorbell;
  tb.run([&] {
    tb.enable(0, 256);  // four packets
    for (int i = 0; i < 6; ++i) records.push_back(tb.alloc(sizeof(cmd::SemaphoreRecord)));
    for (int i = 0; i < 3; ++i) tb.push(0, sem_release(records[i], i + 1));
    tb.submit(0);
    tb.wait_value(records[2], 3);
    EXPECT_EQ(tb.reg(0, bar0::CH_GET), 192u);
    for (int i = 3; i < 6; ++i) tb.push(0, sem_release(records[i], i + 1));  // slots 3, 0, 1
    second_doorbell = sc_time_stamp();
    tb.submit(0);
    tb.wait_value(records[5], 6);
    EXPECT_EQ(tb.reg(0, bar0::CH_GET), 128u);
    EXPECT_EQ(tb.reg(0, bar0::CH_PUT), 128u);
    EXPECT_EQ(tb.reg(0, bar0::CH_STATUS), bar0::kChannelEnabled);
  });
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(tb.peek<cmd::SemaphoreRecord>(records[i]).value, uint64_t(i + 1)) << i;
  }
  // Slot 3 is fetched alone (the ring ends there), slots 0 and 1 by a second read.
  const sc_time T = second_doorbell;
  EXPECT_EQ(tb.peek<cmd::SemaphoreRecord>(records[3]).timestamp_ps, ps(T + L + P));
  EXPECT_EQ(tb.peek<cmd::SemaphoreRecord>(records[4]).timestamp_ps, ps(T + 3 * L + 2 * P));
  EXPECT_EQ(tb.peek<cmd::SemaphoreRecord>(records[5]).timestamp_ps, ps(T + 4 * L + 3 * P));
  EXPECT_EQ(tb.cp.stats().sem_release_packets.value(), 6u);
  EXPECT_EQ(tb.cp.stats().errors.value(), 0u);
}

TEST(CommandProcessor, LaunchesRunInOrderWithinAChannelAndConcurrentlyAcrossChannels) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const sc_time L = tb.options.host_latency, P = tb.options.config.packet_time;
  const sc_time setup = tb.options.config.launch_time, D = tb.grid.duration;
  sc_time T;
  tb.run([&] {
    tb.enable(0);
    tb.enable(1);
    const Testbench::LoadResult m = tb.load_module(0, kTinyModule);
    ASSERT_EQ(m.header.status, 0u) << m.diagnostics;
    const uint64_t k = m.kernels.at(0).handle;
    tb.push(0, launch(tb.descriptor(k, {4, 2}, {64}, add_one_params(0x2'0000'1000, 1))));
    tb.push(0, launch(tb.descriptor(k, {8}, {32}, add_one_params(0x2'0000'1000, 2))));
    tb.push(1, launch(tb.descriptor(k, {16}, {128}, add_one_params(0x2'0000'2000, 3))));
    T = sc_time_stamp();
    tb.submit(0);  // register writes take no simulated time in this testbench
    tb.submit(1);
  });
  ASSERT_EQ(tb.grid.calls.size(), 3u);
  std::vector<GridCall> ch0, ch1;
  for (const GridCall& call : tb.grid.calls) (call.channel == 0 ? ch0 : ch1).push_back(call);
  ASSERT_EQ(ch0.size(), 2u);
  ASSERT_EQ(ch1.size(), 1u);
  const GridCall& a = ch0[0];
  const GridCall& b = ch0[1];
  const GridCall& c = ch1[0];
  // fetch, decode, descriptor, launch setup, parameters
  EXPECT_EQ(a.start, T + L + P + L + setup + L);
  EXPECT_EQ(c.start, a.start);  // the other channel does not wait
  EXPECT_EQ(a.end, a.start + D);
  EXPECT_EQ(b.start, a.end + P + L + setup + L);  // fetched with a: no second ring read
  EXPECT_LT(c.start, a.end);
  EXPECT_GE(b.start, a.end);
  EXPECT_EQ(a.kernel, "add_one");
  EXPECT_EQ(a.grid.x, 4u);
  EXPECT_EQ(a.grid.y, 2u);
  EXPECT_EQ(a.block.x, 64u);
  EXPECT_EQ(a.params, add_one_params(0x2'0000'1000, 1));
  EXPECT_EQ(b.params, add_one_params(0x2'0000'1000, 2));
  EXPECT_EQ(c.params, add_one_params(0x2'0000'2000, 3));
  EXPECT_GT(a.registers_per_thread, 0u);
  EXPECT_EQ(tb.cp.stats().launches.value(), 3u);
  EXPECT_EQ(tb.cp.channel(0).stats().launches.value(), 2u);
  EXPECT_EQ(tb.cp.channel(1).stats().launches.value(), 1u);
}

TEST(CommandProcessor, LaunchWritesItsStatsRecord) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  uint64_t stats = 0;
  tb.run([&] {
    tb.enable(0);
    const Testbench::LoadResult m = tb.load_module(0, kTinyModule);
    stats = tb.alloc(sizeof(cmd::LaunchStatsRecord));
    tb.push(0, launch(tb.descriptor(m.kernels.at(1).handle, {5, 3}, {32}, {}, ~0u, stats)));
    tb.submit(0);
  });
  ASSERT_EQ(tb.grid.calls.size(), 1u);
  const cmd::LaunchStatsRecord r = tb.peek<cmd::LaunchStatsRecord>(stats);
  EXPECT_EQ(r.start_ps, ps(tb.grid.calls[0].start));
  EXPECT_EQ(r.end_ps, ps(tb.grid.calls[0].end));
  EXPECT_EQ(r.ctas, 15u);
}

TEST(CommandProcessor, SemAcquireWaitsForAnotherChannelsRelease) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const sc_time L = tb.options.host_latency, P = tb.options.config.packet_time;
  const uint64_t poll_ns = 500;
  const sc_time poll(double(poll_ns), SC_NS);
  uint64_t sem = 0, after = 0;
  sc_time T;
  tb.run([&] {
    tb.enable(0);
    tb.enable(1);
    const Testbench::LoadResult m = tb.load_module(0, kTinyModule);
    sem = tb.alloc(sizeof(cmd::SemaphoreRecord));
    after = tb.alloc(sizeof(cmd::SemaphoreRecord));
    tb.push(1, sem_acquire(sem, 1, poll_ns));
    tb.push(1, sem_release(after, 7));
    tb.push(0, launch(tb.descriptor(m.kernels.at(1).handle, {1}, {32}, {})));
    tb.push(0, sem_release(sem, 1));
    T = sc_time_stamp();
    tb.submit(1);
    tb.submit(0);
  });
  const cmd::SemaphoreRecord released = tb.peek<cmd::SemaphoreRecord>(sem);
  ASSERT_EQ(released.value, 1u);
  ASSERT_EQ(tb.grid.calls.size(), 1u);
  EXPECT_EQ(released.timestamp_ps, ps(tb.grid.calls[0].end + P));
  // The acquire reads the semaphore at T + L + P, then every L + poll; it completes with the
  // first read issued at or after the release's write (a read takes L).
  const sc_time release(double(released.timestamp_ps), sc_core::SC_PS);
  sc_time read = T + L + P;
  while (read < release) read += L + poll;
  const sc_time acquired = read + L;
  const cmd::SemaphoreRecord next = tb.peek<cmd::SemaphoreRecord>(after);
  EXPECT_EQ(next.value, 7u);
  EXPECT_EQ(next.timestamp_ps, ps(acquired + P));
  EXPECT_GE(acquired, release + L);
  EXPECT_LE(acquired, release + L + poll + L);
  EXPECT_EQ(tb.cp.channel(1).stats().semaphore_wait_ps.value(), ps(acquired - (T + L + P)));
}

TEST(CommandProcessor, SemAcquireComparesUnsigned64BitValues) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  uint64_t sem = 0, done = 0;
  tb.run([&] {
    tb.enable(0);
    sem = tb.alloc(8);
    done = tb.alloc(8);
    tb.poke<uint64_t>(sem, 0x8000'0000'0000'0000ull);  // negative if read as signed
    tb.push(0, sem_acquire(sem, 0x7fff'ffff'ffff'ffffull, 100));
    tb.push(0, fence(done, 1));
    tb.submit(0);
  });
  EXPECT_EQ(tb.peek<uint64_t>(done), 1u);
  EXPECT_EQ(tb.cp.stats().semaphore_wait_ps.value(), ps(tb.options.host_latency));  // one read
}

TEST(CommandProcessor, DisablingStopsAWaitingSemAcquireAndDropsTheRest) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  uint64_t sem = 0, after = 0;
  uint32_t busy_while_waiting = 0, status_after = 0;
  tb.run([&] {
    tb.enable(0);
    sem = tb.alloc(8);
    after = tb.alloc(8);
    tb.push(0, sem_acquire(sem, 1, 1000));
    tb.push(0, fence(after, 1));
    tb.submit(0);
    sc_core::wait(sc_time(20, SC_US));
    busy_while_waiting = tb.reg(0, bar0::CH_STATUS);
    tb.driver.write_reg(0, bar0::CH_CONTROL, 0);
    sc_core::wait(sc_time(5, SC_US));
    status_after = tb.reg(0, bar0::CH_STATUS);
  });
  EXPECT_EQ(busy_while_waiting, bar0::kChannelEnabled | bar0::kChannelBusy);
  EXPECT_EQ(status_after, 0u);
  EXPECT_EQ(tb.peek<uint64_t>(after), 0u);  // fetched with the acquire, dropped on disable
  EXPECT_EQ(tb.cp.stats().fence_packets.value(), 0u);
}

TEST(CommandProcessor, FenceWritesItsValueAndRaisesTheInterruptWhenAsked) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const sc_time L = tb.options.host_latency, P = tb.options.config.packet_time;
  uint64_t f = 0, g = 0;
  sc_time T;
  tb.run([&] {
    tb.enable(2);
    f = tb.alloc(8);
    g = tb.alloc(8);
    tb.push(2, fence(f, 42, cmd::kFlagInterrupt));
    tb.push(2, fence(g, 43));
    T = sc_time_stamp();
    tb.submit(2);
  });
  EXPECT_EQ(tb.peek<uint64_t>(f), 42u);
  EXPECT_EQ(tb.peek<uint64_t>(g), 43u);
  ASSERT_EQ(tb.irq.raised.size(), 1u);
  EXPECT_EQ(tb.irq.raised[0].bits, bar0::kIntrFence);
  EXPECT_EQ(tb.irq.raised[0].time, T + L + P + L);  // after the write completed
  EXPECT_TRUE(tb.irq.errors.empty());
  EXPECT_EQ(tb.cp.channel(2).stats().fence_packets.value(), 2u);
}

TEST(CommandProcessor, CopiesGoToTheEngineOfTheirDirection) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const uint64_t v = Testbench::kVramBase + 0x100000;
  uint64_t src = 0, dst = 0;
  tb.run([&] {
    tb.enable(0);
    src = tb.alloc(256);
    dst = tb.alloc(256);
    for (int i = 0; i < 256; ++i) tb.poke<uint8_t>(src + i, uint8_t(i));
    tb.push(0, packet(Opcode::Copy, {src, v, 256, 0}));
    tb.push(0, packet(Opcode::Copy, {v, v + 0x1000, 256, 2}));
    tb.push(0, packet(Opcode::Memset, {v + 0x1000, 8, 0xabcd, 2}));
    tb.push(0, packet(Opcode::Copy, {v + 0x1000, dst, 256, 1}, cmd::kFlagInterrupt));
    tb.submit(0);
  });
  ASSERT_EQ(tb.copy_log.size(), 4u);
  EXPECT_EQ(tb.copy_log[0].engine, 0u);
  EXPECT_EQ(tb.copy_log[1].engine, 2u);
  EXPECT_TRUE(tb.copy_log[2].fill);
  EXPECT_EQ(tb.copy_log[2].engine, 2u);
  EXPECT_EQ(tb.copy_log[3].engine, 1u);
  EXPECT_FALSE(tb.copy_log[0].copy.raise_interrupt);
  EXPECT_TRUE(tb.copy_log[3].copy.raise_interrupt);  // the engine raises COPY
  ASSERT_EQ(tb.irq.raised.size(), 1u);               // and the channel FENCE, after it
  EXPECT_EQ(tb.irq.raised[0].bits, bar0::kIntrFence);
  EXPECT_EQ(tb.irq.raised[0].time, tb.copy_log[3].end);
  for (int i = 0; i < 256; ++i) {
    const uint8_t expected = i < 8 ? uint8_t(i % 2 == 0 ? 0xcd : 0xab) : uint8_t(i);
    ASSERT_EQ(tb.peek<uint8_t>(dst + i), expected) << i;
  }
  EXPECT_EQ(tb.cp.stats().copies.value(), 4u);
  EXPECT_EQ(tb.cp.stats().bytes.value(), 3 * 256u + 8u);
}

TEST(CommandProcessor, EngineChoiceForOneTwoAndThreeEngines) {
  using D = cmd::CopyDirection;
  EXPECT_EQ(PacketExecutor::engine_for(D::HostToDevice, 1), 0u);
  EXPECT_EQ(PacketExecutor::engine_for(D::DeviceToHost, 1), 0u);
  EXPECT_EQ(PacketExecutor::engine_for(D::DeviceToDevice, 1), 0u);
  EXPECT_EQ(PacketExecutor::engine_for(D::HostToDevice, 2), 0u);
  EXPECT_EQ(PacketExecutor::engine_for(D::DeviceToHost, 2), 1u);
  EXPECT_EQ(PacketExecutor::engine_for(D::DeviceToDevice, 2), 1u);
  EXPECT_EQ(PacketExecutor::engine_for(D::DeviceToHost, 3), 1u);
  EXPECT_EQ(PacketExecutor::engine_for(D::DeviceToDevice, 3), 2u);
}

TEST(CommandProcessor, CountsPacketsPerChannelAndInTotal) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  tb.run([&] {
    tb.enable(0);
    tb.enable(3);
    const uint64_t word = tb.alloc(16);
    tb.push(0, packet(Opcode::Nop, {}));
    tb.push(0, fence(word, 1));
    tb.push(3, fence(word + 8, 1));
    tb.push(3, sem_acquire(word, 1, 100));
    tb.push(3, packet(Opcode::Nop, {}));
    tb.submit(0);
    tb.submit(3);
  });
  EXPECT_EQ(tb.cp.channel(0).stats().packets.value(), 2u);
  EXPECT_EQ(tb.cp.channel(3).stats().packets.value(), 3u);
  EXPECT_EQ(tb.cp.stats().packets.value(), 5u);
  EXPECT_EQ(tb.cp.stats().nop_packets.value(), 2u);
  EXPECT_EQ(tb.cp.stats().fence_packets.value(), 2u);
  EXPECT_EQ(tb.cp.stats().sem_acquire_packets.value(), 1u);
  EXPECT_EQ(tb.cp.channel(3).stats().sem_acquire_packets.value(), 1u);
  EXPECT_EQ(tb.cp.channel(1).stats().packets.value(), 0u);
}

}  // namespace
}  // namespace gpusoc::gigathread::testing
