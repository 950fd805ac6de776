// An L2 slice, with its partition's ROP, as a SystemC module (memory.model = tlm): the L2Slice
// between a TLM-2.0 target socket (from the crossbar) and an initiator socket (to its memory
// partition), approximately timed under the base protocol, in the L2 clock.
//
//  - From the crossbar: BEGIN_REQ carries a packet (MemPacketExtension). It enters the input
//    queue at the cycle of its arrival when there is room (TLM_UPDATED, END_REQ); otherwise
//    TLM_ACCEPTED, and END_REQ goes backward when a lookup makes room. Replies go back as
//    BEGIN_RESP on the same payload when ready, one response open at a time: a response the
//    crossbar answers TLM_ACCEPTED (its reply network is full) holds the slice's reply queue,
//    which stalls lookups, until END_RESP.
//  - To memory: fills and write-backs as new payloads (packet_payload.h: standard READ/WRITE of
//    the sector run with byte enables, plus the extension), one request open at a time; a
//    partition that answers TLM_ACCEPTED holds the slice's memory queue until END_REQ. Any AT
//    target may answer, and so may an LT one behind an adapter that gives BEGIN_RESP (or
//    TLM_COMPLETED with the access's delay): the fill lands at that time.
//  - Its process runs at the slice's next event or when something arrives, and sleeps when the
//    slice has nothing to do.
// Statistics are the slice's and the ROP's (stats_parent.l2, stats_parent.rop).
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/cycle_clock.h"
#include "models/common/packet_payload.h"
#include "models/l2/l2_slice.h"
#include "models/mempart/rop.h"

namespace gpusoc::l2 {

class L2SliceModule : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<L2SliceModule> target;    // from the crossbar
  tlm_utils::simple_initiator_socket<L2SliceModule> memory;  // to the memory partition

  /// As L2Slice's constructor, with the ROP built here from `rop` (stats_parent.rop first, as
  /// the fused hierarchy orders them); `clock_mhz`: the L2 clock.
  L2SliceModule(sc_core::sc_module_name name, const L2Config& config,
                const mempart::RopConfig& rop, double clock_mhz, StatGroup& stats_parent,
                const std::string& prefix, const mempart::AddressMapping* mapping);

  const L2Slice& slice() const { return slice_; }
  const mempart::Rop& rop() const { return *rop_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void step();  // SC_METHOD
  void enter(tlm::tlm_generic_payload& tx, uint64_t cycle);
  void bring_to(uint64_t cycle);  // advances the slice through `cycle` if it is behind
  bool send_memory_requests();
  bool send_replies(uint64_t cycle);
  bool admit_held(uint64_t cycle);
  void memory_done(tlm::tlm_generic_payload& tx, const sc_core::sc_time& at);
  void memory_request_taken();

  std::unique_ptr<mempart::Rop> rop_;
  L2Slice slice_;
  CycleClock clock_;
  PacketPayloadPool pool_;
  PayloadSlots slots_;  // packets from the crossbar, by their id here
  tlm::tlm_generic_payload* held_ = nullptr;  // BEGIN_REQ waiting for room in the input queue
  uint64_t held_cycle_ = 0;                   // its arrival
  tlm::tlm_generic_payload* memory_open_ = nullptr;  // our BEGIN_REQ awaiting END_REQ
  bool reply_open_ = false;
  uint64_t advanced_ = L2Slice::kNever;
  // Fills an LT-style target completed with a delay: (cycle, fill id), earliest first.
  std::priority_queue<std::pair<uint64_t, uint64_t>, std::vector<std::pair<uint64_t, uint64_t>>,
                      std::greater<>>
      later_;
  sc_core::sc_event wake_;
};

}  // namespace gpusoc::l2
