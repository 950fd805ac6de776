// A memory partition as a SystemC module (memory.model = tlm): the MemoryPartition behind a
// TLM-2.0 target socket, approximately timed under the base protocol.
//
//  - BEGIN_REQ carries a packet (packet_payload.h: the extension, or the sectors a standard
//    READ/WRITE spans, so that any AT initiator may drive it). A packet the controllers have
//    room for enters at the DRAM cycle of its arrival (sc_time_stamp() + delay) and is answered
//    TLM_UPDATED with END_REQ; otherwise TLM_ACCEPTED, and END_REQ goes backward when room
//    appears: one request open at a time, so a full controller queue holds its initiator.
//  - BEGIN_RESP goes backward at the DRAM cycle the packet's last burst completes (plus the
//    pipeline latency), replies in completion order, one response open at a time: a response
//    the initiator answers TLM_ACCEPTED holds the next until its END_RESP.
//  - Its process runs at the partition's next event and sleeps while nothing is in flight;
//    refreshes due meanwhile are caught up, in order, when the next packet arrives (as the
//    fused MemoryHierarchy does).
// Statistics are the MemoryPartition's (stats_parent.partition<index>).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/cycle_clock.h"
#include "models/common/packet_payload.h"
#include "models/mempart/memory_partition.h"

namespace gpusoc::mempart {

class PartitionModule : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PartitionModule> target;

  /// As MemoryPartition's constructor; the module's clock is the DRAM command clock (tCK).
  PartitionModule(sc_core::sc_module_name name, uint32_t index, const AddressMapping& mapping,
                  std::shared_ptr<const DramTiming> timing, const ControllerConfig& controller,
                  StatGroup& stats_parent, const std::string& prefix, uint32_t pipeline_tck);

  const MemoryPartition& partition() const { return partition_; }
  MemoryPartition& partition() { return partition_; }
  const CycleClock& clock() const { return clock_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void step();  // SC_METHOD: advance, answer, admit what waited, sleep until the next event
  void enter(tlm::tlm_generic_payload& tx, const MemPacket& packet, uint64_t cycle);
  void catch_up(uint64_t cycle);  // everything due before `cycle`
  void send_responses(uint64_t cycle);

  MemoryPartition partition_;
  CycleClock clock_;
  PayloadSlots slots_;  // packets in flight, by the id they carry here
  tlm::tlm_generic_payload* held_ = nullptr;  // BEGIN_REQ waiting for room
  MemPacket held_packet_;
  uint64_t held_cycle_ = 0;  // its arrival
  bool response_open_ = false;
  uint64_t in_flight_ = 0;
  uint64_t advanced_ = MemoryPartition::kNever;  // the cycle last advanced through
  sc_core::sc_event wake_;
};

}  // namespace gpusoc::mempart
