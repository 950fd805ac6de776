// PcieEndpoint: MSI and irq_out, debug transport, DMA, and link timing against hand-computed
// times.
// Unless a test says otherwise the link is the default one (pcie_bench.h: kTlpBytesPerNs).
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "models/pcie/bar0_map.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/pcie/pcie_bench.h"

namespace gpusoc::pcie::testing {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

TEST(EndpointTest, MsiCarriesTheProgrammedAddressAndDataForUnmaskedCauses) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  std::vector<bool> irq_levels;
  bench.spawn([&] {
    bench.enumerate();
    InterruptSink& sink = *bench.endpoint.interrupt_in.operator->();
    // Masked: latched, no message, line low.
    sink.raise(bar0::kIntrFence);
    wait(sc_time(1, SC_NS));
    EXPECT_TRUE(bench.msi.received.empty());
    EXPECT_FALSE(bench.irq.read());
    EXPECT_EQ(bench.bar0_read(bar0::INTR_STATUS), bar0::kIntrFence);
    // Enabling a latched cause sends its message; with MSI on, the INTx wire stays low (PCI).
    bench.bar0_write(bar0::INTR_MASK, bar0::kIntrFence | bar0::kIntrCopy);
    wait(sc_time(1, SC_NS));
    ASSERT_EQ(bench.msi.received.size(), 1u);
    EXPECT_FALSE(bench.irq.read());
    // Each further event sends one more, arriving one 24-byte MWr (12 + 8 + 4) and the
    // latency later.
    const sc_time raised = sc_core::sc_time_stamp();
    sink.raise(bar0::kIntrCopy);
    sink.raise(bar0::kIntrError);  // masked: no message
    ASSERT_EQ(bench.msi.received.size(), 2u);
    const auto& msi = bench.msi.received.back();
    EXPECT_EQ(msi.address, kMsiAddress);
    EXPECT_EQ(msi.data, kMsiData);
    EXPECT_NEAR(ns(msi.arrival - raised), wire(24) + kLatencyNs, kPs);
    // Clearing drops the line.
    bench.bar0_write(bar0::INTR_CLEAR, ~0u);
    wait(sc_time(300, SC_NS));
    EXPECT_FALSE(bench.irq.read());
    EXPECT_EQ(bench.bar0_read(bar0::INTR_STATUS), 0u);
    // MSI disabled in the capability: the line still works, no message.
    bench.cfg_write(cfg::MSI_CONTROL, 0, 2);
    sink.raise(bar0::kIntrFence);
    wait(sc_time(1, SC_NS));
    EXPECT_TRUE(bench.irq.read());
    EXPECT_EQ(bench.msi.received.size(), 2u);
    // Bus mastering off: no message either, even with MSI enabled.
    bench.cfg_write(cfg::MSI_CONTROL, cfg::kMsiEnable, 2);
    bench.cfg_write(cfg::COMMAND, cfg::kCommandMemorySpace, 2);
    sink.raise(bar0::kIntrFence);
    EXPECT_EQ(bench.msi.received.size(), 2u);
    // Errors raise the error cause.
    bench.cfg_write(cfg::COMMAND, cfg::kCommandMemorySpace | cfg::kCommandBusMaster, 2);
    bench.bar0_write(bar0::INTR_MASK, bar0::kIntrError);
    sink.report_error(bar0::kErrorChannel);
    EXPECT_EQ(bench.msi.received.size(), 3u);
    EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), bar0::kErrorChannel);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.stat("gpu_pcie.msis"), 3.0);
  EXPECT_EQ(bench.violations(), 0u);
}

