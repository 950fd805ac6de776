// PcieEndpoint: enumeration through config_target, BAR0 decode and the MMIO rules, and the BAR1
// aperture, with the times of configuration and MMIO accesses computed by hand.
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

TEST(EndpointTest, EnumerationThroughConfigTarget) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    EXPECT_EQ(bench.cfg_read(cfg::VENDOR_ID), 0x0191'10DEu);
    // Config read: CfgRd (12-byte header + 8) down, CplD with 4 bytes up.
    EXPECT_NEAR(ns(bench.last_delay), wire(20) + kLatencyNs + wire(24) + kLatencyNs, kPs);
    EXPECT_EQ(bench.cfg_read(cfg::REVISION_ID) >> 8, 0x030200u);
    EXPECT_EQ(bench.cfg_read(cfg::CAPABILITIES_POINTER, 1), cfg::MSI_CAP);
    // Size BAR0 and BAR1 by writing all ones.
    for (const auto& [offset, size, type] :
         {std::tuple{cfg::BAR0, uint64_t{1} << 20, 0x4u}, std::tuple{cfg::BAR1, 16 * kMiB, 0xCu}}) {
      bench.cfg_write(offset, 0xFFFF'FFFF);
      // Config writes are non-posted: CfgWr with data down, Cpl without data up.
      EXPECT_NEAR(ns(bench.last_delay), wire(24) + kLatencyNs + wire(20) + kLatencyNs, kPs);
      bench.cfg_write(offset + 4, 0xFFFF'FFFF);
      const uint32_t low = bench.cfg_read(offset);
      const uint64_t mask = (low & ~0xFull) | uint64_t{bench.cfg_read(offset + 4)} << 32;
      EXPECT_EQ(~mask + 1, size);
      EXPECT_EQ(low & 0xF, type);
    }
    // MSI capability programming reads back.
    bench.cfg_write(cfg::MSI_ADDRESS_LO, 0xFEE0'1000);
    bench.cfg_write(cfg::MSI_DATA, 0x4242, 2);
    bench.cfg_write(cfg::MSI_CONTROL, cfg::kMsiEnable, 2);
    EXPECT_EQ(bench.cfg_read(cfg::MSI_ADDRESS_LO), 0xFEE0'1000u);
    EXPECT_EQ(bench.cfg_read(cfg::MSI_DATA, 2), 0x4242u);
    EXPECT_EQ(bench.cfg_read(cfg::MSI_CONTROL, 2), cfg::kMsiEnable | cfg::kMsi64Bit);
    EXPECT_EQ(bench.endpoint.config_space().msi_address(), 0xFEE0'1000u);
    // Link status: 2.5 GT/s, x16.
    EXPECT_EQ(bench.cfg_read(cfg::LINK_STATUS, 2) & 0x3FF, 1u | 16u << 4);
    // Outside the 4 KiB space, or misaligned: refused.
    uint32_t value = 0;
    EXPECT_EQ(bench.access(bench.cfg_port, tlm::TLM_READ_COMMAND, 0x1000, &value, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(bench.access(bench.cfg_port, tlm::TLM_READ_COMMAND, 0x02, &value, 4),
              tlm::TLM_GENERIC_ERROR_RESPONSE);
    // Debug reads see the same space.
    tlm::tlm_generic_payload tx;
    uint8_t header[16] = {};
    prepare(tx, tlm::TLM_READ_COMMAND, 0, header, 16);
    EXPECT_EQ(bench.cfg_port->transport_dbg(tx), 16u);
    EXPECT_EQ(header[0], 0xDE);
    EXPECT_EQ(header[11], 0x03);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, MemoryDecodeFollowsCommandRegisterAndBars) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    tlm::tlm_response_status status;
    bench.bar0_read(bar0::ID, &status);
    EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE) << "BARs unassigned, memory disabled";
    bench.enumerate();
    EXPECT_EQ(bench.bar0_read(bar0::ID, &status), bar0::kId);
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    bench.cfg_write(cfg::COMMAND, cfg::kCommandBusMaster, 2);  // memory space off
    bench.bar0_read(bar0::ID, &status);
    EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    bench.cfg_write(cfg::COMMAND, cfg::kCommandMemorySpace | cfg::kCommandBusMaster, 2);
    // Moving BAR0 moves the registers.
    bench.cfg_write(cfg::BAR0, 0x0010'0000);
    EXPECT_EQ(bench.bar0_read(bar0::ID, &status), 0u);
    EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    uint32_t id = 0;
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar0Address + 0x10'0000, &id, 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(id, bar0::kId);
    // An access running past the end of BAR0 belongs to no BAR.
    uint64_t two = 0;
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_READ_COMMAND,
                           kBar0Address + 0x10'0000 + bar0::kSize - 4, &two, 8),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, IdentificationRegisters) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    bench.enumerate();
    EXPECT_EQ(bench.bar0_read(bar0::VERSION), bar0::kVersion);
    EXPECT_EQ(bench.bar0_read(bar0::VRAM_BASE_LO), 0u);
    EXPECT_EQ(bench.bar0_read(bar0::VRAM_BASE_HI), 2u);
    EXPECT_EQ(bench.bar0_read(bar0::VRAM_SIZE_LO), kVramBytes - 4 * kMiB);
    EXPECT_EQ(bench.bar0_read(bar0::VRAM_SIZE_HI), 0u);
    EXPECT_EQ(bench.bar0_read(bar0::NUM_CHANNELS), 4u);
    EXPECT_EQ(bench.bar0_read(bar0::NUM_COPY_ENGINES), 2u);
    // An MMIO read: MRd (16-byte header for a 64-bit address + 8) down, CplD (12 + 8 + 4) up.
    EXPECT_NEAR(ns(bench.last_delay), wire(24) + kLatencyNs + wire(24) + kLatencyNs, kPs);
    // A posted MMIO write is done for the CPU once its TLP (16 + 8 + 4 bytes) has left.
    bench.bar0_write(bar0::INTR_MASK, 0);
    EXPECT_NEAR(ns(bench.last_delay), wire(28), kPs);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, MmioRulesLatchErrorsWithTheirOffset) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  bench.spawn([&] {
    bench.enumerate();
    tlm::tlm_response_status status;
    const auto expect_error = [&](uint32_t bits, uint32_t offset) {
      EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), bits);
      EXPECT_EQ(bench.bar0_read(bar0::ERROR_OFFSET), offset);
      EXPECT_TRUE(bench.bar0_read(bar0::INTR_STATUS) & bar0::kIntrError);
      bench.bar0_write(bar0::ERROR_CLEAR, ~0u);
      bench.bar0_write(bar0::INTR_CLEAR, ~0u);
      EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), 0u);
      EXPECT_EQ(bench.bar0_read(bar0::INTR_STATUS), 0u);
    };
    // Unmapped offset of the endpoint's own range.
    bench.bar0_read(0x0200, &status);
    EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    expect_error(bar0::kErrorUnmapped, 0x0200);
    // Write to a read-only register: ignored, answered OK, flagged.
    EXPECT_EQ(bench.bar0_write(bar0::ID, 0), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(bench.bar0_read(bar0::ID), bar0::kId);
    expect_error(bar0::kErrorReadOnlyWrite, bar0::ID);
    // Misaligned and oversized accesses.
    uint32_t word = 0;
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar0Address + 0x102, &word, 4),
              tlm::TLM_GENERIC_ERROR_RESPONSE);
    expect_error(bar0::kErrorBadAccess, 0x102);
    uint64_t two = 0;
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar0Address, &two, 8),
              tlm::TLM_BURST_ERROR_RESPONSE);
    expect_error(bar0::kErrorBadAccess, 0);
    uint16_t half = 0;
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_WRITE_COMMAND, kBar0Address + bar0::INTR_MASK,
                           &half, 2),
              tlm::TLM_GENERIC_ERROR_RESPONSE);
    expect_error(bar0::kErrorBadAccess, bar0::INTR_MASK);
    // Forwarded offsets: the copy engines answer theirs.
    EXPECT_EQ(bench.bar0_read(bar0::copy_engine_offset(1, bar0::CE_COPIES), &status), 0u);
    EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(bench.bar0_read(bar0::ERROR_STATUS), 0u);
    // A read-only write there is reported by the engine, with the BAR0 offset.
    EXPECT_EQ(bench.bar0_write(bar0::copy_engine_offset(1, bar0::CE_COPIES), 5),
              tlm::TLM_OK_RESPONSE);
    expect_error(bar0::kErrorReadOnlyWrite, bar0::copy_engine_offset(1, bar0::CE_COPIES));
    // Error responses from behind become ERROR_STATUS bits: nobody at 0x8000 ...
    bench.bar0_read(0x8000, &status);
    EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    expect_error(bar0::kErrorUnmapped, 0x8000);
    // ... nor in a hole of an engine's window; misaligned ones never leave the endpoint.
    bench.bar0_read(bar0::copy_engine_offset(0, 0x40), &status);
    EXPECT_EQ(status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    expect_error(bar0::kErrorUnmapped, bar0::copy_engine_offset(0, 0x40));
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar0Address + 0x1002, &word, 4),
              tlm::TLM_GENERIC_ERROR_RESPONSE);
    expect_error(bar0::kErrorBadAccess, 0x1002);
    // Write-only registers read as zero; the mask reads back.
    bench.bar0_write(bar0::INTR_MASK, 0x5);
    EXPECT_EQ(bench.bar0_read(bar0::INTR_MASK), 0x5u);
    EXPECT_EQ(bench.bar0_read(bar0::INTR_CLEAR), 0u);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

