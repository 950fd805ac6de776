// ProtocolChecker on b_transport, DMI and debug transport: a well-behaved memory passes without
// a single violation; for each rule a deliberately misbehaving target (or initiator) is caught
// exactly once, under that rule.
#include "models/common/protocol_checker.h"

#include <cstdint>

#include <gtest/gtest.h>

#include "models/common/memory_target.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/faulty_target.h"

namespace gpusoc {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using testing::CheckedBench;
using testing::Fault;
using testing::prepare;
using testing::TestInitiator;

TEST(ProtocolCheckerTest, WellBehavedMemoryPassesEveryCheck) {
  testing::fresh_systemc();
  StatGroup stats;
  TestInitiator cpu("cpu");
  ProtocolChecker checker("checker");
  MemoryTargetConfig config;
  config.size = 4096;
  config.latency = sc_time(20, SC_NS);
  config.bytes_per_ns = 8;
  MemoryTarget memory("memory", config, stats);
  cpu.socket.bind(checker.target);
  checker.initiator.bind(memory.target);
  testing::elaborate();
  const int reports = sc_core::sc_report_handler::get_count(ProtocolChecker::kMsgType);

  uint8_t data[64] = {};
  uint8_t enables[4] = {0xFF, 0, 0xFF, 0};
  tlm::tlm_generic_payload tx;
  for (tlm::tlm_command command : {tlm::TLM_WRITE_COMMAND, tlm::TLM_READ_COMMAND}) {
    sc_time delay;
    prepare(tx, command, 0x100, data, 64);
    cpu.socket->b_transport(tx, delay);  // the DMI hint is confirmed here
    prepare(tx, command, 0x200, data, 16);
    tx.set_byte_enable_ptr(enables);
    tx.set_byte_enable_length(4);
    tx.set_streaming_width(8);
    cpu.socket->b_transport(tx, delay);
  }
  prepare(tx, tlm::TLM_READ_COMMAND, 0x100, data, 64);
  EXPECT_EQ(cpu.socket->transport_dbg(tx), 64u);
  sc_time delay;
  prepare(tx, tlm::TLM_READ_COMMAND, 0x100, data, 64);
  cpu.socket->b_transport(tx, delay);  // compared with the debug read
  tlm::tlm_dmi dmi;
  prepare(tx, tlm::TLM_WRITE_COMMAND, 0x300, data, 4);
  EXPECT_TRUE(cpu.socket->get_direct_mem_ptr(tx, dmi));
  prepare(tx, tlm::TLM_READ_COMMAND, 0x2000, data, 4);
  cpu.socket->b_transport(tx, delay);
  EXPECT_EQ(tx.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);

  EXPECT_TRUE(checker.violations().empty()) << checker.violations().front().message;
  EXPECT_EQ(sc_core::sc_report_handler::get_count(ProtocolChecker::kMsgType), reports);
}

TEST(ProtocolCheckerTest, CatchesAnInitiatorPassingASetResponse) {
  testing::fresh_systemc();
  CheckedBench bench;
  uint8_t data[4] = {};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0, data, 4);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  sc_time delay;
  bench.cpu.socket->b_transport(tx, delay);
  bench.expect_only(ProtocolRule::InitialResponse);
}

TEST(ProtocolCheckerTest, CatchesAZeroLengthAccess) {
  testing::fresh_systemc();
  CheckedBench bench;
  bench.access(tlm::TLM_READ_COMMAND, 0, 0);
  bench.expect_only(ProtocolRule::ZeroLength);
}

TEST(ProtocolCheckerTest, CatchesByteEnablesWithoutALength) {
  testing::fresh_systemc();
  CheckedBench bench;
  uint8_t data[4] = {}, enables[4] = {0xFF, 0xFF, 0xFF, 0xFF};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_WRITE_COMMAND, 0, data, 4);
  tx.set_byte_enable_ptr(enables);
  sc_time delay;
  bench.cpu.socket->b_transport(tx, delay);
  bench.expect_only(ProtocolRule::ByteEnableLength);
}

TEST(ProtocolCheckerTest, CatchesATargetThatLeavesTheResponseIncomplete) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::LeaveIncomplete);
  bench.access(tlm::TLM_WRITE_COMMAND, 0, 4);
  bench.expect_only(ProtocolRule::ResponseNotSet);
}

