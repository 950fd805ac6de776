// TlmRouter: translation, address errors, overlap refusal, debug transport, DMI translation and
// clamping, and invalidations travelling back to every initiator.
#include "models/common/tlm_router.h"

#include <array>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "models/common/error.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc {
namespace {

using testing::prepare;
using testing::TestInitiator;

constexpr uint64_t kTargetMemory = 0x10000;  // what a RecordingTarget grants DMI over

/// Records the address each call saw; grants DMI over [0, kTargetMemory) of its own space.
struct RecordingTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<RecordingTarget> socket{"socket"};
  uint64_t last_address = ~0ull;
  unsigned calls = 0;
  std::array<unsigned char, kTargetMemory> memory{};

  explicit RecordingTarget(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &RecordingTarget::b_transport);
    socket.register_transport_dbg(this, &RecordingTarget::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &RecordingTarget::get_direct_mem_ptr);
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    last_address = tx.get_address();
    ++calls;
    delay += sc_core::sc_time(10, sc_core::SC_NS);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& tx) {
    last_address = tx.get_address();
    ++calls;
    return tx.get_data_length();
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
    last_address = tx.get_address();
    dmi.set_dmi_ptr(memory.data());
    dmi.set_start_address(0);
    dmi.set_end_address(kTargetMemory - 1);
    dmi.allow_read_write();
    return true;
  }
};

/// Two initiators and two targets around one router:
///   [0x1000, 0x2000) -> target a at 0x800;  [0x8000, 0x8100) -> target b at 0x200.
struct RouterBench {
  TestInitiator cpu{"cpu"};
  TestInitiator dma{"dma"};
  TlmRouter router{"router"};
  RecordingTarget a{"a"};
  RecordingTarget b{"b"};

  RouterBench() {
    cpu.socket.bind(router.target);
    dma.socket.bind(router.target);
    router.initiator.bind(a.socket);
    router.initiator.bind(b.socket);
    router.map(0, 0x1000, 0x1000, 0x800, "a");
    router.map(1, 0x8000, 0x100, 0x200, "b");
    testing::elaborate();
  }

  tlm::tlm_response_status write(uint64_t address, unsigned bytes, sc_core::sc_time* delay) {
    uint8_t data[64] = {};
    tlm::tlm_generic_payload tx;
    prepare(tx, tlm::TLM_WRITE_COMMAND, address, data, bytes);
    cpu.socket->b_transport(tx, *delay);
    EXPECT_EQ(tx.get_address(), address) << "the router must restore the initiator's address";
    return tx.get_response_status();
  }
};

