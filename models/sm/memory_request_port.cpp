#include "models/sm/memory_request_port.h"

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc::sm {

// A pooled payload that is its own memory manager: when the last hold on it is released it goes
// back to the pool. The GpuRequest is a member, not the payload's to delete.
struct MemoryRequestPort::Slot final : tlm::tlm_generic_payload, tlm::tlm_mm_interface {
  explicit Slot(MemoryRequestPort& owner) : port(owner) {
    set_mm(this);
    set_extension(&request);
  }
  ~Slot() override { clear_extension(&request); }
  void free(tlm::tlm_generic_payload*) override { port.free_.push_back(this); }

  MemoryRequestPort& port;
  GpuRequest request;
  uint64_t tag = 0;
};

MemoryRequestPort::MemoryRequestPort(sc_core::sc_module_name name, uint32_t sm_id,
                                     uint32_t max_in_flight)
    : sc_module(name), mem_initiator("mem_initiator"), sm_id_(sm_id) {
  if (max_in_flight == 0) {
    throw ModelError(this->name(), "max_in_flight is 0: no request could ever be sent");
  }
  mem_initiator.register_nb_transport_bw(this, &MemoryRequestPort::nb_transport_bw);
  mem_initiator.register_invalidate_direct_mem_ptr(this,
                                                   &MemoryRequestPort::invalidate_direct_mem_ptr);
  slots_.reserve(max_in_flight);
  free_.reserve(max_in_flight);
  for (uint32_t i = 0; i < max_in_flight; ++i) {
    slots_.push_back(std::make_unique<Slot>(*this));
    slots_.back()->request.sm = sm_id_;
    free_.push_back(slots_.back().get());
  }
  completions_.reserve(max_in_flight);
  scratch_.resize(kMaxRequestBytes);
}

MemoryRequestPort::~MemoryRequestPort() = default;

bool MemoryRequestPort::can_send() const {
  return awaiting_end_req_ == nullptr && !free_.empty();
}

void MemoryRequestPort::send(const MemoryRequest& r, const sc_core::sc_time& when) {
  if (!can_send()) {
    throw ModelError(name(),
                     fmt::format("request {} sent while {}", r.tag,
                                 awaiting_end_req_ != nullptr ? "the previous one waits for END_REQ"
                                                              : "all payloads are in flight"));
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (when < now) {
    throw ModelError(name(), fmt::format("request {} sent at {}, before the simulation time {}",
                                         r.tag, when.to_string(), now.to_string()));
  }
  if (r.bytes == 0) throw ModelError(name(), fmt::format("request {} has no bytes", r.tag));
  Slot& slot = *free_.back();
  free_.pop_back();
  if (r.bytes > scratch_.size()) {  // payloads in flight point into scratch_: it never moves
    throw ModelError(
        name(), fmt::format("request {} of {} bytes: at most {}", r.tag, r.bytes, scratch_.size()));
  }
  slot.set_command(tlm::TLM_IGNORE_COMMAND);  // a timing request (gpu_request.h)
  slot.request.write = r.kind == AccessKind::Store || r.texture_write;
  slot.set_address(r.address);
  slot.set_data_ptr(scratch_.data());
  slot.set_data_length(r.bytes);
  slot.set_streaming_width(r.bytes);
  slot.set_byte_enable_ptr(nullptr);
  slot.set_byte_enable_length(0);
  slot.set_dmi_allowed(false);
  slot.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  slot.request.kind = r.kind;
  slot.request.atomic = r.atomic;
  slot.request.warp = r.warp;
  slot.request.sectors = r.sectors;
  slot.request.sector_mask = r.sector_mask;
  slot.request.texture_sectors.clear();
  if (r.texture_sectors) slot.request.texture_sectors = *r.texture_sectors;
  slot.request.texels = r.texels;
  slot.request.quads = r.quads;
  slot.tag = r.tag;
  slot.acquire();  // the port's hold, given back by complete()
  ++in_flight_;

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = when - now;
  switch (mem_initiator->nb_transport_fw(slot, phase, delay)) {
    case tlm::TLM_ACCEPTED:
      awaiting_end_req_ = &slot;
      return;
    case tlm::TLM_UPDATED:
      if (phase == tlm::END_REQ) return;  // BEGIN_RESP comes backward
      if (phase == tlm::BEGIN_RESP) {
        phase = tlm::END_RESP;
        sc_core::sc_time end_delay = delay;
        mem_initiator->nb_transport_fw(slot, phase, end_delay);
        complete(slot, now + delay);
        return;
      }
      throw ModelError(name(),
                       fmt::format("the target answered BEGIN_REQ with {}", phase.get_name()));
    case tlm::TLM_COMPLETED:
      complete(slot, now + delay);
      return;
  }
}

void MemoryRequestPort::complete(Slot& slot, const sc_core::sc_time& time) {
  completions_.push_back(MemoryCompletion{slot.tag, time, !slot.is_response_ok()});
  --in_flight_;
  slot.release();
}

void MemoryRequestPort::take_completions(std::vector<MemoryCompletion>& out) {
  out.insert(out.end(), completions_.begin(), completions_.end());
  completions_.clear();
}

tlm::tlm_sync_enum MemoryRequestPort::nb_transport_bw(tlm::tlm_generic_payload& tx,
                                                      tlm::tlm_phase& phase,
                                                      sc_core::sc_time& delay) {
  Slot& slot = static_cast<Slot&>(tx);  // only the port's own payloads come back to it
  activity_.notify(delay);
  if (phase == tlm::END_REQ && awaiting_end_req_ == &slot) {
    awaiting_end_req_ = nullptr;
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (awaiting_end_req_ == &slot) awaiting_end_req_ = nullptr;  // BEGIN_RESP implies END_REQ
    complete(slot, sc_core::sc_time_stamp() + delay);
    return tlm::TLM_COMPLETED;
  }
  throw ModelError(
      name(), fmt::format("{} on the backward path for request {}{}", phase.get_name(), slot.tag,
                          phase == tlm::END_REQ ? ", which was not waiting for it" : ""));
}

void MemoryRequestPort::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (dmi_listener_) dmi_listener_(start, end);
}

}  // namespace gpusoc::sm
