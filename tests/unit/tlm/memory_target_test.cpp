// MemoryTarget: data movement per the base protocol (byte enables, streaming, errors), the
// port-occupancy timing model against hand-computed times, DMI, debug transport, statistics, and
// lazily committed backing memory.
#include "models/common/memory_target.h"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/common/gpu_request.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using testing::prepare;
using testing::TestInitiator;

constexpr uint64_t kBase = 0x10000;

struct MemoryBench {
  StatGroup stats;
  TestInitiator cpu{"cpu"};
  TestInitiator dma{"dma"};
  MemoryTarget memory;

  explicit MemoryBench(MemoryTargetConfig config) : memory("dram", config, stats) {
    cpu.socket.bind(memory.target);
    dma.socket.bind(memory.target);
    testing::elaborate();
  }

  /// One access from `who`; returns the response, adds the target's delay to `delay`.
  tlm::tlm_response_status access(TestInitiator& who, tlm::tlm_command command, uint64_t address,
                                  void* data, unsigned bytes, sc_time& delay) {
    tlm::tlm_generic_payload tx;
    prepare(tx, command, address, data, bytes);
    who.socket->b_transport(tx, delay);
    return tx.get_response_status();
  }
};

MemoryTargetConfig small_memory(double bytes_per_ns = 0, sc_time latency = sc_time(0, SC_NS)) {
  MemoryTargetConfig config;
  config.base = kBase;
  config.size = 0x10000;
  config.latency = latency;
  config.bytes_per_ns = bytes_per_ns;
  return config;
}

TEST(MemoryTargetTest, WritesAreReadBackAndCounted) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory());
  std::vector<uint8_t> out(100), in(100);
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(3 * i + 1);
  sc_time delay;
  ASSERT_EQ(bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, kBase + 7, out.data(), 100, delay),
            tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(bench.access(bench.dma, tlm::TLM_READ_COMMAND, kBase + 7, in.data(), 100, delay),
            tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(in, out);
  EXPECT_EQ(std::memcmp(bench.memory.backdoor(kBase + 7, 100), out.data(), 100), 0);
  const MemoryTargetStats& s = bench.memory.stats();
  EXPECT_EQ(s.reads.value(), 1u);
  EXPECT_EQ(s.writes.value(), 1u);
  EXPECT_EQ(s.bytes_read.value(), 100u);
  EXPECT_EQ(s.bytes_written.value(), 100u);
  EXPECT_EQ(s.path(), "dram");
}

TEST(MemoryTargetTest, PortOccupancyQueuesAccessesFromTheCallersLocalTime) {
  testing::fresh_systemc();
  const double bw = 4.0;  // bytes per ns
  const sc_time latency(100, SC_NS);
  MemoryBench bench(small_memory(bw, latency));
  std::vector<uint8_t> page(4096);
  const sc_time page_time(4096 / bw, SC_NS);  // 1024 ns on the port

  // Two initiators write a page each at time 0: the second waits for the first's data.
  sc_time a, b;
  bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, kBase, page.data(), 4096, a);
  bench.access(bench.dma, tlm::TLM_WRITE_COMMAND, kBase + 4096, page.data(), 4096, b);
  EXPECT_EQ(a, page_time + latency);              // 1124 ns
  EXPECT_EQ(b, page_time + page_time + latency);  // 2148 ns

  // At 1500 ns the port is still busy until 2048 ns.
  sc_core::sc_start(sc_time(1500, SC_NS));
  const sc_time line_time(64 / bw, SC_NS);  // 16 ns
  sc_time c;
  bench.access(bench.cpu, tlm::TLM_READ_COMMAND, kBase, page.data(), 64, c);
  EXPECT_EQ(c, sc_time(2048 - 1500, SC_NS) + line_time + latency);  // 664 ns
  // A decoupled initiator already at 2100 ns (ahead of SystemC) finds the port free at 2064 ns.
  sc_time d(600, SC_NS);
  bench.access(bench.dma, tlm::TLM_READ_COMMAND, kBase, page.data(), 64, d);
  EXPECT_EQ(d, sc_time(600, SC_NS) + line_time + latency);  // 716 ns
  EXPECT_DOUBLE_EQ(bench.memory.stats().busy_ns.value(), 2 * 1024.0 + 2 * 16.0);
}

TEST(MemoryTargetTest, BackToBackWritesOfOneInitiatorFinishAtTheComputedTimes) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory(4.0, sc_time(100, SC_NS)));
  std::vector<uint8_t> page(4096);
  sc_time local;  // the initiator's local offset, carried from one access to the next
  bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, kBase, page.data(), 4096, local);
  EXPECT_EQ(local, sc_time(1024 + 100, SC_NS));
  bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, kBase + 4096, page.data(), 4096, local);
  EXPECT_EQ(local, sc_time(2 * (1024 + 100), SC_NS)) << "the port was free again at 1024 ns";
}

