// Small testbench pieces for TLM unit tests: an initiator the test body drives directly, a target
// that records what reaches it, and payload helpers.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

namespace gpusoc::testing {

/// The test body calls socket->b_transport() etc. after elaboration, or sets `program`, which
/// runs in an SC_THREAD (for calls that must come from a process). DMI invalidations that reach
/// the initiator are recorded; nb_transport_bw calls are recorded and answered with `bw_status`
/// (and `bw_phase` when that is TLM_UPDATED).
struct TestInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<TestInitiator> socket{"socket"};
  std::vector<std::pair<uint64_t, uint64_t>> invalidations;
  std::vector<tlm::tlm_phase> bw_phases;
  tlm::tlm_sync_enum bw_status = tlm::TLM_ACCEPTED;
  tlm::tlm_phase bw_phase = tlm::END_RESP;
  std::function<void()> program;

  SC_HAS_PROCESS(TestInitiator);
  explicit TestInitiator(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_invalidate_direct_mem_ptr(this, &TestInitiator::invalidate);
    socket.register_nb_transport_bw(this, &TestInitiator::nb_transport_bw);
    SC_THREAD(run);
  }
  void run() {
    if (program) program();
  }
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) {
    invalidations.emplace_back(start, end);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) {
    bw_phases.push_back(phase);
    if (bw_status == tlm::TLM_UPDATED) phase = bw_phase;
    return bw_status;
  }
};

/// A payload over caller-owned data, with no byte enables and no streaming.
inline void prepare(tlm::tlm_generic_payload& tx, tlm::tlm_command command, uint64_t address,
                    void* data, unsigned bytes) {
  tx.set_command(command);
  tx.set_address(address);
  tx.set_data_ptr(static_cast<unsigned char*>(data));
  tx.set_data_length(bytes);
  tx.set_streaming_width(bytes);
  tx.set_byte_enable_ptr(nullptr);
  tx.set_byte_enable_length(0);
  tx.set_dmi_allowed(false);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

/// Finishes elaboration so that sockets can be called from the test body.
inline void elaborate() {
  // A testbench without processes has nothing to run: that is expected, not worth a warning.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

}  // namespace gpusoc::testing
