// A DRAM model of one's own, as a TLM-2.0 target under the base protocol's approximately timed
// phases: what a user would write, or wrap a third-party DRAM simulator in, to stand in for one
// of gpusoc's memory partitions.
//
// Deliberately simple: banks that each keep one row open (a row hit costs tCL, a miss
// tRP + tRCD + tCL), one data bus that moves each access's bytes at the channel's peak rate,
// answers in order, and a bounded request queue: while it is full, END_REQ waits, which holds
// the L2 slice (backpressure, no unbounded queue anywhere).
#pragma once

#include <cstdint>
#include <deque>

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

struct SimpleDramTiming {
  double tcl_ns = 14, trcd_ns = 14, trp_ns = 14;
  double bytes_per_ns = 28.8;  // the data bus: one partition's peak (a V100 HBM2 stack / 4)
  uint32_t banks = 16;
  uint32_t row_bytes = 2048;
  uint32_t queue = 32;  // requests accepted and not yet answered
};

class SimpleDram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<SimpleDram> target;

  SimpleDram(sc_core::sc_module_name name, const SimpleDramTiming& timing);

  uint64_t reads = 0, writes = 0, row_hits = 0;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void accept(tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival);
  void respond();  // SC_THREAD: answers each access at its time, in order

  SimpleDramTiming timing_;
  std::deque<uint64_t> open_rows_;  // per bank
  sc_core::sc_time bus_free_;
  uint32_t in_service_ = 0;
  tlm::tlm_generic_payload* waiting_ = nullptr;  // BEGIN_REQ held while the queue is full
  sc_core::sc_time waiting_arrival_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> done_;
  sc_core::sc_event end_resp_;
  bool response_open_ = false;
};
