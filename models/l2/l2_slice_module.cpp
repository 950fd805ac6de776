#include "models/l2/l2_slice_module.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc::l2 {

L2SliceModule::L2SliceModule(sc_core::sc_module_name name, const L2Config& config,
                             const mempart::RopConfig& rop, double clock_mhz,
                             StatGroup& stats_parent, const std::string& prefix,
                             const mempart::AddressMapping* mapping)
    : sc_module(name),
      target("target"),
      memory("memory"),
      rop_(std::make_unique<mempart::Rop>(rop, stats_parent, "rop")),
      slice_(config, *rop_, stats_parent, prefix, mapping),
      clock_(1e6 / clock_mhz),
      pool_(config.line_bytes) {
  target.register_nb_transport_fw(this, &L2SliceModule::nb_transport_fw);
  memory.register_nb_transport_bw(this, &L2SliceModule::nb_transport_bw);
  SC_HAS_PROCESS(L2SliceModule);
  SC_METHOD(step);
  sensitive << wake_;
  dont_initialize();
}

void L2SliceModule::bring_to(uint64_t cycle) {
  if (advanced_ != L2Slice::kNever && advanced_ >= cycle) return;
  slice_.advance(cycle);
  advanced_ = cycle;
}

void L2SliceModule::enter(tlm::tlm_generic_payload& tx, uint64_t cycle) {
  MemPacket p = packet_of(tx);
  p.id = slots_.put(tx);  // the reply finds its payload by it; the payload keeps the requester's id
  if (cycle > 0) bring_to(cycle - 1);  // what was due before it, as if stepped all along
  slice_.accept(p, std::max(cycle, advanced_ == L2Slice::kNever ? 0 : advanced_));
}

