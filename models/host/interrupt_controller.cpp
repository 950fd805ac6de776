#include "models/host/interrupt_controller.h"

#include <cstring>

namespace gpusoc::host {

InterruptController::InterruptController(sc_core::sc_module_name name, StatGroup& stats_parent)
    : sc_module(name),
      target("target"),
      cpu_export("cpu_export"),
      arrivals_("arrivals"),
      stats_(stats_parent, basename()) {
  target.register_b_transport(this, &InterruptController::b_transport);
  target.register_transport_dbg(this, &InterruptController::transport_dbg);
  cpu_export.bind(*this);
  SC_METHOD(latch);
  sensitive << arrivals_;
  dont_initialize();
}

void InterruptController::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  if (!tx.is_write()) {
    ++stats_.bad_accesses;
    tx.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (tx.get_data_length() != 4 || tx.get_byte_enable_ptr() != nullptr ||
      tx.get_streaming_width() < 4) {
    ++stats_.bad_accesses;
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  std::memcpy(&last_vector_, tx.get_data_ptr(), 4);
  ++stats_.msis;
  arrivals_.notify(delay);  // latched when the writer's local time comes
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned InterruptController::transport_dbg(tlm::tlm_generic_payload&) {
  return 0;  // nothing to read, and a debug write must not raise an interrupt
}

void InterruptController::latch() {
  ++pending_;
  latched_.notify();
}

unsigned InterruptController::take_pending() {
  const unsigned taken = pending_;
  pending_ = 0;
  return taken;
}

}  // namespace gpusoc::host
