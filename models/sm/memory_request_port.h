// How a cycle-level SM's requests leave it: approximately timed TLM-2.0 (base protocol,
// nb_transport) on `mem_initiator`, with backpressure. The data has already moved functionally
// (through DMI), so every request is a timing request: TLM_IGNORE_COMMAND with the GpuRequest
// extension (gpu_request.h), which carries its kind, direction, SM, warp and sector count.
//
// The SM runs ahead of SystemC time (temporal decoupling); it sends a request at its local time
// `when`, annotated as a delay from sc_time_stamp(). Per the base protocol:
//  - a target that knows the answer at once returns TLM_COMPLETED with the completion annotated:
//    the completion is known immediately (no SystemC event at all);
//  - otherwise END_REQ (returned or sent backward) frees the request channel, and BEGIN_RESP
//    arrives backward later; the port answers TLM_COMPLETED to it;
//  - while a request waits for END_REQ, no other request may be sent (request exclusion): that
//    is the backpressure, can_send() says false.
// Completions are collected in arrival order; the SM drains them with take_completions().
//
// The payloads are pooled, max_in_flight of them, each with a memory manager (the pool) so that
// targets and interconnects may hold them (acquire/release) as the base protocol allows; the data
// pointer of these timing-only payloads is a shared scratch buffer that nobody may touch. A DMI
// revocation from device memory goes to whoever holds the pointer (on_dmi_revoked: the SM's view
// of VRAM, which asks for it again).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/gpu_request.h"

namespace gpusoc::sm {

struct MemoryRequest {
  uint64_t address = 0;
  uint32_t bytes = 0;
  AccessKind kind = AccessKind::Load;  // Load, Store or Atomic
  AtomicOp atomic = AtomicOp::Add;     // kind Atomic: which one
  uint32_t warp = 0;
  uint32_t sectors = 0;
  uint32_t sector_mask = 0;  // 32-byte sectors from `address` that the request needs
  uint64_t tag = 0;          // the SM's, handed back with the completion
  /// Kind Texture (to a texture unit): what the request reads and filters (GpuRequest's).
  const std::vector<uint64_t>* texture_sectors = nullptr;
  uint32_t texels = 0;
  uint32_t quads = 0;
  bool texture_write = false;  // sust, sured: a write (GpuRequest::write)
};

struct MemoryCompletion {
  uint64_t tag;
  sc_core::sc_time time;  // absolute simulated time the response arrived
  bool error;             // the target answered with an error response
};

class MemoryRequestPort : public sc_core::sc_module {
 public:
  /// Optional, so that an SM's texture port may stay unbound in testbenches without a texture
  /// unit; owners whose port must be bound check bound() at the end of elaboration.
  tlm_utils::simple_initiator_socket_optional<MemoryRequestPort> mem_initiator;
  bool bound() const { return mem_initiator.size() > 0; }

  /// `max_in_flight`: requests sent whose completion is not yet known (payloads pooled).
  MemoryRequestPort(sc_core::sc_module_name name, uint32_t sm_id, uint32_t max_in_flight);
  ~MemoryRequestPort() override;

  /// Whether send() may be called: no request waits for END_REQ and fewer than max_in_flight
  /// requests are outstanding (strictly: a pooled payload is free; a component still holding one
  /// after its completion keeps it, which the memory target never does).
  bool can_send() const;
  /// Who to tell when device memory revokes DMI of [start, end] (nobody: the port itself holds
  /// no DMI pointer).
  void on_dmi_revoked(std::function<void(uint64_t start, uint64_t end)> listener) {
    dmi_listener_ = std::move(listener);
  }
  /// The largest request: a cache line (sm.l1.line_bytes is at most 1024).
  static constexpr uint32_t kMaxRequestBytes = 1024;
  /// Sends `r` at absolute simulated time `when` (not before sc_time_stamp()). A ModelError
  /// when can_send() is false, `when` is in the past or `r` has no bytes.
  void send(const MemoryRequest& r, const sc_core::sc_time& when);
  /// Moves the completions known so far into `out` (appended), in the order they became known.
  void take_completions(std::vector<MemoryCompletion>& out);
  bool has_completions() const { return !completions_.empty(); }
  /// Requests whose completion is not yet known.
  uint32_t in_flight() const { return in_flight_; }
  /// Whether the last request waits for END_REQ: the target's queue was full when it came.
  bool awaiting_end_req() const { return awaiting_end_req_ != nullptr; }
  /// Notified when something arrives backward (END_REQ or BEGIN_RESP): what an SM with nothing
  /// else to do waits on.
  const sc_core::sc_event& activity() const { return activity_; }

 private:
  struct Slot;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  /// Records the completion of the request in `slot` and gives back the port's hold on it.
  void complete(Slot& slot, const sc_core::sc_time& time);

  const uint32_t sm_id_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> free_;
  Slot* awaiting_end_req_ = nullptr;
  uint32_t in_flight_ = 0;
  std::vector<uint8_t> scratch_;  // the data pointer of every (timing-only) payload
  std::vector<MemoryCompletion> completions_;
  sc_core::sc_event activity_;
  std::function<void(uint64_t, uint64_t)> dmi_listener_;
};

}  // namespace gpusoc::sm
