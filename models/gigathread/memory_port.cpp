#include "models/gigathread/memory_port.h"

#include <algorithm>
#include <cstring>

namespace gpusoc::gigathread {

const char* response_text(tlm::tlm_response_status status) {
  switch (status) {
    case tlm::TLM_OK_RESPONSE:
      return "ok";
    case tlm::TLM_INCOMPLETE_RESPONSE:
      return "no response (incomplete)";
    case tlm::TLM_GENERIC_ERROR_RESPONSE:
      return "generic error";
    case tlm::TLM_ADDRESS_ERROR_RESPONSE:
      return "address error";
    case tlm::TLM_COMMAND_ERROR_RESPONSE:
      return "command error";
    case tlm::TLM_BURST_ERROR_RESPONSE:
      return "burst error";
    case tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE:
      return "byte enable error";
  }
  return "unknown response";
}

MemoryPort::MemoryPort(tlm::tlm_initiator_socket<>& socket, bool use_dmi)
    : socket_(socket), use_dmi_(use_dmi) {
  request_.sm = ~0u;
  request_.kind = AccessKind::Dma;
}

tlm::tlm_response_status MemoryPort::read(uint64_t address, void* data, uint64_t bytes) {
  return access(tlm::TLM_READ_COMMAND, address, static_cast<uint8_t*>(data), bytes);
}

tlm::tlm_response_status MemoryPort::write(uint64_t address, const void* data, uint64_t bytes) {
  // The payload's data pointer is not const; a write never modifies it.
  return access(tlm::TLM_WRITE_COMMAND, address,
                const_cast<uint8_t*>(static_cast<const uint8_t*>(data)), bytes);
}

void MemoryPort::invalidate(uint64_t start, uint64_t end) {
  if (dmi_valid_ && start <= dmi_.get_end_address() && end >= dmi_.get_start_address())
    dmi_valid_ = false;
  refusal_valid_ = false;  // the map changed: the next access may ask again
}

bool MemoryPort::try_dmi(tlm::tlm_command cmd, uint64_t address, uint8_t* data, uint64_t bytes) {
  auto holds = [&](const tlm::tlm_dmi& d) {
    return address >= d.get_start_address() && address + bytes - 1 <= d.get_end_address();
  };
  if (!dmi_valid_ || !holds(dmi_)) {
    if (refusal_valid_ && holds(refusal_)) return false;
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(address);
    tlm::tlm_dmi granted;
    if (!socket_->get_direct_mem_ptr(tx, granted)) {
      refusal_ = granted;
      refusal_valid_ = true;
      return false;
    }
    dmi_ = granted;
    dmi_valid_ = true;
    if (!holds(dmi_)) return false;
  }
  const bool is_read = cmd == tlm::TLM_READ_COMMAND;
  if (is_read ? !dmi_.is_read_allowed() : !dmi_.is_write_allowed()) return false;
  uint8_t* memory = dmi_.get_dmi_ptr() + (address - dmi_.get_start_address());
  if (is_read) {
    std::memcpy(data, memory, bytes);
  } else {
    std::memcpy(memory, data, bytes);
  }
  sc_core::wait(is_read ? dmi_.get_read_latency() : dmi_.get_write_latency());
  return true;
}

tlm::tlm_response_status MemoryPort::access(tlm::tlm_command cmd, uint64_t address, uint8_t* data,
                                            uint64_t bytes) {
  if (bytes == 0) return tlm::TLM_OK_RESPONSE;
  if (address + bytes < address) return tlm::TLM_ADDRESS_ERROR_RESPONSE;  // wraps 2^64
  if (use_dmi_ && try_dmi(cmd, address, data, bytes)) return tlm::TLM_OK_RESPONSE;
  tlm::tlm_generic_payload tx;
  tx.set_extension(&request_);
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  while (bytes > 0) {
    const uint64_t to_boundary = kMaxRequestBytes - (address & (kMaxRequestBytes - 1));
    const uint64_t chunk = std::min(bytes, to_boundary);
    tx.set_command(cmd);
    tx.set_address(address);
    tx.set_data_ptr(data);
    tx.set_data_length(unsigned(chunk));
    tx.set_streaming_width(unsigned(chunk));
    tx.set_byte_enable_ptr(nullptr);
    tx.set_dmi_allowed(false);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket_->b_transport(tx, delay);
    sc_core::wait(delay);
    status = tx.get_response_status();
    if (status != tlm::TLM_OK_RESPONSE) break;
    address += chunk;
    data += chunk;
    bytes -= chunk;
  }
  tx.clear_extension(&request_);
  return status;
}

}  // namespace gpusoc::gigathread
