// ProtocolChecker on nb_transport (phase order, request and response exclusion, return
// statuses) and its reporting.
#include "models/common/protocol_checker.h"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/systemc_test.h"
#include "tests/unit/tlm/faulty_target.h"

namespace gpusoc {
namespace {

using sc_core::sc_time;
using testing::CheckedBench;
using testing::Fault;
using testing::FaultyTarget;
using testing::prepare;
using testing::TestInitiator;

TEST(ProtocolCheckerTest, WellBehavedNonBlockingExchangesPass) {
  testing::fresh_systemc();
  CheckedBench bench;
  tlm::tlm_generic_payload a, b;
  uint8_t data[4] = {};
  prepare(a, tlm::TLM_READ_COMMAND, 0, data, 4);
  prepare(b, tlm::TLM_READ_COMMAND, 4, data, 4);
  sc_time delay;
  // a: four phases, each on its own call.
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  EXPECT_EQ(bench.cpu.socket->nb_transport_fw(a, phase, delay), tlm::TLM_ACCEPTED);
  phase = tlm::END_REQ;
  bench.target.socket->nb_transport_bw(a, phase, delay);
  // b may start its request while a waits for its response.
  bench.target.nb_status = tlm::TLM_UPDATED;
  bench.target.nb_phase = tlm::END_REQ;
  phase = tlm::BEGIN_REQ;
  EXPECT_EQ(bench.cpu.socket->nb_transport_fw(b, phase, delay), tlm::TLM_UPDATED);
  phase = tlm::BEGIN_RESP;
  bench.target.socket->nb_transport_bw(a, phase, delay);
  phase = tlm::END_RESP;
  bench.target.nb_status = tlm::TLM_COMPLETED;
  bench.cpu.socket->nb_transport_fw(a, phase, delay);
  // b: the initiator completes the response at once.
  bench.cpu.bw_status = tlm::TLM_COMPLETED;
  phase = tlm::BEGIN_RESP;
  bench.target.socket->nb_transport_bw(b, phase, delay);
  // a again, completed by the target in one call.
  prepare(a, tlm::TLM_WRITE_COMMAND, 0, data, 4);
  phase = tlm::BEGIN_REQ;
  EXPECT_EQ(bench.cpu.socket->nb_transport_fw(a, phase, delay), tlm::TLM_COMPLETED);
  EXPECT_TRUE(bench.checker.violations().empty()) << bench.checker.violations().front().message;
}

TEST(ProtocolCheckerTest, CatchesPhasesOutOfOrder) {
  testing::fresh_systemc();
  CheckedBench bench;
  uint8_t data[4] = {};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0, data, 4);
  sc_time delay;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;  // a response nobody asked for
  bench.target.socket->nb_transport_bw(tx, phase, delay);
  bench.expect_only(ProtocolRule::PhaseOrder);
}

TEST(ProtocolCheckerTest, CatchesASecondRequestBeforeEndReq) {
  testing::fresh_systemc();
  CheckedBench bench;
  uint8_t data[4] = {};
  tlm::tlm_generic_payload a, b;
  prepare(a, tlm::TLM_READ_COMMAND, 0, data, 4);
  prepare(b, tlm::TLM_READ_COMMAND, 4, data, 4);
  sc_time delay;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  bench.cpu.socket->nb_transport_fw(a, phase, delay);
  phase = tlm::BEGIN_REQ;
  bench.cpu.socket->nb_transport_fw(b, phase, delay);
  bench.expect_only(ProtocolRule::RequestExclusion);
}

TEST(ProtocolCheckerTest, CatchesASecondResponseBeforeEndResp) {
  testing::fresh_systemc();
  CheckedBench bench;
  uint8_t data[4] = {};
  tlm::tlm_generic_payload a, b;
  prepare(a, tlm::TLM_READ_COMMAND, 0, data, 4);
  prepare(b, tlm::TLM_READ_COMMAND, 4, data, 4);
  sc_time delay;
  bench.target.nb_status = tlm::TLM_UPDATED;  // END_REQ at once, so both requests are legal
  for (tlm::tlm_generic_payload* tx : {&a, &b}) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    bench.cpu.socket->nb_transport_fw(*tx, phase, delay);
  }
  for (tlm::tlm_generic_payload* tx : {&a, &b}) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    bench.target.socket->nb_transport_bw(*tx, phase, delay);
  }
  bench.expect_only(ProtocolRule::ResponseExclusion);
}

TEST(ProtocolCheckerTest, CatchesAPhaseChangeReturnedAsAccepted) {
  testing::fresh_systemc();
  CheckedBench bench(Fault::AcceptedWithNewPhase);
  uint8_t data[4] = {};
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, 0, data, 4);
  sc_time delay;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  bench.cpu.socket->nb_transport_fw(tx, phase, delay);
  bench.expect_only(ProtocolRule::ReturnStatus);
}

TEST(ProtocolCheckerTest, ReportsUnderItsOwnMessageTypeAndThrowsByDefault) {
  testing::fresh_systemc();
  TestInitiator cpu("cpu");
  ProtocolChecker checker("checker");
  FaultyTarget target("target");
  target.fault = Fault::LeaveIncomplete;
  cpu.socket.bind(checker.target);
  checker.initiator.bind(target.socket);
  const int before = sc_core::sc_report_handler::get_count(ProtocolChecker::kMsgType);
  std::string thrown;
  // From a process, as in a platform (and as AddressSanitizer can follow SystemC's stacks).
  cpu.program = [&] {
    uint8_t data[4] = {};
    tlm::tlm_generic_payload tx;
    prepare(tx, tlm::TLM_READ_COMMAND, 0, data, 4);
    sc_time delay;
    try {
      cpu.socket->b_transport(tx, delay);
    } catch (const sc_core::sc_report& report) {
      thrown = report.get_msg_type();
    }
  };
  sc_core::sc_start();
  EXPECT_EQ(thrown, ProtocolChecker::kMsgType);
  EXPECT_EQ(sc_core::sc_report_handler::get_count(ProtocolChecker::kMsgType), before + 1);
  EXPECT_EQ(checker.count(ProtocolRule::ResponseNotSet), 1u);
}

}  // namespace
}  // namespace gpusoc
