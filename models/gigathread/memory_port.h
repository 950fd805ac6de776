// Blocking reads and writes through one of the command processor's initiator sockets, called
// from its channel threads. Each access is split at 4 KiB boundaries (as PCIe requests are),
// travels as b_transport, or as a copy through DMI where the target grants it, and the calling
// thread waits out the delay at once: a channel never runs ahead of simulated time.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

#include "models/common/gpu_request.h"

namespace gpusoc::gigathread {

/// "address error", "command error", ... for error messages.
const char* response_text(tlm::tlm_response_status status);

class MemoryPort {
 public:
  /// `socket` must outlive the port; DMI is asked for only when `use_dmi`.
  MemoryPort(tlm::tlm_initiator_socket<>& socket, bool use_dmi);

  /// TLM_OK_RESPONSE, or the first error response (the rest of the access is not attempted).
  tlm::tlm_response_status read(uint64_t address, void* data, uint64_t bytes);
  tlm::tlm_response_status write(uint64_t address, const void* data, uint64_t bytes);

  /// The target withdrew DMI for [start, end] (the socket's backward path).
  void invalidate(uint64_t start, uint64_t end);

  static constexpr uint64_t kMaxRequestBytes = 4096;

 private:
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t address, uint8_t* data,
                                  uint64_t bytes);
  /// Copies through DMI when a granted region holds [address, +bytes); false otherwise.
  bool try_dmi(tlm::tlm_command cmd, uint64_t address, uint8_t* data, uint64_t bytes);

  tlm::tlm_initiator_socket<>& socket_;
  bool use_dmi_;
  bool dmi_valid_ = false;
  tlm::tlm_dmi dmi_;
  bool refusal_valid_ = false;  // the target refused DMI over this range: do not ask again
  tlm::tlm_dmi refusal_;
  GpuRequest request_;  // marks the accesses as DMA of a non-SM unit
};

}  // namespace gpusoc::gigathread
