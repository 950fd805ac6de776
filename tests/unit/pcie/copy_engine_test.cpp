// CopyEngine: data moved correctly in every direction, time following the link (bandwidth from
// first principles for two generations, full duplex, sharing one direction, pipelined reads),
// errors, one request at a time, registers and the completion interrupt.
#include <cstring>
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "models/pcie/bar0_map.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/pcie/pcie_bench.h"

namespace gpusoc::pcie::testing {
namespace {

using cmd::CopyDirection;
using cmd::ErrorCode;
using sc_core::sc_time;

constexpr uint64_t kHostBuffer = 0x100'0000;  // 16 MiB into host memory (3 DW headers)
constexpr uint64_t kHostBuffer2 = 0x300'0000;

// Payload bandwidth of one direction in bytes/ns: transfers/s per lane x lanes x line-code
// efficiency / 8 bits, less the 2% of symbol time DLLPs take, shared by each TLP's payload and
// its 12-byte header, 2-byte sequence number, 4-byte LCRC and 2 bytes of framing.
double payload_bandwidth(double gigatransfers, double efficiency, unsigned lanes,
                         unsigned payload) {
  return gigatransfers * efficiency * lanes / 8 * 0.98 * payload / (payload + 12 + 2 + 4 + 2);
}
const double kGen1x16 = payload_bandwidth(2.5, 8.0 / 10.0, 16, 128);     // 3.390 GB/s
const double kGen3x16 = payload_bandwidth(8.0, 128.0 / 130.0, 16, 256);  // 14.320 GB/s

BenchOptions gen3_x16() {
  BenchOptions options;
  options.config.link = LinkParams{3, 16, 256, 512, 250};
  return options;
}

void fill_pattern(uint8_t* data, uint64_t bytes, uint32_t seed) {
  for (uint64_t i = 0; i < bytes; ++i) data[i] = static_cast<uint8_t>((i * 131 + seed) >> 3);
}

CopyRequest request(uint64_t source, uint64_t destination, uint64_t bytes,
                    CopyDirection direction) {
  CopyRequest r;
  r.source = source;
  r.destination = destination;
  r.bytes = bytes;
  r.direction = direction;
  return r;
}

struct Timed {
  ErrorCode result = ErrorCode::InvalidModule;
  sc_time start, end;
  double bytes_per_ns(uint64_t bytes) const { return bytes / ns(end - start); }
};

Timed timed_copy(CopyEngine& engine, const CopyRequest& r) {
  Timed t;
  t.start = sc_core::sc_time_stamp();
  t.result = engine.copy(r);
  t.end = sc_core::sc_time_stamp();
  return t;
}

void expect_host_to_device_bandwidth(const BenchOptions& options, double expected) {
  constexpr uint64_t kBytes = 16 * kMiB;
  PcieBench bench(options);
  fill_pattern(bench.host(kHostBuffer, kBytes), kBytes, 1);
  Timed t;
  bench.spawn([&] {
    bench.enumerate();
    t = timed_copy(*bench.engines[0],
                   request(kHostBuffer, kVramBase, kBytes, CopyDirection::HostToDevice));
  });
  sc_core::sc_start();
  ASSERT_EQ(t.result, ErrorCode::None);
  EXPECT_EQ(std::memcmp(bench.vram_at(0, kBytes), bench.host(kHostBuffer, kBytes), kBytes), 0);
  const double achieved = t.bytes_per_ns(kBytes);
  EXPECT_GE(achieved, 0.90 * expected) << achieved << " GB/s of " << expected;
  EXPECT_LE(achieved, 1.00 * expected) << achieved << " GB/s of " << expected;
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(CopyEngineTest, HostToDeviceReachesTheLinkBandwidthOnPcie1x16) {
  gpusoc::testing::fresh_systemc();
  expect_host_to_device_bandwidth(BenchOptions{}, kGen1x16);
}

TEST(CopyEngineTest, HostToDeviceReachesTheLinkBandwidthOnPcie3x16) {
  gpusoc::testing::fresh_systemc();
  expect_host_to_device_bandwidth(gen3_x16(), kGen3x16);
}

TEST(CopyEngineTest, DeviceToHostReachesTheLinkBandwidth) {
  gpusoc::testing::fresh_systemc();
  constexpr uint64_t kBytes = 8 * kMiB;
  PcieBench bench(gen3_x16());
  fill_pattern(bench.vram_at(kMiB, kBytes), kBytes, 2);
  Timed t;
  bench.spawn([&] {
    bench.enumerate();
    t = timed_copy(*bench.engines[1],
                   request(kVramBase + kMiB, kHostBuffer + 3, kBytes, CopyDirection::DeviceToHost));
  });
  sc_core::sc_start();
  ASSERT_EQ(t.result, ErrorCode::None);
  EXPECT_EQ(std::memcmp(bench.host(kHostBuffer + 3, kBytes), bench.vram_at(kMiB, kBytes), kBytes),
            0);
  // Posted writes with 3 DW headers carry data like completions do.
  EXPECT_GE(t.bytes_per_ns(kBytes), 0.90 * kGen3x16);
  EXPECT_LE(t.bytes_per_ns(kBytes), 1.00 * kGen3x16);
}

TEST(CopyEngineTest, ReadsArePipelined) {
  gpusoc::testing::fresh_systemc();
  // One read in flight: every 512-byte chunk waits a full round trip. MRd (12 + 8 bytes) up,
  // 250 ns, 60 ns of host memory, four CplD of 128 + 20 bytes down, 250 ns; the last chunk
  // then takes 100 ns + 512 bytes at 86.4 bytes/ns to write into VRAM.
  constexpr uint64_t kChunks = 64;
  BenchOptions options;
  options.config.max_outstanding_reads = 1;
  PcieBench bench(options);
  Timed t;
  bench.spawn([&] {
    bench.enumerate();
    t = timed_copy(*bench.engines[0],
                   request(kHostBuffer, kVramBase, kChunks * 512, CopyDirection::HostToDevice));
  });
  sc_core::sc_start();
  ASSERT_EQ(t.result, ErrorCode::None);
  const double round_trip = wire(20) + kLatencyNs + 60 + wire(4 * 148) + kLatencyNs;
  EXPECT_NEAR(ns(t.end - t.start), kChunks * round_trip + 100 + 512 / 86.4, 0.1);
  // Latency-bound: far below the link's bandwidth, which the default 32 reads in flight reach
  // (HostToDeviceReachesTheLinkBandwidth*).
  EXPECT_LT(kChunks * 512 / ns(t.end - t.start), 0.25 * kGen1x16);
}

TEST(CopyEngineTest, OppositeDirectionsEachGetTheFullLink) {
  gpusoc::testing::fresh_systemc();
  constexpr uint64_t kBytes = 8 * kMiB;
  PcieBench bench;
  fill_pattern(bench.host(kHostBuffer, kBytes), kBytes, 3);
  fill_pattern(bench.vram_at(32 * kMiB, kBytes), kBytes, 4);
  Timed down, up;
  bench.spawn([&] {
    bench.enumerate();
    wait(sc_time(10, sc_core::SC_US) - sc_core::sc_time_stamp());
    down = timed_copy(*bench.engines[0],
                      request(kHostBuffer, kVramBase, kBytes, CopyDirection::HostToDevice));
  });
  bench.spawn([&] {
    wait(sc_time(10, sc_core::SC_US));  // after enumeration
    up = timed_copy(*bench.engines[1], request(kVramBase + 32 * kMiB, kHostBuffer2, kBytes,
                                               CopyDirection::DeviceToHost));
  });
  sc_core::sc_start();
  ASSERT_EQ(down.result, ErrorCode::None);
  ASSERT_EQ(up.result, ErrorCode::None);
  EXPECT_EQ(std::memcmp(bench.vram_at(0, kBytes), bench.host(kHostBuffer, kBytes), kBytes), 0);
  EXPECT_EQ(std::memcmp(bench.host(kHostBuffer2, kBytes), bench.vram_at(32 * kMiB, kBytes), kBytes),
            0);
  // The copies overlap almost entirely, and each runs at >= 90% of a direction's bandwidth
  // (the upstream one also carries the other's read requests: 20 bytes per 512).
  EXPECT_LT(up.start, down.end);
  EXPECT_LT(down.start, up.end);
  EXPECT_GE(down.bytes_per_ns(kBytes), 0.90 * kGen1x16);
  EXPECT_LE(down.bytes_per_ns(kBytes), 1.00 * kGen1x16);
  EXPECT_GE(up.bytes_per_ns(kBytes), 0.90 * kGen1x16);
  EXPECT_LE(up.bytes_per_ns(kBytes), 1.00 * kGen1x16);
}

TEST(CopyEngineTest, TheSameDirectionIsShared) {
  gpusoc::testing::fresh_systemc();
  constexpr uint64_t kBytes = 8 * kMiB;
  PcieBench bench;
  fill_pattern(bench.host(kHostBuffer, 2 * kBytes), 2 * kBytes, 5);
  Timed a, b;
  bench.spawn([&] {
    bench.enumerate();
    wait(sc_time(10, sc_core::SC_US) - sc_core::sc_time_stamp());
    a = timed_copy(*bench.engines[0],
                   request(kHostBuffer, kVramBase, kBytes, CopyDirection::HostToDevice));
  });
  bench.spawn([&] {
    wait(sc_time(10, sc_core::SC_US));  // after enumeration
    b = timed_copy(*bench.engines[1], request(kHostBuffer + kBytes, kVramBase + kBytes, kBytes,
                                              CopyDirection::HostToDevice));
  });
  sc_core::sc_start();
  ASSERT_EQ(a.result, ErrorCode::None);
  ASSERT_EQ(b.result, ErrorCode::None);
  EXPECT_EQ(
      std::memcmp(bench.vram_at(0, 2 * kBytes), bench.host(kHostBuffer, 2 * kBytes), 2 * kBytes),
      0);
  // Each gets about half; together they fill the link.
  for (const Timed* t : {&a, &b}) {
    EXPECT_GE(t->bytes_per_ns(kBytes), 0.45 * kGen1x16);
    EXPECT_LE(t->bytes_per_ns(kBytes), 0.55 * kGen1x16);
  }
  const double together = 2 * kBytes / ns(std::max(a.end, b.end) - a.start);
  EXPECT_GE(together, 0.90 * kGen1x16);
  EXPECT_LE(together, 1.00 * kGen1x16);
}

TEST(CopyEngineTest, DeviceToDeviceAndFill) {
  gpusoc::testing::fresh_systemc();
  constexpr uint64_t kBytes = kMiB + 6;
  PcieBench bench;
  fill_pattern(bench.vram_at(0, kBytes), kBytes, 6);
  std::memset(bench.vram_at(8 * kMiB - 2, kBytes + 4), 0, kBytes + 4);
  ErrorCode copied = ErrorCode::InvalidModule, filled = ErrorCode::InvalidModule;
  sc_time fill_start, fill_end;
  bench.spawn([&] {
    copied = bench.engines[0]->copy(
        request(kVramBase, kVramBase + 4 * kMiB, kBytes, CopyDirection::DeviceToDevice));
    FillRequest fill;
    fill.destination = kVramBase + 8 * kMiB;
    fill.bytes = kBytes;
    fill.value = 0xBEEF;
    fill.element_bytes = 2;
    fill_start = sc_core::sc_time_stamp();
    filled = bench.engines[0]->fill(fill);
    fill_end = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  EXPECT_EQ(copied, ErrorCode::None);
  EXPECT_EQ(std::memcmp(bench.vram_at(4 * kMiB, kBytes), bench.vram_at(0, kBytes), kBytes), 0);
  ASSERT_EQ(filled, ErrorCode::None);
  const uint8_t* f = bench.vram_at(8 * kMiB - 2, kBytes + 4);
  EXPECT_EQ(f[0], 0);
  EXPECT_EQ(f[1], 0);
  for (uint64_t i = 0; i < kBytes; i += 2) {
    ASSERT_EQ(f[2 + i], 0xEF) << i;
    ASSERT_EQ(f[3 + i], 0xBE) << i;
  }
  EXPECT_EQ(f[kBytes + 2], 0);
  // A fill is VRAM-bound: at least the bytes at 86.4 bytes/ns plus one access latency, and
  // within 10% of that.
  const double floor = kBytes / 86.4 + 100;
  EXPECT_GE(ns(fill_end - fill_start), floor - 0.01);
  EXPECT_LE(ns(fill_end - fill_start), 1.10 * floor);
}

TEST(CopyEngineTest, FaultsAreReportedByKind) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  std::vector<ErrorCode> results;
  bench.spawn([&] {
    CopyEngine& ce = *bench.engines[0];
    // Before bus mastering is enabled the endpoint refuses the DMA.
    results.push_back(ce.copy(request(kHostBuffer, kVramBase, 4096, CopyDirection::HostToDevice)));
    bench.enumerate();
    bench.bar0_write(bar0::ERROR_CLEAR, ~0u);
    // Device addresses outside VRAM, on either side, partly or wholly.
    results.push_back(ce.copy(
        request(kHostBuffer, kVramBase + kVramBytes - 100, 200, CopyDirection::HostToDevice)));
    results.push_back(
        ce.copy(request(kVramBase - 4, kHostBuffer, 64, CopyDirection::DeviceToHost)));
    results.push_back(
        ce.copy(request(kVramBase, kVramBase + kVramBytes, 1, CopyDirection::DeviceToDevice)));
    // Host addresses nobody answers.
    results.push_back(ce.copy(request(0x8000'0000, kVramBase, 4096, CopyDirection::HostToDevice)));
    results.push_back(ce.copy(request(kVramBase, 0x8000'0000, 4096, CopyDirection::DeviceToHost)));
    // Bad packets.
    results.push_back(ce.copy(request(kHostBuffer, kVramBase, 64, static_cast<CopyDirection>(3))));
    FillRequest fill;
    fill.destination = kVramBase;
    fill.bytes = 64;
    fill.element_bytes = 3;
    results.push_back(ce.fill(fill));
    fill.element_bytes = 4;
    fill.bytes = 62;
    results.push_back(ce.fill(fill));
    fill.bytes = 64;
    fill.destination = kVramBase + kVramBytes - 32;
    results.push_back(ce.fill(fill));
    // Nothing to do is not an error.
    results.push_back(ce.copy(request(0, kVramBase, 0, CopyDirection::HostToDevice)));
    EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), bar0::kErrorDma);
  });
  sc_core::sc_start();
  const std::vector<ErrorCode> expected = {ErrorCode::HostAccessFault,
                                           ErrorCode::DeviceAccessFault,
                                           ErrorCode::DeviceAccessFault,
                                           ErrorCode::DeviceAccessFault,
                                           ErrorCode::HostAccessFault,
                                           ErrorCode::HostAccessFault,
                                           ErrorCode::InvalidPacket,
                                           ErrorCode::InvalidPacket,
                                           ErrorCode::InvalidPacket,
                                           ErrorCode::DeviceAccessFault,
                                           ErrorCode::None};
  EXPECT_EQ(results, expected);
  EXPECT_EQ(bench.stat("copy_engine_0.faults"), 10.0);
  EXPECT_EQ(bench.stat("copy_engine_0.copies"), 1.0);
}

TEST(CopyEngineTest, OneRequestAtATimeWithRegistersAndInterrupt) {
  gpusoc::testing::fresh_systemc();
  constexpr uint64_t kBytes = 256 * 1024;
  PcieBench bench;
  Timed first, second;
  uint32_t status_while_busy = 0;
  std::vector<uint32_t> registers;
  bench.spawn([&] {
    bench.enumerate();
    bench.bar0_write(bar0::INTR_MASK, bar0::kIntrCopy);
    CopyRequest r = request(kHostBuffer, kVramBase, kBytes, CopyDirection::HostToDevice);
    r.raise_interrupt = true;
    first = timed_copy(*bench.engines[0], r);
  });
  bench.spawn([&] {
    wait(sc_time(10, sc_core::SC_US));  // after enumeration, while the first copy runs
    second = timed_copy(*bench.engines[0],
                        request(kVramBase, kHostBuffer2, kBytes, CopyDirection::DeviceToHost));
    for (uint32_t reg : {bar0::CE_STATUS, bar0::CE_COPIES, bar0::CE_BYTES_LO, bar0::CE_BYTES_HI,
                         bar0::CE_BUSY_NS_LO, bar0::CE_BUSY_NS_HI}) {
      registers.push_back(bench.bar0_read(bar0::copy_engine_offset(0, reg)));
    }
  });
  bench.spawn([&] {
    wait(sc_time(20, sc_core::SC_US));
    status_while_busy = bench.bar0_read(bar0::copy_engine_offset(0, bar0::CE_STATUS));
  });
  sc_core::sc_start();
  ASSERT_EQ(first.result, ErrorCode::None);
  ASSERT_EQ(second.result, ErrorCode::None);
  EXPECT_EQ(status_while_busy, 1u);
  // The second caller waited for the first request to finish.
  EXPECT_GE(second.end - first.end, sc_time(kBytes / kGen1x16, sc_core::SC_NS));
  const double busy = ns(first.end - first.start) + ns(second.end - first.end);
  ASSERT_EQ(registers.size(), 6u);
  EXPECT_EQ(registers[0], 0u);
  EXPECT_EQ(registers[1], 2u);
  EXPECT_EQ(registers[2], 2 * kBytes);
  EXPECT_EQ(registers[3], 0u);
  EXPECT_NEAR(registers[4], busy, 1.0);
  EXPECT_EQ(registers[5], 0u);
  // The first copy asked for an interrupt: latched and signalled once.
  EXPECT_EQ(bench.msi.received.size(), 1u);
  EXPECT_EQ(bench.stat("copy_engine_0.host_to_device_bytes"), double(kBytes));
  EXPECT_EQ(bench.stat("copy_engine_0.device_to_host_bytes"), double(kBytes));
  EXPECT_NEAR(bench.stat("copy_engine_0.busy_ns"), busy, 0.01);
  EXPECT_EQ(bench.violations(), 0u);
}

}  // namespace
}  // namespace gpusoc::pcie::testing
