// The host CPU inside a HostSystem: timed host-memory accesses against hand-computed DRAM
// timing, the quantum keeper's run-ahead bound, DMI host memory, errors, and HostConfig.
#include "models/host/host_cpu.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/error.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/host/host_test_bench.h"

namespace gpusoc::host {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using testing::HostBench;
using testing::kGiB;
using testing::test_config;

TEST(HostCpuTest, ProgramReadsAndWritesHostMemoryWithExactTiming) {
  gpusoc::testing::fresh_systemc();
  std::vector<uint8_t> out(64), in(64);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(i * 7);
  sc_time after_write, after_read, systemc_time, after_sync;
  HostBench bench([&](HostBus& bus) {
    const uint64_t base = bus.address_map().memory_base;
    bus.write(base + 0x100, out.data(), 64);
    after_write = bus.now();
    bus.read(base + 0x100, in.data(), 64);
    after_read = bus.now();
    systemc_time = sc_core::sc_time_stamp();
    bus.sync();
    after_sync = sc_core::sc_time_stamp();
  });
  bench.run();
  // 64 bytes at 4 bytes/ns hold the DRAM port 16 ns; every access adds 100 ns latency. The read
  // is issued at the CPU's local time 116 ns, when the port is long free.
  const sc_time occupancy(64 / 4.0, SC_NS), latency(100, SC_NS);
  EXPECT_EQ(after_write, occupancy + latency);
  EXPECT_EQ(after_read, 2 * (occupancy + latency));
  EXPECT_EQ(systemc_time, sc_core::SC_ZERO_TIME) << "232 ns is within the first quantum";
  EXPECT_EQ(after_sync, after_read);
  EXPECT_EQ(in, out);
  EXPECT_EQ(std::memcmp(bench.host.dram.backdoor(4 * kGiB + 0x100, 64), out.data(), 64), 0);
  EXPECT_EQ(bench.host.dram.stats().bytes_written.value(), 64u);
}

TEST(HostCpuTest, LocalTimeRunsAheadAtMostOneQuantumAndSyncsAtItsBoundaries) {
  gpusoc::testing::fresh_systemc();
  std::vector<std::pair<sc_time, sc_time>> seen;  // (SystemC time, CPU time) after each step
  HostBench bench([&](HostBus& bus) {
    for (int i = 0; i < 7; ++i) {
      bus.compute(sc_time(300, SC_NS));
      seen.emplace_back(sc_core::sc_time_stamp(), bus.now());
    }
    bus.compute(sc_time(50, SC_NS));
    bus.sync();
    seen.emplace_back(sc_core::sc_time_stamp(), bus.now());
  });
  bench.run();
  // Quantum 1000 ns: the CPU synchronizes once its local time reaches the next multiple of it.
  const auto ns = [](double v) { return sc_time(v, SC_NS); };
  const std::vector<std::pair<sc_time, sc_time>> expected{
      {ns(0), ns(300)},     {ns(0), ns(600)},     {ns(0), ns(900)},     {ns(1200), ns(1200)},
      {ns(1200), ns(1500)}, {ns(1200), ns(1800)}, {ns(2100), ns(2100)}, {ns(2150), ns(2150)}};
  EXPECT_EQ(seen, expected);
  for (const auto& [systemc, cpu] : seen) EXPECT_LT(cpu - systemc, test_config().quantum);
}

TEST(HostCpuTest, MemoryComesAsDmiIntoHostDram) {
  gpusoc::testing::fresh_systemc();
  uint8_t* low = nullptr;
  uint8_t* high = nullptr;
  sc_time time_used;
  HostBench bench([&](HostBus& bus) {
    const uint64_t base = bus.address_map().memory_base;
    low = bus.memory(base + 0x2000, 4096);
    high = bus.memory(base + (64u << 20) - 16, 16);  // the last 16 bytes
    std::memcpy(low, "host data", 10);
    uint32_t back = 0;
    bus.write32(base + 0x3000, 0xCAFE);
    std::memcpy(&back, bus.memory(base + 0x3000, 4), 4);
    EXPECT_EQ(back, 0xCAFEu);
    time_used = bus.now();
  });
  bench.run();
  EXPECT_EQ(low, bench.host.dram.backdoor(4 * kGiB + 0x2000, 4096));
  EXPECT_EQ(high, bench.host.dram.backdoor(4 * kGiB + (64u << 20) - 16, 16));
  EXPECT_STREQ(reinterpret_cast<const char*>(bench.host.dram.backdoor(4 * kGiB + 0x2000, 10)),
               "host data");
  EXPECT_EQ(time_used, sc_time(4 / 4.0 + 100, SC_NS)) << "only the timed write costs time";
}

TEST(HostCpuTest, MemoryOutsideHostDramIsRefused) {
  gpusoc::testing::fresh_systemc();
  std::string error;
  HostBench bench([&](HostBus& bus) {
    const HostAddressMap& map = bus.address_map();
    try {
      bus.memory(map.memory_base + map.memory_bytes - 8, 16);
    } catch (const HostBusError& e) {
      error = e.what();
    }
  });
  bench.run();
  EXPECT_NE(error.find("0x103fffff8"), std::string::npos) << error;
  EXPECT_NE(error.find("outside host DRAM"), std::string::npos) << error;
}

TEST(HostCpuTest, ErrorResponsesThrowHostBusErrorNamingAddressAndResponse) {
  gpusoc::testing::fresh_systemc();
  HostBench bench([](HostBus& bus) { bus.read32(0x1000); });  // nothing is mapped there
  try {
    bench.run();
    FAIL() << "no error";
  } catch (const HostBusError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("read of 4 bytes at 0x1000"), std::string::npos) << what;
    EXPECT_NE(what.find("TLM_ADDRESS_ERROR_RESPONSE"), std::string::npos) << what;
  }
  EXPECT_TRUE(bench.host.cpu.finished());
}

