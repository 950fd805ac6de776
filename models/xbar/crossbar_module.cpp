#include "models/xbar/crossbar_module.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/packet_payload.h"

namespace gpusoc::xbar {

CrossbarModule::CrossbarModule(sc_core::sc_module_name name, const CrossbarConfig& config,
                               uint32_t port_count, uint32_t slice_count,
                               std::function<uint32_t(uint64_t)> slice_of, double clock_mhz,
                               StatGroup& stats_parent)
    : sc_module(name),
      ports("ports"),
      slices("slices"),
      port_count_(port_count),
      slice_count_(slice_count),
      slice_of_(std::move(slice_of)),
      clock_(1e6 / clock_mhz),
      requests_(config, port_count, slice_count, true, stats_parent, "xbar"),
      replies_(config, slice_count, port_count, false, stats_parent, "xbar"),
      port_state_(port_count),
      slice_state_(slice_count),
      ready_ports_(port_count) {
  ports.register_nb_transport_fw(this, &CrossbarModule::port_fw);
  slices.register_nb_transport_bw(this, &CrossbarModule::slice_bw);
  SC_HAS_PROCESS(CrossbarModule);
  SC_METHOD(step);
  sensitive << wake_;
  dont_initialize();
}

void CrossbarModule::end_of_elaboration() {
  if (ports.size() != port_count_ || slices.size() != slice_count_) {
    throw ModelError(name(), fmt::format("{} ports and {} slices bound, configured for {} and {}",
                                         ports.size(), slices.size(), port_count_,
                                         slice_count_));
  }
}

uint32_t CrossbarModule::tag(tlm::tlm_generic_payload& tx) {
  if (free_slots_.empty()) {
    slots_.push_back({});
    free_slots_.push_back(uint32_t(slots_.size() - 1));
  }
  const uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  slots_[slot].tx = &tx;
  slot_of_[&tx] = slot;
  if (tx.has_mm()) tx.acquire();
  return slot;
}

void CrossbarModule::release(uint32_t slot) {
  tlm::tlm_generic_payload* tx = slots_[slot].tx;
  slot_of_.erase(tx);
  free_slots_.push_back(slot);
  if (tx->has_mm()) tx->release();
}

void CrossbarModule::push_request(uint32_t port, tlm::tlm_generic_payload& tx, uint64_t cycle) {
  const uint32_t slot = tag(tx);
  MemPacket& p = slots_[slot].packet;
  p = packet_of(tx);
  p.id = slot;
  p.source = uint16_t(port);
  const uint32_t slice = slice_of_(p.address);
  if (slice >= slice_count_) {
    throw ModelError(name(), fmt::format("the address {:#x} maps to slice {} of {}", p.address,
                                         slice, slice_count_));
  }
  requests_.push(port, slice, p, std::max(cycle, advanced_ == Crossbar::kNever ? 0 : advanced_));
}

tlm::tlm_sync_enum CrossbarModule::port_fw(int id, tlm::tlm_generic_payload& tx,
                                           tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  Port& port = port_state_.at(size_t(id));
  if (phase == tlm::END_RESP) {
    if (!port.response_open)
      throw ModelError(name(), fmt::format("END_RESP on port {} with no response open", id));
    port.response_open = false;
    const uint32_t slot = uint32_t(replies_.front(uint32_t(id)).id);
    replies_.pop(uint32_t(id));
    release(slot);
    ready_ports_.insert(uint32_t(id));  // its next reply may go
    wake_.notify(delay);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ)
    throw ModelError(name(), fmt::format("unexpected phase {} on port {}", phase, id));
  if (port.held) {
    throw ModelError(name(), fmt::format("BEGIN_REQ on port {} before END_REQ of the previous "
                                         "one (request exclusion, IEEE 1666 15.2.1)",
                                         id));
  }
  if (!tx.get_extension<MemPacketExtension>()) {
    throw ModelError(name(), fmt::format("a request at {:#x} on port {} without a "
                                         "MemPacketExtension: the crossbar takes packets",
                                         tx.get_address(), id));
  }
  wake_.notify(delay);
  if (!requests_.can_accept(uint32_t(id))) {
    port.held = &tx;
    port.held_cycle = clock_.cycle_at(sc_core::sc_time_stamp() + delay);
    held_ports_.push_back(uint32_t(id));
    return tlm::TLM_ACCEPTED;
  }
  push_request(uint32_t(id), tx, clock_.cycle_at(sc_core::sc_time_stamp() + delay));
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

tlm::tlm_sync_enum CrossbarModule::slice_bw(int id, tlm::tlm_generic_payload& tx,
                                            tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  Slice& slice = slice_state_.at(size_t(id));
  if (phase == tlm::END_REQ || (phase == tlm::BEGIN_RESP && slice.request_open == &tx)) {
    if (slice.request_open != &tx)
      throw ModelError(name(), fmt::format("END_REQ from slice {} for no request open", id));
    slice.request_open = nullptr;
    requests_.pop(uint32_t(id));
    open_slices_.push_back(uint32_t(id));  // its next request may go
    wake_.notify(delay);
    if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  }
  if (phase != tlm::BEGIN_RESP)
    throw ModelError(name(), fmt::format("unexpected phase {} from slice {}", phase, id));
  if (!slice.waiting.empty() && slice.waiting.back().owes_end_resp)
    throw ModelError(name(), fmt::format("BEGIN_RESP from slice {} before END_RESP of the "
                                         "previous one (response exclusion)",
                                         id));
  if (slot_of_.find(&tx) == slot_of_.end())
    throw ModelError(name(), fmt::format("slice {} answered a payload it was never sent", id));
  wake_.notify(delay);
  if (!slice.waiting.empty() || !replies_.can_accept(uint32_t(id))) {
    slice.waiting.push_back({&tx, true, clock_.cycle_at(sc_core::sc_time_stamp() + delay)});
    return tlm::TLM_ACCEPTED;
  }
  reply(uint32_t(id), tx, clock_.cycle_at(sc_core::sc_time_stamp() + delay));
  return tlm::TLM_COMPLETED;
}

// The reply into the reply network, towards the port its packet came from.
void CrossbarModule::reply(uint32_t slice, tlm::tlm_generic_payload& tx, uint64_t cycle) {
  const MemPacket& p = slots_[slot_of_.at(&tx)].packet;
  replies_.push(slice, p.source, p,
                std::max(cycle, advanced_ == Crossbar::kNever ? 0 : advanced_));
}

// Packets ready at the slices' outputs go to their slices, one request open per slice.
bool CrossbarModule::forward_requests(uint64_t cycle) {
  for (uint32_t s : requests_.delivered()) open_slices_.push_back(s);
  bool moved = false;
  std::vector<uint32_t> open;  // a slice answering from inside a call may add to open_slices_
  open.swap(open_slices_);
  for (uint32_t s : open) {
    Slice& slice = slice_state_[s];
    while (!slice.request_open && slice.waiting.empty() && requests_.ready(s, cycle)) {
      tlm::tlm_generic_payload& tx = *slots_[requests_.front(s).id].tx;
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      slice.request_open = &tx;
      const tlm::tlm_sync_enum answer = slices[s]->nb_transport_fw(tx, phase, delay);
      if (answer == tlm::TLM_ACCEPTED) break;
      slice.request_open = nullptr;
      requests_.pop(s);
      moved = true;
      if (answer == tlm::TLM_COMPLETED || phase == tlm::BEGIN_RESP) {  // early completion
        slice.waiting.push_back({&tx, answer != tlm::TLM_COMPLETED,
                                 clock_.cycle_at(sc_core::sc_time_stamp() + delay)});
        wake_.notify(delay);  // it enters the reply network at take_replies()
      }
    }
  }
  return moved;
}

// Replies waiting for room in the reply network, oldest first, now that it may have some.
bool CrossbarModule::take_replies(uint64_t cycle) {
  bool moved = false;
  for (uint32_t s = 0; s < slice_count_; ++s) {
    Slice& slice = slice_state_[s];
    while (!slice.waiting.empty() && slice.waiting.front().ready <= cycle &&
           replies_.can_accept(s)) {
      const WaitingReply w = slice.waiting.front();
      slice.waiting.pop_front();
      reply(s, *w.tx, cycle);
      if (w.owes_end_resp) {
        tlm::tlm_phase phase = tlm::END_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        slices[s]->nb_transport_fw(*w.tx, phase, delay);
      }
      open_slices_.push_back(s);  // its requests may go again
      moved = true;
    }
  }
  return moved;
}

// Replies at the ports' outputs go back to their requesters, one response open per port.
bool CrossbarModule::deliver_replies(uint64_t cycle) {
  for (uint32_t p : replies_.delivered()) ready_ports_.insert(p);
  bool moved = false;
  ready_ports_.take([&](uint32_t p) {
    Port& port = port_state_[p];
    while (!port.response_open && replies_.ready(p, cycle)) {
      const uint32_t slot = uint32_t(replies_.front(p).id);
      tlm::tlm_generic_payload& tx = *slots_[slot].tx;
      tx.set_response_status(tlm::TLM_OK_RESPONSE);
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      port.response_open = true;  // before the call: END_RESP may come from inside it
      if (ports[p]->nb_transport_bw(tx, phase, delay) == tlm::TLM_ACCEPTED) break;  // END_RESP pops
      port.response_open = false;
      replies_.pop(p);
      release(slot);
      moved = true;
    }
  });
  return moved;
}

bool CrossbarModule::admit_held(uint64_t cycle) {
  bool moved = false;
  for (size_t i = 0; i < held_ports_.size();) {
    const uint32_t p = held_ports_[i];
    if (!requests_.can_accept(p)) {
      ++i;
      continue;
    }
    tlm::tlm_generic_payload& tx = *port_state_[p].held;
    port_state_[p].held = nullptr;
    held_ports_[i] = held_ports_.back();
    held_ports_.pop_back();
    push_request(p, tx, std::max(cycle, port_state_[p].held_cycle));
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    ports[p]->nb_transport_bw(tx, phase, delay);
    moved = true;
  }
  return moved;
}

void CrossbarModule::step() {
  const uint64_t cycle = clock_.now();
  uint64_t next = Crossbar::kNever;
  for (int round = 0; round < 64; ++round) {
    requests_.advance(cycle);
    advanced_ = cycle;
    bool moved = forward_requests(cycle);
    moved |= take_replies(cycle);
    replies_.advance(cycle);
    moved |= deliver_replies(cycle);
    moved |= admit_held(cycle);
    next = std::min(requests_.next_event(), replies_.next_event());
    if (!moved || (next > cycle && open_slices_.empty())) break;
  }
  for (const Slice& slice : slice_state_)  // early completions still to enter
    if (!slice.waiting.empty() && slice.waiting.front().ready > cycle)
      next = std::min(next, slice.waiting.front().ready);
  if (next != Crossbar::kNever) wake_.notify(clock_.until(std::max(next, cycle + 1)));
}

}  // namespace gpusoc::xbar