TEST(MemoryTargetTest, UnlimitedBandwidthChargesOnlyTheLatency) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory(0, sc_time(35, SC_NS)));
  std::vector<uint8_t> page(4096);
  for (int i = 0; i < 3; ++i) {
    sc_time delay;
    bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, kBase, page.data(), 4096, delay);
    EXPECT_EQ(delay, sc_time(35, SC_NS));
  }
}

TEST(MemoryTargetTest, OutOfRangeAccessesGetAddressErrors) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory(1.0, sc_time(10, SC_NS)));
  uint8_t data[8] = {};
  sc_time delay;
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_READ_COMMAND, kBase - 4, data, 4, delay),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_READ_COMMAND, kBase + 0x10000, data, 4, delay),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, kBase + 0xFFFC, data, 8, delay),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(bench.memory.stats().errors.value(), 3u);
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, kBase + 0xFFF8, data, 8, delay),
            tlm::TLM_OK_RESPONSE);
}

TEST(MemoryTargetTest, ByteEnablesSelectBytesAndRepeatOverTheData) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory());
  std::memset(bench.memory.backdoor(kBase, 8), 0xAA, 8);
  uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint8_t enables[2] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_WRITE_COMMAND, kBase, data, 8);
  tx.set_byte_enable_ptr(enables);
  tx.set_byte_enable_length(2);
  sc_time delay;
  bench.cpu.socket->b_transport(tx, delay);
  ASSERT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  const uint8_t expected[8] = {1, 0xAA, 3, 0xAA, 5, 0xAA, 7, 0xAA};
  EXPECT_EQ(std::memcmp(bench.memory.backdoor(kBase, 8), expected, 8), 0);

  // A read leaves disabled bytes of the initiator's buffer alone.
  uint8_t in[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  prepare(tx, tlm::TLM_READ_COMMAND, kBase, in, 8);
  enables[0] = TLM_BYTE_DISABLED;
  enables[1] = TLM_BYTE_ENABLED;
  tx.set_byte_enable_ptr(enables);
  tx.set_byte_enable_length(2);
  bench.cpu.socket->b_transport(tx, delay);
  const uint8_t expected_in[8] = {9, 0xAA, 9, 0xAA, 9, 0xAA, 9, 0xAA};
  EXPECT_EQ(std::memcmp(in, expected_in, 8), 0);
}

TEST(MemoryTargetTest, StreamingWidthWrapsTheAddress) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory());
  uint8_t data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_WRITE_COMMAND, kBase + 0xFFFC, data, 12);
  tx.set_streaming_width(4);  // a 4-byte FIFO at the last word: in range although 12 bytes move
  sc_time delay;
  bench.cpu.socket->b_transport(tx, delay);
  ASSERT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  const uint8_t last_beat[4] = {9, 10, 11, 12};
  EXPECT_EQ(std::memcmp(bench.memory.backdoor(kBase + 0xFFFC, 4), last_beat, 4), 0);

  uint8_t in[8] = {};
  prepare(tx, tlm::TLM_READ_COMMAND, kBase + 0xFFFC, in, 8);
  tx.set_streaming_width(4);
  bench.cpu.socket->b_transport(tx, delay);
  const uint8_t twice[8] = {9, 10, 11, 12, 9, 10, 11, 12};
  EXPECT_EQ(std::memcmp(in, twice, 8), 0);
}

// A timing request is TLM_IGNORE_COMMAND with a GpuRequest: it takes time as the read or write
// its extension says, and moves no data.
TEST(MemoryTargetTest, TimingRequestsTakeTimeButMoveNoData) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory(2.0, sc_time(50, SC_NS)));
  std::memset(bench.memory.backdoor(kBase, 32), 0x11, 32);
  uint8_t buffer[32];
  std::memset(buffer, 0x22, sizeof buffer);
  GpuRequest request;
  sc_time issue;
  for (bool write : {false, true}) {
    request.write = write;
    tlm::tlm_generic_payload tx;
    prepare(tx, tlm::TLM_IGNORE_COMMAND, kBase, buffer, 32);
    tx.set_extension(&request);
    issue += sc_time(1000, SC_NS);  // well after the previous access: no queueing
    sc_time delay = issue;
    bench.cpu.socket->b_transport(tx, delay);
    tx.clear_extension(&request);
    EXPECT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(delay, issue + sc_time(32 / 2.0 + 50, SC_NS));
  }
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(buffer[i], 0x22);
    EXPECT_EQ(bench.memory.backdoor(kBase, 32)[i], 0x11);
  }
  EXPECT_EQ(bench.memory.stats().reads.value(), 1u);
  EXPECT_EQ(bench.memory.stats().writes.value(), 1u);
}

TEST(MemoryTargetTest, IgnoreCommandOnlyChecksTheAddress) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory(1.0, sc_time(10, SC_NS)));
  sc_time delay;
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_IGNORE_COMMAND, kBase, nullptr, 4, delay),
            tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_IGNORE_COMMAND, 0, nullptr, 4, delay),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(bench.memory.stats().reads.value() + bench.memory.stats().writes.value(), 0u);
}

