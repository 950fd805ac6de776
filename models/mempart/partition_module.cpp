#include "models/mempart/partition_module.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/packet_payload.h"

namespace gpusoc::mempart {

PartitionModule::PartitionModule(sc_core::sc_module_name name, uint32_t index,
                                 const AddressMapping& mapping,
                                 std::shared_ptr<const DramTiming> timing,
                                 const ControllerConfig& controller, StatGroup& stats_parent,
                                 const std::string& prefix, uint32_t pipeline_tck)
    : sc_module(name),
      target("target"),
      partition_(index, mapping, timing, controller, stats_parent, prefix, pipeline_tck),
      clock_(timing->tck_ns * 1000.0) {
  target.register_nb_transport_fw(this, &PartitionModule::nb_transport_fw);
  SC_HAS_PROCESS(PartitionModule);
  SC_METHOD(step);
  sensitive << wake_;
  dont_initialize();
}

void PartitionModule::catch_up(uint64_t cycle) {
  if (cycle == 0 || (advanced_ != MemoryPartition::kNever && advanced_ >= cycle - 1)) return;
  partition_.advance(cycle - 1);
  advanced_ = cycle - 1;
}

void PartitionModule::enter(tlm::tlm_generic_payload& tx, const MemPacket& packet,
                            uint64_t cycle) {
  MemPacket p = packet;
  p.id = slots_.put(tx);
  catch_up(cycle);
  partition_.accept(p, std::max(cycle, advanced_ == MemoryPartition::kNever ? 0 : advanced_));
  ++in_flight_;
}

tlm::tlm_sync_enum PartitionModule::nb_transport_fw(tlm::tlm_generic_payload& tx,
                                                    tlm::tlm_phase& phase,
                                                    sc_core::sc_time& delay) {
  if (phase == tlm::END_RESP) {
    if (!response_open_) throw ModelError(name(), "END_RESP with no response open");
    response_open_ = false;
    slots_.done(partition_.reply().id);
    partition_.pop_reply();
    --in_flight_;
    wake_.notify(delay);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ) {
    throw ModelError(name(), fmt::format("unexpected phase {} on the forward path", phase));
  }
  if (held_) {
    throw ModelError(name(), "BEGIN_REQ before END_REQ of the previous request "
                             "(request exclusion, IEEE 1666 15.2.1)");
  }
  const MemPacket packet = packet_of(tx);
  const uint64_t cycle = clock_.cycle_at(sc_core::sc_time_stamp() + delay);
  if (tx.has_mm()) tx.acquire();  // ours until the response is over
  wake_.notify(delay);
  catch_up(cycle);  // its room as of the cycle before
  if (!partition_.can_accept(packet)) {
    held_ = &tx;
    held_packet_ = packet;
    held_cycle_ = cycle;
    return tlm::TLM_ACCEPTED;
  }
  enter(tx, packet, cycle);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void PartitionModule::send_responses(uint64_t cycle) {
  while (!response_open_ && partition_.reply_ready(cycle)) {
    const uint64_t slot = partition_.reply().id;
    tlm::tlm_generic_payload& tx = slots_[slot];
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    response_open_ = true;  // before the call: END_RESP may come from inside it
    if (target->nb_transport_bw(tx, phase, delay) == tlm::TLM_ACCEPTED) return;  // END_RESP pops
    response_open_ = false;
    slots_.done(slot);
    partition_.pop_reply();
    --in_flight_;
  }
}

void PartitionModule::step() {
  const uint64_t cycle = clock_.now();
  catch_up(cycle);
  if (advanced_ == MemoryPartition::kNever || cycle > advanced_) advanced_ = cycle;
  partition_.advance(advanced_);  // again at the same cycle: what entered since
  send_responses(advanced_);
  if (held_ && partition_.can_accept(held_packet_)) {
    tlm::tlm_generic_payload& tx = *held_;
    held_ = nullptr;
    enter(tx, held_packet_, std::max(cycle, held_cycle_));
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    target->nb_transport_bw(tx, phase, delay);
  }
  if (in_flight_ == 0) return;  // idle: sleep until a packet arrives
  const uint64_t next = partition_.next_event();
  if (next != MemoryPartition::kNever) wake_.notify(clock_.until(std::max(next, cycle + 1)));
}

}  // namespace gpusoc::mempart
