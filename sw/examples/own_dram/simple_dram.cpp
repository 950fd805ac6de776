#include "simple_dram.h"

#include <algorithm>

SimpleDram::SimpleDram(sc_core::sc_module_name name, const SimpleDramTiming& timing)
    : sc_module(name),
      target("target"),
      timing_(timing),
      open_rows_(timing.banks, ~uint64_t(0)),
      done_("done") {
  target.register_nb_transport_fw(this, &SimpleDram::nb_transport_fw);
  SC_HAS_PROCESS(SimpleDram);
  SC_THREAD(respond);
}

tlm::tlm_sync_enum SimpleDram::nb_transport_fw(tlm::tlm_generic_payload& tx,
                                               tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase == tlm::END_RESP) {
    response_open_ = false;
    end_resp_.notify(delay);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "unexpected phase on the forward path");
    return tlm::TLM_COMPLETED;
  }
  tx.acquire();  // ours until the response is over
  const sc_core::sc_time arrival = sc_core::sc_time_stamp() + delay;
  if (in_service_ >= timing_.queue) {  // full: END_REQ when an access leaves
    waiting_ = &tx;
    waiting_arrival_ = arrival;
    return tlm::TLM_ACCEPTED;
  }
  accept(tx, arrival);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

// When the access's data has moved: after its bank's row is open and the column read (or
// written), and after the bus has carried everything before it.
void SimpleDram::accept(tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival) {
  ++in_service_;
  ++(tx.is_write() ? writes : reads);
  const uint64_t row_number = tx.get_address() / timing_.row_bytes;
  const uint32_t bank = uint32_t(row_number % timing_.banks);
  const uint64_t row = row_number / timing_.banks;
  double access_ns = timing_.tcl_ns;
  if (open_rows_[bank] == row) {
    ++row_hits;
  } else {
    access_ns += timing_.trcd_ns + (open_rows_[bank] != ~uint64_t(0) ? timing_.trp_ns : 0);
    open_rows_[bank] = row;
  }
  const sc_core::sc_time ready = arrival + sc_core::sc_time(access_ns, sc_core::SC_NS);
  const sc_core::sc_time transfer(tx.get_data_length() / timing_.bytes_per_ns, sc_core::SC_NS);
  bus_free_ = std::max(ready, bus_free_) + transfer;
  done_.notify(tx, bus_free_ - sc_core::sc_time_stamp());
}

void SimpleDram::respond() {
  for (;;) {
    sc_core::wait(done_.get_event());
    while (tlm::tlm_generic_payload* tx = done_.get_next_transaction()) {
      tx->set_response_status(tlm::TLM_OK_RESPONSE);
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      response_open_ = true;
      if (target->nb_transport_bw(*tx, phase, delay) == tlm::TLM_ACCEPTED) {
        while (response_open_) sc_core::wait(end_resp_);  // response exclusion
      }
      response_open_ = false;
      tx->release();
      --in_service_;
      if (waiting_) {  // room: take the held request, and tell its initiator
        tlm::tlm_generic_payload& held = *waiting_;
        waiting_ = nullptr;
        accept(held, std::max(waiting_arrival_, sc_core::sc_time_stamp()));
        tlm::tlm_phase end_req = tlm::END_REQ;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        target->nb_transport_bw(held, end_req, zero);
      }
    }
  }
}