TEST(HostConfigTest, DefaultsGiveADisjointAddressMap) {
  const Config config;
  const HostConfig c = HostConfig::from_config(config);
  EXPECT_EQ(c.map.memory_base, 4 * kGiB);
  EXPECT_EQ(c.map.memory_bytes, 4 * kGiB);
  const HostAddressMap defaults;  // host_bus.h's values for the PCIe windows
  EXPECT_EQ(c.map.ecam_base, defaults.ecam_base);
  EXPECT_EQ(c.map.ecam_bytes, defaults.ecam_bytes);
  EXPECT_EQ(c.map.mmio_base, defaults.mmio_base);
  EXPECT_EQ(c.map.mmio_bytes, defaults.mmio_bytes);
  EXPECT_EQ(c.map.msi_address, defaults.msi_address);
  EXPECT_EQ(c.map.msi_data, defaults.msi_data);
  EXPECT_EQ(c.quantum, sc_time(1000, SC_NS));
  EXPECT_EQ(c.memory_latency, sc_time(80, SC_NS));
  EXPECT_DOUBLE_EQ(c.memory_bytes_per_ns, 25.6);
}

TEST(HostConfigTest, OverlappingWindowsAreConfigErrorsNamingBothKeys) {
  Config config;
  config.set("host.memory_base", 0xC000'0000, "test.json");  // 4 GiB from 3 GiB covers ECAM
  try {
    HostConfig::from_config(config);
    FAIL() << "overlap accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("host.memory_base"), std::string::npos) << what;
    EXPECT_NE(what.find("host.ecam_base"), std::string::npos) << what;
    EXPECT_NE(what.find("test.json"), std::string::npos) << what;
  }
  Config misaligned;
  misaligned.set("host.ecam_base", 0xE008'0000, "--set");
  EXPECT_THROW(HostConfig::from_config(misaligned), ConfigError);
}

}  // namespace
}  // namespace gpusoc::host
