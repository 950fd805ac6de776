// The crossbar as a SystemC module (memory.model = tlm): its request network from the
// requesters' ports to the L2 slices and its reply network back, between a target socket with a
// binding per port and an initiator socket with a binding per slice, approximately timed under
// the base protocol, in the L2 clock.
//
//  - From a port: BEGIN_REQ carries a packet (MemPacketExtension; the output is the slice the
//    address mapping names). It enters the port's input buffer at the cycle of its arrival when
//    there is room (TLM_UPDATED, END_REQ); otherwise TLM_ACCEPTED, and END_REQ goes backward
//    when a grant frees a slot: the port holds its next packet meanwhile.
//  - To a slice: the same payload, forwarded as BEGIN_REQ when it is ready in the slice's
//    output buffer; it leaves the buffer at END_REQ (one request open per slice), so a slice
//    that refuses holds the buffer, which stops grants to it, which fills the inputs.
//  - Replies: BEGIN_RESP from a slice enters the reply network (TLM_COMPLETED) when its input
//    has room, else TLM_ACCEPTED and END_RESP goes forward once it enters. A slice may also
//    complete a request early (TLM_COMPLETED, or TLM_UPDATED with BEGIN_RESP), as any AT or
//    adapted LT target may. At the port's output the reply goes backward as BEGIN_RESP, one
//    response open per port.
// Statistics are the two networks' (stats_parent.requests, stats_parent.replies).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/cycle_clock.h"
#include "models/common/index_bits.h"
#include "models/xbar/crossbar.h"

namespace gpusoc::xbar {

class CrossbarModule : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<CrossbarModule> ports;      // one per requester
  tlm_utils::multi_passthrough_initiator_socket<CrossbarModule> slices;  // one per L2 slice

  /// `slice_of`: the slice (output) an address goes to. `clock_mhz`: the crossbar's clock.
  CrossbarModule(sc_core::sc_module_name name, const CrossbarConfig& config, uint32_t port_count,
                 uint32_t slice_count, std::function<uint32_t(uint64_t)> slice_of,
                 double clock_mhz, StatGroup& stats_parent);

  const Crossbar& request_network() const { return requests_; }
  const Crossbar& reply_network() const { return replies_; }

 private:
  tlm::tlm_sync_enum port_fw(int port, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                             sc_core::sc_time& delay);
  tlm::tlm_sync_enum slice_bw(int slice, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay);
  void end_of_elaboration() override;
  void step();  // SC_METHOD
  uint32_t tag(tlm::tlm_generic_payload& tx);  // a slot for a packet entering; acquires it
  void release(uint32_t slot);                   // the packet's reply went back to its port
  void push_request(uint32_t port, tlm::tlm_generic_payload& tx, uint64_t cycle);
  bool forward_requests(uint64_t cycle);
  bool take_replies(uint64_t cycle);
  void reply(uint32_t slice, tlm::tlm_generic_payload& tx, uint64_t cycle);
  bool deliver_replies(uint64_t cycle);
  bool admit_held(uint64_t cycle);

  uint32_t port_count_, slice_count_;
  std::function<uint32_t(uint64_t)> slice_of_;
  CycleClock clock_;
  Crossbar requests_, replies_;
  struct Slot {
    tlm::tlm_generic_payload* tx = nullptr;
    MemPacket packet;  // as the networks carry it: id the slot, source the port
  };
  std::vector<Slot> slots_;  // packets in the crossbar
  std::vector<uint32_t> free_slots_;
  std::unordered_map<const tlm::tlm_generic_payload*, uint32_t> slot_of_;
  struct Port {
    tlm::tlm_generic_payload* held = nullptr;  // BEGIN_REQ waiting for its input's room
    uint64_t held_cycle = 0;                   // its arrival
    bool response_open = false;
  };
  struct WaitingReply {
    tlm::tlm_generic_payload* tx;
    bool owes_end_resp;  // the slice waits for END_RESP (else the transaction completed)
    uint64_t ready;      // the cycle it may enter (an early completion's delay)
  };
  struct Slice {
    tlm::tlm_generic_payload* request_open = nullptr;  // forwarded, awaiting END_REQ
    // Replies waiting for room in the reply network, oldest first: one whose BEGIN_RESP we
    // answered TLM_ACCEPTED, or ones the slice completed early (TLM_COMPLETED, or TLM_UPDATED
    // with BEGIN_RESP). No request goes to the slice while any waits: bounded.
    std::deque<WaitingReply> waiting;
  };
  std::vector<Port> port_state_;
  std::vector<Slice> slice_state_;
  std::vector<uint32_t> held_ports_;   // ports with a request held
  std::vector<uint32_t> open_slices_;  // slices that may take a request now
  IndexBits ready_ports_;              // ports with replies that may go back
  uint64_t advanced_ = Crossbar::kNever;
  sc_core::sc_event wake_;
};

}  // namespace gpusoc::xbar