// INTA# as PCI has it: asserted while an enabled cause is pending and MSI is off, masked by the
// Command register's Interrupt Disable; Status bit 3 shows the pending interrupt either way.
TEST(EndpointTest, TheLegacyInterruptFollowsMsiEnableAndInterruptDisable) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    bench.enumerate();  // MSI enabled
    InterruptSink& sink = *bench.endpoint.interrupt_in.operator->();
    const auto status_bit = [&] { return (bench.cfg_read(cfg::STATUS, 2) & cfg::kStatusInterrupt) != 0; };
    bench.bar0_write(bar0::INTR_MASK, bar0::kIntrFence);
    EXPECT_FALSE(status_bit());
    sink.raise(bar0::kIntrFence);
    wait(sc_time(1, SC_NS));
    EXPECT_TRUE(status_bit());
    EXPECT_FALSE(bench.irq.read());  // MSI carries it
    bench.cfg_write(cfg::MSI_CONTROL, 0, 2);
    wait(sc_time(1, SC_NS));
    EXPECT_TRUE(bench.irq.read());  // MSI off: the wire
    const uint32_t command = bench.cfg_read(cfg::COMMAND, 2);
    bench.cfg_write(cfg::COMMAND, command | cfg::kCommandInterruptDisable, 2);
    wait(sc_time(1, SC_NS));
    EXPECT_FALSE(bench.irq.read());
    EXPECT_TRUE(status_bit());  // still pending
    bench.cfg_write(cfg::COMMAND, command, 2);
    wait(sc_time(1, SC_NS));
    EXPECT_TRUE(bench.irq.read());
    bench.cfg_write(cfg::STATUS, 0xFFFF, 2);  // read-only: software cannot clear it
    EXPECT_TRUE(status_bit());
    bench.bar0_write(bar0::INTR_CLEAR, ~0u);
    wait(sc_time(1, SC_NS));
    EXPECT_FALSE(bench.irq.read());
    EXPECT_FALSE(status_bit());
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, DebugTransportHasNoSideEffects) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    bench.enumerate();
    bench.bar0_write(bar0::INTR_MASK, bar0::kIntrFence);
    bench.endpoint.interrupt_in->raise(bar0::kIntrFence);
    bench.endpoint.interrupt_in->report_error(bar0::kErrorDma);
    const size_t messages = bench.msi.received.size();
    const double reads = bench.stat("gpu_pcie.mmio_reads");
    const sc_time before = sc_core::sc_time_stamp();
    uint32_t value = 0;
    EXPECT_EQ(bench.bar0_peek(bar0::INTR_STATUS, value), 4u);
    EXPECT_EQ(value, bar0::kIntrFence | bar0::kIntrError);
    EXPECT_EQ(bench.bar0_peek(bar0::ERROR_STATUS, value), 4u);
    EXPECT_EQ(value, bar0::kErrorDma);
    // A debug write to the clear registers stores nothing that clears.
    tlm::tlm_generic_payload tx;
    uint32_t ones = ~0u;
    prepare(tx, tlm::TLM_WRITE_COMMAND, kBar0Address + bar0::INTR_CLEAR, &ones, 4);
    EXPECT_EQ(bench.mem_port->transport_dbg(tx), 4u);
    prepare(tx, tlm::TLM_WRITE_COMMAND, kBar0Address + bar0::ERROR_CLEAR, &ones, 4);
    EXPECT_EQ(bench.mem_port->transport_dbg(tx), 4u);
    // Unmapped and forwarded debug reads latch no error.
    EXPECT_EQ(bench.bar0_peek(0x0200, value), 0u);
    EXPECT_EQ(bench.bar0_peek(0x8000, value), 0u);
    EXPECT_EQ(bench.bar0_peek(bar0::copy_engine_offset(0, bar0::CE_STATUS), value), 4u);
    EXPECT_EQ(sc_core::sc_time_stamp(), before);
    EXPECT_EQ(bench.stat("gpu_pcie.mmio_reads"), reads);
    EXPECT_EQ(bench.msi.received.size(), messages);
    EXPECT_EQ(bench.bar0_read(bar0::INTR_STATUS), bar0::kIntrFence | bar0::kIntrError);
    EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), bar0::kErrorDma);
    EXPECT_EQ(bench.bar0_read(bar0::ERROR_OFFSET), 0u);
    // BAR1 debug access reaches VRAM.
    std::memcpy(bench.vram_at(0x80, 4), "abcd", 4);
    char text[4] = {};
    prepare(tx, tlm::TLM_READ_COMMAND, kBar1Address + 0x80, text, 4);
    EXPECT_EQ(bench.mem_port->transport_dbg(tx), 4u);
    EXPECT_EQ(std::memcmp(text, "abcd", 4), 0);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, DmaNeedsBusMasterAndReportsHostErrors) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    uint32_t value = 0x600D;
    tlm::tlm_generic_payload tx;
    sc_time delay;
    prepare(tx, tlm::TLM_WRITE_COMMAND, 0x1000, &value, 4);
    bench.unit_port->b_transport(tx, delay);
    EXPECT_EQ(tx.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);
    uint32_t landed = 0;
    std::memcpy(&landed, bench.host(0x1000, 4), 4);
    EXPECT_EQ(landed, 0u);
    bench.enumerate();
    EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), bar0::kErrorDma);
    bench.bar0_write(bar0::ERROR_CLEAR, ~0u);
    prepare(tx, tlm::TLM_WRITE_COMMAND, 0x1000, &value, 4);
    bench.unit_port->b_transport(tx, delay);
    EXPECT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
    std::memcpy(&landed, bench.host(0x1000, 4), 4);
    EXPECT_EQ(landed, 0x600Du);
    // Nothing in the host at 0x8000'0000: the error comes back and is latched.
    prepare(tx, tlm::TLM_READ_COMMAND, 0x8000'0000, &value, 4);
    bench.unit_port->b_transport(tx, delay);
    EXPECT_EQ(tx.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), bar0::kErrorDma);
    // Debug transport passes through to host memory.
    prepare(tx, tlm::TLM_READ_COMMAND, 0x1000, &value, 4);
    value = 0;
    EXPECT_EQ(bench.unit_port->transport_dbg(tx), 4u);
    EXPECT_EQ(value, 0x600Du);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.stat("gpu_pcie.dma_errors"), 2.0);
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, DmaTimingFollowsTheLink) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    bench.enumerate();
    wait(sc_time(1, sc_core::SC_US));  // the link is idle
    std::vector<uint8_t> data(64 * 1024, 0x5A);
    tlm::tlm_generic_payload tx;
    // A posted 64 KiB write: 512 MWr of 128 bytes + 20 (3 DW header), done once sent.
    sc_time delay;
    prepare(tx, tlm::TLM_WRITE_COMMAND, 0x10000, data.data(), 64 * 1024);
    bench.unit_port->b_transport(tx, delay);
    EXPECT_NEAR(ns(delay), wire(512 * 148.0), kPs);
    wait(delay);
    // A 4 KiB read: 8 MRd of 512 bytes (12 + 8 each) up, 60 ns of host memory, 32 CplD of
    // 128 + 20 down, and the latency both ways.
    delay = sc_core::SC_ZERO_TIME;
    prepare(tx, tlm::TLM_READ_COMMAND, 0x10000, data.data(), 4096);
    bench.unit_port->b_transport(tx, delay);
    EXPECT_NEAR(ns(delay), wire(8 * 20.0) + kLatencyNs + 60 + wire(32 * 148.0) + kLatencyNs, kPs);
    wait(delay);
    // Full duplex: a DMA write up and a BAR1 write down at the same time each take their
    // own time; two writes the same way queue.
    sc_time up, down, second;
    tlm::tlm_generic_payload host_tx, second_tx;
    std::vector<uint8_t> more(64 * 1024, 0x33);
    prepare(tx, tlm::TLM_WRITE_COMMAND, 0x10000, data.data(), 64 * 1024);
    prepare(host_tx, tlm::TLM_WRITE_COMMAND, kBar1Address, more.data(), 64 * 1024);
    prepare(second_tx, tlm::TLM_WRITE_COMMAND, 0x40000, more.data(), 64 * 1024);
    bench.unit_port->b_transport(tx, up);
    bench.mem_port->b_transport(host_tx, down);
    bench.unit_port->b_transport(second_tx, second);
    EXPECT_NEAR(ns(up), wire(512 * 148.0), kPs);
    EXPECT_NEAR(ns(down), wire(512 * 152.0), kPs);  // 64-bit BAR address: 4 DW headers
    EXPECT_NEAR(ns(second), 2 * wire(512 * 148.0), kPs);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.stat("gpu_pcie.dma_write_bytes"), 3 * 64 * 1024.0);
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, DeviceControlSetsThePayloadSizeOnTheWire) {
  gpusoc::testing::fresh_systemc();
  BenchOptions options;
  options.config.link.max_payload_bytes = 256;
  PcieBench bench(options);
  bench.spawn([&] {
    bench.enumerate();
    wait(sc_time(1, sc_core::SC_US));
    std::vector<uint8_t> data(64 * 1024);
    tlm::tlm_generic_payload tx;
    sc_time delay;
    prepare(tx, tlm::TLM_WRITE_COMMAND, 0, data.data(), 64 * 1024);
    bench.unit_port->b_transport(tx, delay);
    EXPECT_NEAR(ns(delay), wire(256 * 276.0), kPs);  // 256 TLPs of 256 + 20
    wait(delay);
    // Software lowers Max_Payload_Size to 128 bytes.
    const uint32_t control = bench.cfg_read(cfg::DEVICE_CONTROL, 2);
    bench.cfg_write(cfg::DEVICE_CONTROL, control & ~(0x7u << 5), 2);
    EXPECT_EQ(bench.endpoint.link().params().max_payload_bytes, 128u);
    wait(sc_time(1, sc_core::SC_US));
    delay = sc_core::SC_ZERO_TIME;
    prepare(tx, tlm::TLM_WRITE_COMMAND, 0, data.data(), 64 * 1024);
    bench.unit_port->b_transport(tx, delay);
    EXPECT_NEAR(ns(delay), wire(512 * 148.0), kPs);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

}  // namespace
}  // namespace gpusoc::pcie::testing