TEST(MemoryTargetTest, MalformedPayloadsGetGenericErrors) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory());
  uint8_t data[4] = {};
  sc_time delay;
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_READ_COMMAND, kBase, data, 0, delay),
            tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(bench.access(bench.cpu, tlm::TLM_READ_COMMAND, kBase, nullptr, 4, delay),
            tlm::TLM_GENERIC_ERROR_RESPONSE);
}

TEST(MemoryTargetTest, DebugTransportHasNoTimeOrStatisticsAndStopsAtTheEnd) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory(1.0, sc_time(10, SC_NS)));
  uint8_t out[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_WRITE_COMMAND, kBase + 0xFFF8, out, 16);
  EXPECT_EQ(bench.cpu.socket->transport_dbg(tx), 8u) << "only 8 bytes remain in the memory";
  uint8_t in[16] = {};
  prepare(tx, tlm::TLM_READ_COMMAND, kBase + 0xFFF8, in, 16);
  EXPECT_EQ(bench.cpu.socket->transport_dbg(tx), 8u);
  EXPECT_EQ(std::memcmp(in, out, 8), 0);
  prepare(tx, tlm::TLM_READ_COMMAND, kBase + 0x10000, in, 4);
  EXPECT_EQ(bench.cpu.socket->transport_dbg(tx), 0u);

  // Neither statistics nor the port's schedule saw the debug accesses.
  const MemoryTargetStats& s = bench.memory.stats();
  EXPECT_EQ(s.reads.value() + s.writes.value() + s.bytes_read.value() + s.bytes_written.value(),
            0u);
  sc_time delay;
  bench.access(bench.cpu, tlm::TLM_READ_COMMAND, kBase, in, 4, delay);
  EXPECT_EQ(delay, sc_time(4 + 10, SC_NS));
}

TEST(MemoryTargetTest, GrantsDmiOverTheWholeRangeWithLatencyHints) {
  testing::fresh_systemc();
  MemoryBench bench(small_memory(1.0, sc_time(80, SC_NS)));
  uint8_t byte = 0;
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, kBase + 0x1234, &byte, 1);
  sc_time delay;
  bench.cpu.socket->b_transport(tx, delay);
  EXPECT_TRUE(tx.is_dmi_allowed());
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi));
  EXPECT_EQ(dmi.get_start_address(), kBase);
  EXPECT_EQ(dmi.get_end_address(), kBase + 0xFFFF);
  EXPECT_TRUE(dmi.is_read_write_allowed());
  EXPECT_EQ(dmi.get_dmi_ptr(), bench.memory.backdoor(kBase, 1));
  EXPECT_EQ(dmi.get_read_latency(), sc_time(80, SC_NS));
  EXPECT_EQ(dmi.get_write_latency(), sc_time(80, SC_NS));
}

TEST(MemoryTargetTest, DmiCanBeDisallowed) {
  testing::fresh_systemc();
  MemoryTargetConfig config = small_memory();
  config.allow_dmi = false;
  MemoryBench bench(config);
  uint8_t byte = 0;
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, kBase, &byte, 1);
  tx.set_dmi_allowed(true);
  sc_time delay;
  bench.cpu.socket->b_transport(tx, delay);
  EXPECT_FALSE(tx.is_dmi_allowed());
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi));
  EXPECT_TRUE(dmi.is_none_allowed());
}

uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

TEST(MemoryTargetTest, SixteenGibibytesCostNothingUntilTouched) {
  testing::fresh_systemc();
  constexpr uint64_t kSize = uint64_t{16} << 30;
  MemoryTargetConfig config;
  config.size = kSize;
  const uint64_t before = resident_bytes();
  MemoryBench bench(config);
  uint32_t value = 0xC0FFEE;
  sc_time delay;
  for (uint64_t address : {uint64_t{0}, kSize / 2, kSize - 4}) {
    ASSERT_EQ(bench.access(bench.cpu, tlm::TLM_WRITE_COMMAND, address, &value, 4, delay),
              tlm::TLM_OK_RESPONSE);
  }
  uint32_t back = 0;
  bench.access(bench.cpu, tlm::TLM_READ_COMMAND, kSize - 4, &back, 4, delay);
  EXPECT_EQ(back, value);
  EXPECT_LT(resident_bytes() - before, uint64_t{32} << 20);
}

TEST(MemoryTargetTest, BadConfigurationAndBackdoorRangesAreModelErrors) {
  testing::fresh_systemc();
  StatGroup stats;
  MemoryTargetConfig empty;
  EXPECT_THROW(MemoryTarget("empty", empty, stats), ModelError);
  MemoryTargetConfig wraps = small_memory();
  wraps.base = ~0ull - 0xFF;
  EXPECT_THROW(MemoryTarget("wraps", wraps, stats), ModelError);
  MemoryTarget memory("memory", small_memory(), stats);
  EXPECT_NE(memory.backdoor(kBase + 0xFFF0, 16), nullptr);
  EXPECT_THROW(memory.backdoor(kBase + 0xFFF0, 17), ModelError);
  EXPECT_THROW(memory.backdoor(kBase - 1, 1), ModelError);
}

}  // namespace
}  // namespace gpusoc
