// The host's PCIe side: ECAM and MMIO accesses reach a fake endpoint translated as the root port
// promises, absent functions read as all ones, DMA lands in host memory, and MSIs wake the CPU
// at the right time without getting lost.
#include "models/host/root_port.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/systemc_test.h"
#include "tests/unit/host/host_test_bench.h"

namespace gpusoc::host {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using testing::FakeEndpoint;
using testing::HostBench;
using testing::kGiB;

TEST(RootPortTest, EcamReachesFunctionZeroAndAbsentFunctionsReadAllOnes) {
  gpusoc::testing::fresh_systemc();
  std::vector<uint32_t> values;
  HostBench bench([&](HostBus& bus) {
    const uint64_t ecam = bus.address_map().ecam_base;
    values.push_back(bus.read32(ecam));    // 00:00.0 vendor/device ID
    bus.write32(ecam + 0x10, 0xFFFFFFFF);  // BAR0 sizing write
    values.push_back(bus.read32(ecam + 0x10));
    values.push_back(bus.read32(ecam + (1u << 12)));                      // 00:00.1
    values.push_back(bus.read32(ecam + (1u << 15)));                      // 00:01.0
    values.push_back(bus.read32(ecam + (31u << 15) + (7u << 12) + 0x8));  // 00:1f.7
    bus.write32(ecam + (1u << 15) + 0x10, 0x1234);                        // ignored
  });
  bench.run();
  const std::vector<uint32_t> expected{0x0191'10DE, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF};
  EXPECT_EQ(values, expected);
  const std::vector<uint64_t> offsets{0x0, 0x10, 0x10};  // only 00:00.0's accesses, as offsets
  EXPECT_EQ(bench.gpu.config_addresses, offsets);
}

TEST(RootPortTest, EcamAccessSpanningTwoFunctionsIsAnError) {
  gpusoc::testing::fresh_systemc();
  bool refused = false;
  HostBench bench([&](HostBus& bus) {
    uint64_t value = 0;
    try {
      bus.read(bus.address_map().ecam_base + 0xFFC, &value, 8);
    } catch (const HostBusError&) {
      refused = true;
    }
  });
  bench.run();
  EXPECT_TRUE(refused);
  EXPECT_TRUE(bench.gpu.config_addresses.empty());
}

TEST(RootPortTest, MmioAccessesKeepTheirHostAddresses) {
  gpusoc::testing::fresh_systemc();
  uint32_t read_back = 0;
  sc_time elapsed;
  HostBench bench([&](HostBus& bus) {
    const uint64_t bar = bus.address_map().mmio_base + 0x100'0000;
    bus.write32(bar + 0x40, 0xD00DFEED);
    read_back = bus.read32(bar + 0x80);
    elapsed = bus.now();
  });
  bench.run();
  const uint64_t bar = HostAddressMap{}.mmio_base + 0x100'0000;
  const std::vector<uint64_t> addresses{bar + 0x40, bar + 0x80};
  EXPECT_EQ(bench.gpu.mem_addresses, addresses);
  EXPECT_EQ(bench.gpu.mem_data, 0xD00DFEEDu);
  EXPECT_EQ(read_back, 0x5A5A5A5Au);
  EXPECT_EQ(elapsed, sc_time(2 * 50, SC_NS)) << "the endpoint's delay, nothing added";
}

TEST(RootPortTest, DmaFromTheDeviceReachesHostMemory) {
  gpusoc::testing::fresh_systemc();
  sc_time write_delay, read_delay;
  uint64_t read_back = 0;
  HostBench bench([](HostBus&) {});
  bench.gpu.behaviour = [&](FakeEndpoint& gpu) {
    uint64_t value = 0x0123'4567'89AB'CDEF;
    EXPECT_EQ(gpu.dma(tlm::TLM_WRITE_COMMAND, 4 * kGiB + 0x8000, &value, 8, write_delay),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(gpu.dma(tlm::TLM_READ_COMMAND, 4 * kGiB + 0x8000, &read_back, 8, read_delay),
              tlm::TLM_OK_RESPONSE);
  };
  bench.host.cpu.set_pause_on_exit(false);
  bench.run();
  uint64_t in_memory = 0;
  std::memcpy(&in_memory, bench.host.dram.backdoor(4 * kGiB + 0x8000, 8), 8);
  EXPECT_EQ(in_memory, 0x0123'4567'89ABCDEFu);
  EXPECT_EQ(read_back, in_memory);
  // Host DRAM timing: 8 bytes hold the port 2 ns, plus 100 ns latency. Both requests are
  // issued at local time 0, so the read waits 2 ns for the write's data to leave the port.
  EXPECT_EQ(write_delay, sc_time(2 + 100, SC_NS));
  EXPECT_EQ(read_delay, sc_time(2 + 2 + 100, SC_NS));
}

/// An endpoint that sends one MSI at `at` (SystemC time) with `delay` annotated.
void send_msi(FakeEndpoint& gpu, sc_time at, sc_time delay) {
  sc_core::wait(at);
  uint32_t vector = HostAddressMap{}.msi_data;
  EXPECT_EQ(gpu.dma(tlm::TLM_WRITE_COMMAND, HostAddressMap{}.msi_address, &vector, 4, delay),
            tlm::TLM_OK_RESPONSE);
}

TEST(RootPortTest, MsiWakesTheCpuAtTheWritersLocalTime) {
  gpusoc::testing::fresh_systemc();
  bool woke = false;
  sc_time when;
  HostBench bench([&](HostBus& bus) {
    woke = bus.wait_for_interrupt(sc_time(10, sc_core::SC_US));
    when = bus.now();
  });
  bench.gpu.behaviour = [](FakeEndpoint& gpu) {
    send_msi(gpu, sc_time(500, SC_NS), sc_time(200, SC_NS));  // issued at 500 ns, 200 ns ahead
  };
  bench.run();
  EXPECT_TRUE(woke);
  EXPECT_EQ(when, sc_time(700, SC_NS));
  EXPECT_EQ(bench.host.msi.last_vector(), HostAddressMap{}.msi_data);
}

TEST(RootPortTest, MsiBeforeTheWaitIsNotLost) {
  gpusoc::testing::fresh_systemc();
  bool woke = false;
  bool second = true;
  sc_time when;
  HostBench bench([&](HostBus& bus) {
    bus.compute(sc_time(2000, SC_NS));  // busy while the MSI arrives at 100 ns
    woke = bus.wait_for_interrupt(sc_time(1, sc_core::SC_US));
    when = bus.now();
    second = bus.wait_for_interrupt(sc_time(1, sc_core::SC_US));  // it counts only once
  });
  bench.gpu.behaviour = [](FakeEndpoint& gpu) {
    send_msi(gpu, sc_time(100, SC_NS), sc_core::SC_ZERO_TIME);
  };
  bench.run();
  EXPECT_TRUE(woke);
  EXPECT_EQ(when, sc_time(2000, SC_NS)) << "no waiting for an interrupt already latched";
  EXPECT_FALSE(second);
}

TEST(RootPortTest, WaitForInterruptTimesOutExactly) {
  gpusoc::testing::fresh_systemc();
  bool woke = true;
  sc_time when;
  HostBench bench([&](HostBus& bus) {
    bus.compute(sc_time(250, SC_NS));
    woke = bus.wait_for_interrupt(sc_time(3, sc_core::SC_US));
    when = bus.now();
  });
  bench.run();
  EXPECT_FALSE(woke);
  EXPECT_EQ(when, sc_time(3250, SC_NS));
}

}  // namespace
}  // namespace gpusoc::host