TEST(EndpointTest, Bar1ApertureReachesVramThroughTheWindow) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;  // BAR1: 16 MiB onto 64 MiB of VRAM
  std::memcpy(bench.vram_at(16 * kMiB + 0x40, 4), "\x11\x22\x33\x44", 4);
  bench.spawn([&] {
    bench.enumerate();
    std::vector<uint8_t> data(64);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7);
    EXPECT_EQ(
        bench.access(bench.mem_port, tlm::TLM_WRITE_COMMAND, kBar1Address + 0x100, data.data(), 64),
        tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(std::memcmp(bench.vram_at(0x100, 64), data.data(), 64), 0);
    std::vector<uint8_t> back(64);
    EXPECT_EQ(
        bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar1Address + 0x100, back.data(), 64),
        tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(back, data);
    // BAR1 read: MRd 24 bytes down; VRAM 100 ns + 64 bytes at 86.4 bytes/ns; CplD 64 + 20 up.
    EXPECT_NEAR(ns(bench.last_delay),
                wire(24) + kLatencyNs + 100 + 64 / 86.4 + wire(84) + kLatencyNs, kPs);
    // The window selects the part of VRAM; it is kept a multiple of the aperture size.
    bench.bar0_write(bar0::BAR1_WINDOW_LO, static_cast<uint32_t>(16 * kMiB + 0x1234));
    EXPECT_EQ(bench.bar0_read(bar0::BAR1_WINDOW_LO), 16 * kMiB);
    uint32_t word = 0;
    bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar1Address + 0x40, &word, 4);
    EXPECT_EQ(word, 0x44332211u);
    // The last 16 MiB of VRAM is reachable; beyond VRAM nothing is.
    bench.bar0_write(bar0::BAR1_WINDOW_LO, static_cast<uint32_t>(48 * kMiB));
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_WRITE_COMMAND, kBar1Address + 16 * kMiB - 4,
                           &word, 4),
              tlm::TLM_OK_RESPONSE);
    bench.bar0_write(bar0::BAR1_WINDOW_LO, static_cast<uint32_t>(64 * kMiB));
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar1Address, &word, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    bench.bar0_write(bar0::BAR1_WINDOW_LO, 0);
    bench.bar0_write(bar0::BAR1_WINDOW_HI, 1);
    EXPECT_EQ(bench.access(bench.mem_port, tlm::TLM_READ_COMMAND, kBar1Address, &word, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.stat("gpu_pcie.bar1_write_bytes"), 68.0);
  EXPECT_EQ(bench.stat("gpu_pcie.bar1_read_bytes"), 68.0);
  EXPECT_EQ(bench.violations(), 0u);
}

