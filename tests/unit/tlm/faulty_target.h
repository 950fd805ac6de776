// A target that breaks one rule of the TLM-2.0 base protocol on request, and a bench that puts a
// ProtocolChecker in front of it (violations counted, not thrown), for the checker's tests.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "models/common/protocol_checker.h"
#include "tests/unit/tlm/tlm_test_support.h"

namespace gpusoc::testing {

enum class Fault {
  None,
  LeaveIncomplete,
  ModifyAddress,
  ModifyStreamingWidth,
  DecreaseDelay,
  HintWithoutDmi,
  DmiRegionElsewhere,
  DmiReadOnly,
  DmiNullPointer,
  DebugTooLong,
  DebugWaits,
  DebugPops,
  DebugStale,
  AcceptedWithNewPhase,
};

/// 256 bytes of memory at address 0, misbehaving as told. nb_transport_fw answers with
/// `nb_status` (and `nb_phase` for TLM_UPDATED), setting the response first.
struct FaultyTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<FaultyTarget> socket{"socket"};
  Fault fault = Fault::None;
  std::array<uint8_t, 256> memory{};
  unsigned pops = 0;
  tlm::tlm_sync_enum nb_status = tlm::TLM_ACCEPTED;
  tlm::tlm_phase nb_phase = tlm::END_REQ;

  explicit FaultyTarget(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_b_transport(this, &FaultyTarget::b_transport);
    socket.register_nb_transport_fw(this, &FaultyTarget::nb_transport_fw);
    socket.register_transport_dbg(this, &FaultyTarget::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &FaultyTarget::get_direct_mem_ptr);
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    uint8_t* at = memory.data() + tx.get_address();
    if (tx.is_read()) std::memcpy(tx.get_data_ptr(), at, tx.get_data_length());
    if (tx.is_write()) std::memcpy(at, tx.get_data_ptr(), tx.get_data_length());
    delay += sc_core::sc_time(10, sc_core::SC_NS);
    tx.set_dmi_allowed(fault == Fault::None || fault == Fault::HintWithoutDmi ||
                       fault == Fault::DmiRegionElsewhere || fault == Fault::DmiReadOnly ||
                       fault == Fault::DmiNullPointer);
    if (fault == Fault::DebugStale && tx.is_read()) tx.get_data_ptr()[0] ^= 0xFF;
    if (fault == Fault::ModifyAddress) tx.set_address(tx.get_address() + 4);
    if (fault == Fault::ModifyStreamingWidth) tx.set_streaming_width(1);
    if (fault == Fault::DecreaseDelay) delay = sc_core::SC_ZERO_TIME;
    if (fault != Fault::LeaveIncomplete) tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) {
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    if (nb_status == tlm::TLM_UPDATED || fault == Fault::AcceptedWithNewPhase) phase = nb_phase;
    return nb_status;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& tx) {
    if (fault == Fault::DebugWaits) wait(sc_core::sc_time(1, sc_core::SC_NS));
    const unsigned n = tx.get_data_length();
    if (tx.is_read()) std::memcpy(tx.get_data_ptr(), memory.data() + tx.get_address(), n);
    if (tx.is_write()) std::memcpy(memory.data() + tx.get_address(), tx.get_data_ptr(), n);
    if (fault == Fault::DebugPops && tx.is_read()) tx.get_data_ptr()[0] = uint8_t(pops++);
    return fault == Fault::DebugTooLong ? n + 1 : n;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
    if (fault == Fault::HintWithoutDmi) return false;
    dmi.set_dmi_ptr(fault == Fault::DmiNullPointer ? nullptr : memory.data());
    dmi.set_start_address(fault == Fault::DmiRegionElsewhere ? 0x80 : 0);
    dmi.set_end_address(memory.size() - 1);
    if (fault == Fault::DmiReadOnly) {
      dmi.allow_read();
    } else {
      dmi.allow_read_write();
    }
    return true;
  }
};

/// initiator -> checker -> faulty target; violations are counted, not thrown.
struct CheckedBench {
  TestInitiator cpu{"cpu"};
  ProtocolChecker checker{"checker"};
  FaultyTarget target{"target"};
  sc_core::sc_actions previous;

  /// `program` runs in the initiator's thread during sc_start().
  explicit CheckedBench(Fault fault = Fault::None,
                        std::function<void(CheckedBench&)> program = nullptr) {
    target.fault = fault;
    if (program) cpu.program = [this, program] { program(*this); };
    cpu.socket.bind(checker.target);
    checker.initiator.bind(target.socket);
    previous =
        sc_core::sc_report_handler::set_actions(ProtocolChecker::kMsgType, sc_core::SC_DO_NOTHING);
    testing::elaborate();
  }
  ~CheckedBench() { sc_core::sc_report_handler::set_actions(ProtocolChecker::kMsgType, previous); }

  tlm::tlm_response_status access(tlm::tlm_command command, uint64_t address, unsigned bytes,
                                  sc_core::sc_time delay = sc_core::sc_time(5, sc_core::SC_NS)) {
    uint8_t data[16] = {1, 2, 3, 4, 5, 6, 7, 8};
    tlm::tlm_generic_payload tx;
    prepare(tx, command, address, data, bytes);
    cpu.socket->b_transport(tx, delay);
    return tx.get_response_status();
  }
  unsigned debug_read(uint64_t address, uint8_t* data, unsigned bytes) {
    tlm::tlm_generic_payload tx;
    prepare(tx, tlm::TLM_READ_COMMAND, address, data, bytes);
    return cpu.socket->transport_dbg(tx);
  }
  /// The only violation found was one of `rule`.
  void expect_only(ProtocolRule rule) const {
    EXPECT_EQ(checker.count(rule), 1u) << to_string(rule);
    EXPECT_EQ(checker.violations().size(), 1u);
    for (const auto& v : checker.violations()) {
      EXPECT_NE(v.message.find(to_string(rule)), std::string::npos) << v.message;
    }
  }
};

}  // namespace gpusoc::testing