tlm::tlm_sync_enum L2SliceModule::nb_transport_fw(tlm::tlm_generic_payload& tx,
                                                  tlm::tlm_phase& phase,
                                                  sc_core::sc_time& delay) {
  if (phase == tlm::END_RESP) {
    if (!reply_open_) throw ModelError(name(), "END_RESP with no response open");
    reply_open_ = false;
    const uint64_t slot = slice_.reply().id;
    slice_.pop_reply();
    slots_.done(slot);
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
  if (!tx.get_extension<MemPacketExtension>()) {
    throw ModelError(name(), fmt::format("a request at {:#x} without a MemPacketExtension: the "
                                         "slice's target takes packets of the crossbar",
                                         tx.get_address()));
  }
  if (tx.has_mm()) tx.acquire();
  wake_.notify(delay);
  const uint64_t cycle = clock_.cycle_at(sc_core::sc_time_stamp() + delay);
  if (cycle > 0) bring_to(cycle - 1);  // its room as of the cycle before
  if (!slice_.can_accept()) {
    held_ = &tx;
    held_cycle_ = cycle;
    return tlm::TLM_ACCEPTED;
  }
  enter(tx, cycle);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void L2SliceModule::memory_request_taken() {
  slice_.pop_memory_request();
  wake_.notify(sc_core::SC_ZERO_TIME);
}

// A fill or write-back answered at `at`: the slice hears of it at that cycle.
void L2SliceModule::memory_done(tlm::tlm_generic_payload& tx, const sc_core::sc_time& at) {
  if (!tx.is_response_ok()) {
    throw ModelError(name(), fmt::format("memory answered the {} at {:#x} with {}",
                                         tx.is_write() ? "write-back" : "fill", tx.get_address(),
                                         tx.get_response_string()));
  }
  const uint64_t id = packet_of(tx).id;
  tx.release();
  const uint64_t cycle = clock_.cycle_at(at);
  if (at > sc_core::sc_time_stamp()) {
    later_.emplace(cycle, id);
    wake_.notify(at - sc_core::sc_time_stamp());
    return;
  }
  bring_to(cycle);
  slice_.memory_reply(id, std::max(cycle, advanced_));
  wake_.notify(sc_core::SC_ZERO_TIME);
}

tlm::tlm_sync_enum L2SliceModule::nb_transport_bw(tlm::tlm_generic_payload& tx,
                                                  tlm::tlm_phase& phase,
                                                  sc_core::sc_time& delay) {
  const bool open = memory_open_ == &tx;
  if (phase == tlm::END_REQ) {
    if (!open) throw ModelError(name(), "END_REQ for no request open to memory");
    memory_open_ = nullptr;
    memory_request_taken();
    return tlm::TLM_ACCEPTED;
  }
  if (phase != tlm::BEGIN_RESP) {
    throw ModelError(name(), fmt::format("unexpected phase {} on the backward path", phase));
  }
  if (open) {  // BEGIN_RESP stands for END_REQ too
    memory_open_ = nullptr;
    memory_request_taken();
  }
  memory_done(tx, sc_core::sc_time_stamp() + delay);
  return tlm::TLM_COMPLETED;
}

// Hands the slice's memory packets over while the partition takes them.
bool L2SliceModule::send_memory_requests() {
  bool moved = false;
  while (!memory_open_ && slice_.has_memory_request()) {
    tlm::tlm_generic_payload& tx = pool_.get(slice_.memory_request());
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    memory_open_ = &tx;
    const tlm::tlm_sync_enum answer = memory->nb_transport_fw(tx, phase, delay);
    if (answer == tlm::TLM_ACCEPTED) return moved;  // END_REQ (or BEGIN_RESP) pops it
    memory_open_ = nullptr;
    slice_.pop_memory_request();
    moved = true;
    if (answer == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
      // The response came as the return value: it ends with our END_RESP (no response
      // exclusion to wait for: we take every response at once).
      tx.acquire();  // memory_done() releases it; the END_RESP call still needs it
      memory_done(tx, sc_core::sc_time_stamp() + delay);
      tlm::tlm_phase end = tlm::END_RESP;
      sc_core::sc_time at = delay;
      memory->nb_transport_fw(tx, end, at);
      tx.release();
    } else if (answer == tlm::TLM_COMPLETED) {
      memory_done(tx, sc_core::sc_time_stamp() + delay);
    }
  }
  return moved;
}

bool L2SliceModule::send_replies(uint64_t cycle) {
  bool moved = false;
  while (!reply_open_ && slice_.reply_ready(cycle)) {
    const uint64_t slot = slice_.reply().id;
    tlm::tlm_generic_payload& tx = slots_[slot];
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    reply_open_ = true;  // before the call: END_RESP may come from inside it
    const tlm::tlm_sync_enum answer = target->nb_transport_bw(tx, phase, delay);
    if (answer == tlm::TLM_ACCEPTED) return moved;  // END_RESP pops it (perhaps done already)
    reply_open_ = false;
    slice_.pop_reply();
    slots_.done(slot);
    moved = true;
  }
  return moved;
}

bool L2SliceModule::admit_held(uint64_t cycle) {
  if (!held_ || !slice_.can_accept()) return false;
  tlm::tlm_generic_payload& tx = *held_;
  held_ = nullptr;
  enter(tx, std::max(cycle, held_cycle_));
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  target->nb_transport_bw(tx, phase, delay);
  return true;
}

void L2SliceModule::step() {
  const uint64_t cycle = clock_.now();
  while (!later_.empty() && later_.top().first <= cycle) {
    bring_to(later_.top().first);
    slice_.memory_reply(later_.top().second, std::max(later_.top().first, advanced_));
    later_.pop();
  }
  // Handing over may make room (a pop) that the slice uses in the same cycle: its next event is
  // then this cycle again, once.
  uint64_t next = L2Slice::kNever;
  for (int round = 0; round < 64; ++round) {
    bring_to(cycle);
    slice_.advance(advanced_);  // again at the same cycle: what a pop made room for
    const bool moved = send_memory_requests() | send_replies(cycle) | admit_held(cycle);
    next = slice_.next_event();
    if (next > cycle || !moved) break;
  }
  if (!later_.empty()) next = std::min(next, later_.top().first);
  if (next != L2Slice::kNever) wake_.notify(clock_.until(std::max(next, cycle + 1)));
}

}  // namespace gpusoc::l2