// The per-BAR targets take offsets within the BAR (the VP's bus decoded the address), reach what
// mem_target reaches at the BAR's host address, in the same time, and honour Memory Space Enable.
TEST(EndpointTest, PerBarTargetsTakeOffsetsWithinTheirBar) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;
  std::memcpy(bench.vram_at(0x40, 4), "\x11\x22\x33\x44", 4);
  bench.spawn([&] {
    uint32_t word = 0;
    EXPECT_EQ(bench.access(bench.bar0_port, tlm::TLM_READ_COMMAND, bar0::ID, &word, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE)
        << "memory space disabled";
    bench.enumerate();
    EXPECT_EQ(bench.access(bench.bar0_port, tlm::TLM_READ_COMMAND, bar0::ID, &word, 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(word, bar0::kId);
    const double via_bar0 = ns(bench.last_delay);
    bench.bar0_read(bar0::ID);
    EXPECT_NEAR(via_bar0, ns(bench.last_delay), kPs) << "the same link crossing";
    EXPECT_EQ(bench.access(bench.bar1_port, tlm::TLM_READ_COMMAND, 0x40, &word, 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(word, 0x44332211u);
    word = 0xCAFEF00D;
    EXPECT_EQ(bench.access(bench.bar1_port, tlm::TLM_WRITE_COMMAND, 0x80, &word, 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(std::memcmp(bench.vram_at(0x80, 4), &word, 4), 0);
    // Past the end of a BAR is nothing; the window moves BAR1's offsets over VRAM.
    EXPECT_EQ(bench.access(bench.bar0_port, tlm::TLM_READ_COMMAND, bar0::kSize - 2, &word, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(bench.access(bench.bar1_port, tlm::TLM_READ_COMMAND, 16 * kMiB, &word, 4),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    bench.bar0_write(bar0::BAR1_WINDOW_LO, static_cast<uint32_t>(16 * kMiB));
    word = 0x5A5A5A5A;
    EXPECT_EQ(bench.access(bench.bar1_port, tlm::TLM_WRITE_COMMAND, 0x80, &word, 4),
              tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(std::memcmp(bench.vram_at(16 * kMiB + 0x80, 4), &word, 4), 0);
    // Debug transport too: no time, the same bytes.
    tlm::tlm_generic_payload dbg;
    uint32_t peeked = 0;
    prepare(dbg, tlm::TLM_READ_COMMAND, 0x80, &peeked, 4);
    EXPECT_EQ(bench.bar1_port->transport_dbg(dbg), 4u);
    EXPECT_EQ(peeked, 0x5A5A5A5Au);
    prepare(dbg, tlm::TLM_READ_COMMAND, bar0::ID, &peeked, 4);
    EXPECT_EQ(bench.bar0_port->transport_dbg(dbg), 4u);
    EXPECT_EQ(peeked, bar0::kId);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

// DMI on the aperture: a pointer into VRAM where the window shows it, bounded by the aperture,
// in BAR1 offsets (bar1_target) or host addresses (mem_target), with the unloaded link's
// latencies; moving the window, moving BAR1 or clearing Memory Space Enable revokes it on both.
TEST(EndpointTest, Bar1OffersDmiIntoTheWindowAndRevokesItWhenTheWindowMoves) {
  gpusoc::testing::fresh_systemc();
  PcieBench bench;  // BAR1: 16 MiB onto 64 MiB of VRAM
  bench.spawn([&] {
    bench.enumerate();
    bench.bar0_write(bar0::BAR1_WINDOW_LO, static_cast<uint32_t>(16 * kMiB));
    uint32_t word = 0;
    EXPECT_EQ(bench.access(bench.bar1_port, tlm::TLM_READ_COMMAND, 0x40, &word, 4),
              tlm::TLM_OK_RESPONSE);
    tlm::tlm_generic_payload tx;
    prepare(tx, tlm::TLM_READ_COMMAND, 0x40, &word, 4);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(bench.bar1_port->get_direct_mem_ptr(tx, dmi));
    EXPECT_EQ(dmi.get_start_address(), 0u);
    EXPECT_EQ(dmi.get_end_address(), 16 * kMiB - 1) << "the aperture, not all of VRAM";
    EXPECT_EQ(dmi.get_dmi_ptr(), bench.vram_at(16 * kMiB, 1));
    EXPECT_TRUE(dmi.is_read_write_allowed());
    // Unloaded: a 4 DW MRd down, VRAM's 100 ns, a 4-byte CplD up, each with the link's latency;
    // a posted MWr.
    EXPECT_NEAR(ns(dmi.get_read_latency()), wire(24) + 100 + wire(24) + 2 * kLatencyNs, kPs);
    EXPECT_NEAR(ns(dmi.get_write_latency()), wire(28), kPs);
    tlm::tlm_dmi host;
    prepare(tx, tlm::TLM_WRITE_COMMAND, kBar1Address + 0x100, &word, 4);
    ASSERT_TRUE(bench.mem_port->get_direct_mem_ptr(tx, host));
    EXPECT_EQ(host.get_start_address(), kBar1Address);
    EXPECT_EQ(host.get_end_address(), kBar1Address + 16 * kMiB - 1);
    EXPECT_EQ(host.get_dmi_ptr(), dmi.get_dmi_ptr());
    EXPECT_TRUE(bench.bar1_revoked.empty());
    bench.bar0_write(bar0::BAR1_WINDOW_LO, 0);
    ASSERT_EQ(bench.bar1_revoked.size(), 1u);
    EXPECT_EQ(bench.bar1_revoked[0], std::make_pair(uint64_t{0}, 16 * kMiB - 1));
    ASSERT_EQ(bench.mem_revoked.size(), 1u);
    EXPECT_EQ(bench.mem_revoked[0], std::make_pair(kBar1Address, kBar1Address + 16 * kMiB - 1));
    prepare(tx, tlm::TLM_READ_COMMAND, 0x100, &word, 4);
    ASSERT_TRUE(bench.bar1_port->get_direct_mem_ptr(tx, dmi));
    EXPECT_EQ(dmi.get_dmi_ptr(), bench.vram_at(0, 1)) << "where the window is now";
    // VRAM revoking part of its own grant revokes what of it the aperture shows, as offsets.
    for (unsigned i = 0; i < bench.vram.target.size(); ++i)
      bench.vram.target[i]->invalidate_direct_mem_ptr(kVramBase + 0x1000, kVramBase + 32 * kMiB);
    ASSERT_EQ(bench.bar1_revoked.size(), 2u);
    EXPECT_EQ(bench.bar1_revoked[1], std::make_pair(uint64_t{0x1000}, 16 * kMiB - 1));
    EXPECT_EQ(bench.mem_revoked.size(), 1u) << "mem_target holds no grant since the window moved";
    // Moving BAR1 (its low half) revokes mem_target's grant at the old host addresses.
    prepare(tx, tlm::TLM_READ_COMMAND, kBar1Address + 0x100, &word, 4);
    ASSERT_TRUE(bench.mem_port->get_direct_mem_ptr(tx, host));
    bench.bar0_write(bar0::BAR1_WINDOW_LO, 0);  // unchanged: nothing revoked
    EXPECT_EQ(bench.mem_revoked.size(), 1u);
    const uint64_t moved = kBar1Address + 16 * kMiB;
    bench.cfg_write(cfg::BAR1, uint32_t(moved));
    ASSERT_EQ(bench.mem_revoked.size(), 2u);
    EXPECT_EQ(bench.mem_revoked[1], std::make_pair(kBar1Address, kBar1Address + 16 * kMiB - 1));
    EXPECT_EQ(bench.bar1_revoked.size(), 3u);
    prepare(tx, tlm::TLM_READ_COMMAND, moved + 0x100, &word, 4);
    ASSERT_TRUE(bench.mem_port->get_direct_mem_ptr(tx, host));
    EXPECT_EQ(host.get_start_address(), moved);
    // A refusal describes the address asked for, with no access: in host addresses outside the
    // BARs, in offsets past BAR1's end.
    prepare(tx, tlm::TLM_READ_COMMAND, 0x1000, &word, 4);
    EXPECT_FALSE(bench.mem_port->get_direct_mem_ptr(tx, host));
    EXPECT_TRUE(host.is_none_allowed());
    EXPECT_EQ(host.get_start_address(), 0x1000u);
    EXPECT_EQ(host.get_end_address(), 0x1000u);
    prepare(tx, tlm::TLM_READ_COMMAND, 16 * kMiB, &word, 4);
    EXPECT_FALSE(bench.bar1_port->get_direct_mem_ptr(tx, dmi));
    EXPECT_TRUE(dmi.is_none_allowed());
    EXPECT_EQ(dmi.get_start_address(), 16 * kMiB);
    prepare(tx, tlm::TLM_READ_COMMAND, 0x100, &word, 4);
    ASSERT_TRUE(bench.bar1_port->get_direct_mem_ptr(tx, dmi));
    bench.cfg_write(cfg::COMMAND, cfg::kCommandBusMaster, 2);  // memory space off
    EXPECT_EQ(bench.bar1_revoked.size(), 4u);
    EXPECT_EQ(bench.mem_revoked.size(), 3u);
    EXPECT_FALSE(bench.bar1_port->get_direct_mem_ptr(tx, dmi));
    bench.cfg_write(cfg::COMMAND, cfg::kCommandBusMaster, 2);  // nothing granted: no revocation
    EXPECT_EQ(bench.bar1_revoked.size(), 4u);
    EXPECT_EQ(bench.mem_revoked.size(), 3u);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.violations(), 0u);
}

}  // namespace
}  // namespace gpusoc::pcie::testing