TEST(TlmRouterTest, ForwardsTranslatedAddressesToTheMappedPort) {
  testing::fresh_systemc();
  RouterBench bench;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(bench.write(0x1010, 4, &delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench.a.last_address, 0x1010u - 0x1000 + 0x800);
  EXPECT_EQ(bench.write(0x80F0, 16, &delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench.b.last_address, 0x80F0u - 0x8000 + 0x200);
  EXPECT_EQ(delay, sc_core::sc_time(20, sc_core::SC_NS)) << "targets' delays pass through";
  EXPECT_EQ(bench.a.calls, 1u);
  EXPECT_EQ(bench.b.calls, 1u);
}

TEST(TlmRouterTest, UnmappedAndStraddlingAccessesGetAddressErrors) {
  testing::fresh_systemc();
  RouterBench bench;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(bench.write(0x0FFC, 4, &delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // below a
  EXPECT_EQ(bench.write(0x2000, 4, &delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // just past a
  EXPECT_EQ(bench.write(0x1FFC, 8, &delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // straddles a's end
  EXPECT_EQ(bench.write(0x80FF, 2, &delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // straddles b's end
  EXPECT_EQ(bench.a.calls + bench.b.calls, 0u) << "no target sees a refused access";
  EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(bench.write(0x1FFC, 4, &delay), tlm::TLM_OK_RESPONSE);  // the last word of a
  EXPECT_EQ(bench.a.last_address, 0x1FFCu - 0x1000 + 0x800);
}

TEST(TlmRouterTest, StreamingAccessNeedsOnlyItsStreamingWidthMapped) {
  testing::fresh_systemc();
  RouterBench bench;
  uint8_t data[16] = {};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_WRITE_COMMAND, 0x80FC, data, 16);
  tx.set_streaming_width(4);  // a FIFO register at the last word of b
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bench.cpu.socket->b_transport(tx, delay);
  EXPECT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(bench.b.last_address, 0x2FCu);
}

TEST(TlmRouterTest, RefusesOverlappingRangesNamingBoth) {
  testing::fresh_systemc();
  TlmRouter router("router");
  router.map(0, 0x1000, 0x1000, 0, "ram");
  router.map(1, 0x2000, 0x1000, 0, "rom");  // adjacent is fine
  router.map(1, 0x0, 0x1000, 0, "boot");
  try {
    router.map(2, 0x1800, 0x1000, 0, "regs");
    FAIL() << "overlap accepted";
  } catch (const ModelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("regs [0x1800, 0x27ff]"), std::string::npos) << what;
    EXPECT_NE(what.find("ram [0x1000, 0x1fff]"), std::string::npos) << what;
  }
  EXPECT_THROW(router.map(2, 0x0FFF, 2, 0, "tiny"), ModelError);  // overlaps boot's last byte
  EXPECT_THROW(router.map(2, 0x5000, 0, 0, "empty"), ModelError);
  EXPECT_THROW(router.map(2, ~0ull - 3, 8, 0, "wraps"), ModelError);
}

TEST(TlmRouterTest, RangeToAnUnboundPortFailsElaboration) {
  testing::fresh_systemc();
  TestInitiator cpu("cpu");
  TlmRouter router("router");
  RecordingTarget a("a");
  cpu.socket.bind(router.target);
  router.initiator.bind(a.socket);
  router.map(1, 0x0, 0x100, 0, "nowhere");
  EXPECT_THROW(testing::elaborate(), ModelError);
}

TEST(TlmRouterTest, DebugTransportIsTranslatedAndRefusedWhenUnmapped) {
  testing::fresh_systemc();
  RouterBench bench;
  uint8_t data[8] = {};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0x1100, data, 8);
  EXPECT_EQ(bench.cpu.socket->transport_dbg(tx), 8u);
  EXPECT_EQ(bench.a.last_address, 0x900u);
  EXPECT_EQ(tx.get_address(), 0x1100u);
  prepare(tx, tlm::TLM_READ_COMMAND, 0x3000, data, 8);
  EXPECT_EQ(bench.cpu.socket->transport_dbg(tx), 0u);
}

TEST(TlmRouterTest, DmiRegionIsTranslatedBackAndClampedToTheMapping) {
  testing::fresh_systemc();
  RouterBench bench;
  uint8_t byte = 0;
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0x1234, &byte, 1);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi));
  // Target a grants its [0, 0xFFFF]; the router sees only [0x800, 0x17FF] of it, at 0x1000.
  EXPECT_EQ(dmi.get_start_address(), 0x1000u);
  EXPECT_EQ(dmi.get_end_address(), 0x1FFFu);
  EXPECT_EQ(dmi.get_dmi_ptr(), bench.a.memory.data() + 0x800);
  EXPECT_EQ(bench.a.last_address, 0x1234u - 0x1000 + 0x800);
  EXPECT_EQ(tx.get_address(), 0x1234u);

  tlm::tlm_dmi dmi_b;
  prepare(tx, tlm::TLM_READ_COMMAND, 0x8010, &byte, 1);
  ASSERT_TRUE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi_b));
  EXPECT_EQ(dmi_b.get_start_address(), 0x8000u);
  EXPECT_EQ(dmi_b.get_end_address(), 0x80FFu);
  EXPECT_EQ(dmi_b.get_dmi_ptr(), bench.b.memory.data() + 0x200);
}

TEST(TlmRouterTest, DmiOnAnUnmappedAddressDeniesTheWholeGap) {
  testing::fresh_systemc();
  RouterBench bench;
  uint8_t byte = 0;
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0x4000, &byte, 1);
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi));
  EXPECT_TRUE(dmi.is_none_allowed());
  EXPECT_EQ(dmi.get_start_address(), 0x2000u);
  EXPECT_EQ(dmi.get_end_address(), 0x7FFFu);
  prepare(tx, tlm::TLM_READ_COMMAND, 0x10, &byte, 1);
  EXPECT_FALSE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0u);
  EXPECT_EQ(dmi.get_end_address(), 0xFFFu);
}

TEST(TlmRouterTest, InvalidationsReachEveryInitiatorTranslatedAndClamped) {
  testing::fresh_systemc();
  RouterBench bench;
  bench.a.socket->invalidate_direct_mem_ptr(0x900, 0x90F);
  const std::vector<std::pair<uint64_t, uint64_t>> expected{{0x1100, 0x110F}};
  EXPECT_EQ(bench.cpu.invalidations, expected);
  EXPECT_EQ(bench.dma.invalidations, expected);

  bench.a.socket->invalidate_direct_mem_ptr(0, ~0ull);  // everything: only a's window matters
  EXPECT_EQ(bench.cpu.invalidations.back(), std::make_pair(uint64_t{0x1000}, uint64_t{0x1FFF}));

  bench.cpu.invalidations.clear();
  bench.a.socket->invalidate_direct_mem_ptr(0x2000, 0x3000);  // outside what the router maps
  bench.b.socket->invalidate_direct_mem_ptr(0x0, 0x1FF);
  EXPECT_TRUE(bench.cpu.invalidations.empty());
}

}  // namespace
}  // namespace gpusoc