TEST(ProtocolCheckerTest, CatchesATargetThatModifiesTheAddress) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::ModifyAddress);
  bench.access(tlm::TLM_WRITE_COMMAND, 0x10, 4);
  bench.expect_only(ProtocolRule::AttributeModified);
  EXPECT_NE(bench.checker.violations()[0].message.find("address"), std::string::npos);
}

TEST(ProtocolCheckerTest, CatchesATargetThatModifiesTheStreamingWidth) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::ModifyStreamingWidth);
  bench.access(tlm::TLM_WRITE_COMMAND, 0x10, 4);
  bench.expect_only(ProtocolRule::AttributeModified);
  EXPECT_NE(bench.checker.violations()[0].message.find("streaming width"), std::string::npos);
}

TEST(ProtocolCheckerTest, CatchesATargetThatDecreasesTheDelay) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DecreaseDelay);
  bench.access(tlm::TLM_READ_COMMAND, 0, 4, sc_time(5, SC_NS));
  bench.expect_only(ProtocolRule::DelayDecreased);
}

TEST(ProtocolCheckerTest, CatchesADmiHintThatIsNotHonoured) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::HintWithoutDmi);
  bench.access(tlm::TLM_READ_COMMAND, 0, 4);
  bench.expect_only(ProtocolRule::DmiHint);
}

TEST(ProtocolCheckerTest, CatchesADmiRegionWithoutTheAddress) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DmiRegionElsewhere);
  bench.access(tlm::TLM_READ_COMMAND, 0x10, 4);  // confirming the hint finds it
  bench.expect_only(ProtocolRule::DmiRegion);
}

TEST(ProtocolCheckerTest, CatchesADmiGrantWithoutTheRequestedAccess) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DmiReadOnly);
  uint8_t byte = 0;
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0x10, &byte, 1);
  tlm::tlm_dmi dmi;
  EXPECT_TRUE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi));
  EXPECT_TRUE(bench.checker.violations().empty());
  tx.set_command(tlm::TLM_WRITE_COMMAND);
  EXPECT_TRUE(bench.cpu.socket->get_direct_mem_ptr(tx, dmi));
  bench.expect_only(ProtocolRule::DmiAccess);
}

TEST(ProtocolCheckerTest, CatchesADmiGrantWithoutAPointer) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DmiNullPointer);
  uint8_t byte = 0;
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0x10, &byte, 1);
  tlm::tlm_dmi dmi;
  bench.cpu.socket->get_direct_mem_ptr(tx, dmi);
  bench.expect_only(ProtocolRule::DmiPointer);
}

TEST(ProtocolCheckerTest, CatchesADebugTransportReturningTooMuch) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DebugTooLong);
  uint8_t data[8];
  EXPECT_EQ(bench.debug_read(0, data, 8), 9u);
  bench.expect_only(ProtocolRule::DebugLength);
}

TEST(ProtocolCheckerTest, CatchesADebugTransportThatWaits) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DebugWaits, [](CheckedBench& self) {
    uint8_t data[4];
    self.debug_read(0, data, 4);
  });
  sc_core::sc_start();
  bench.expect_only(ProtocolRule::DebugTime);
}

TEST(ProtocolCheckerTest, CatchesADebugReadWithSideEffects) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DebugPops);
  uint8_t data[4];
  bench.debug_read(0, data, 4);
  bench.expect_only(ProtocolRule::DebugSideEffect);
}

TEST(ProtocolCheckerTest, CatchesADebugReadThatDisagreesWithTheTimedRead) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::DebugStale);
  uint8_t data[8];
  bench.debug_read(0x20, data, 8);
  bench.access(tlm::TLM_READ_COMMAND, 0x24, 8);  // overlaps [0x24, 0x28)
  bench.expect_only(ProtocolRule::DebugStale);
  // Only the read that follows is compared.
  bench.access(tlm::TLM_READ_COMMAND, 0x24, 8);
  EXPECT_EQ(bench.checker.violations().size(), 1u);
}

}  // namespace
}  // namespace gpusoc
