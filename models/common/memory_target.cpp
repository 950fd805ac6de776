#include "models/common/memory_target.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/gpu_request.h"

namespace gpusoc {

MemoryTarget::MemoryTarget(sc_core::sc_module_name name, const MemoryTargetConfig& config,
                           StatGroup& stats_parent)
    : sc_module(name),
      target("target"),
      config_(config),
      port_(sc_core::sc_time(100, sc_core::SC_NS).value()),
      stats_(stats_parent, basename()) {
  if (config_.size == 0) throw ModelError(this->name(), "memory size is zero");
  if (config_.size - 1 > std::numeric_limits<uint64_t>::max() - config_.base) {
    throw ModelError(this->name(), fmt::format("{:#x} bytes at {:#x} wrap around the address "
                                               "space",
                                               config_.size, config_.base));
  }
  if (!(config_.bytes_per_ns >= 0)) {
    throw ModelError(this->name(),
                     fmt::format("bandwidth {} bytes/ns is negative", config_.bytes_per_ns));
  }
  // MAP_NORESERVE: untouched pages cost neither RAM nor swap, so a 16 GiB memory is free
  // until a program writes to it.
  void* p = mmap(nullptr, config_.size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw ModelError(this->name(), fmt::format("cannot map {:#x} bytes of backing memory: {}",
                                               config_.size, std::strerror(errno)));
  }
  data_ = static_cast<uint8_t*>(p);
  target.register_b_transport(this, &MemoryTarget::b_transport);
  target.register_transport_dbg(this, &MemoryTarget::transport_dbg);
  target.register_get_direct_mem_ptr(this, &MemoryTarget::get_direct_mem_ptr);
}

MemoryTarget::~MemoryTarget() {
  munmap(data_, config_.size);
}

bool MemoryTarget::contains(uint64_t address, uint64_t bytes) const {
  if (address < config_.base) return false;
  const uint64_t offset = address - config_.base;
  return offset < config_.size && bytes <= config_.size - offset;
}

uint8_t* MemoryTarget::backdoor(uint64_t address, uint64_t bytes) {
  if (!contains(address, bytes)) {
    throw ModelError(name(),
                     fmt::format("backdoor access of {:#x} bytes at {:#x} lies outside "
                                 "[{:#x}, {:#x})",
                                 bytes, address, config_.base, config_.base + config_.size));
  }
  return data_ + (address - config_.base);
}

void MemoryTarget::transfer(tlm::tlm_generic_payload& tx, uint64_t offset) const {
  uint8_t* data = tx.get_data_ptr();
  uint8_t* memory = data_ + offset;
  const unsigned length = tx.get_data_length();
  const unsigned width = tx.get_streaming_width();
  const uint8_t* enables = tx.get_byte_enable_ptr();
  const bool read = tx.is_read();
  if (enables == nullptr && (width == 0 || width >= length)) {
    if (read) {
      std::memcpy(data, memory, length);
    } else {
      std::memcpy(memory, data, length);
    }
    return;
  }
  const unsigned wrap = width == 0 ? length : width;
  const unsigned enable_length = tx.get_byte_enable_length();
  for (unsigned i = 0; i < length; ++i) {
    if (enables != nullptr && enables[i % enable_length] == TLM_BYTE_DISABLED) continue;
    if (read) {
      data[i] = memory[i % wrap];
    } else {
      memory[i % wrap] = data[i];
    }
  }
}

void MemoryTarget::b_transport(int, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  tx.set_dmi_allowed(config_.allow_dmi);
  const unsigned length = tx.get_data_length();
  const unsigned width = tx.get_streaming_width();
  const uint64_t span = width != 0 && width < length ? width : length;
  const GpuRequest* request = tx.get_extension<GpuRequest>();
  const bool timing_only = request != nullptr && request->timing_only;
  if (!contains(tx.get_address(), std::max<uint64_t>(span, 1))) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++stats_.errors;
    return;
  }
  if ((tx.get_command() == tlm::TLM_IGNORE_COMMAND)) {  // moves nothing: an address check only
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const bool bad_enables = tx.get_byte_enable_ptr() != nullptr && tx.get_byte_enable_length() == 0;
  const bool no_data = tx.get_data_ptr() == nullptr && !timing_only;
  if (length == 0 || bad_enables || no_data) {
    tx.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    ++stats_.errors;
    return;
  }
  if (!timing_only) transfer(tx, tx.get_address() - config_.base);
  if (tx.is_read()) {
    ++stats_.reads;
    stats_.bytes_read += length;
  } else {
    ++stats_.writes;
    stats_.bytes_written += length;
  }

  // The port serves each access from the caller's local time (see BandwidthBooking).
  const sc_core::sc_time local = sc_core::sc_time_stamp() + delay;
  sc_core::sc_time finish = local;
  if (config_.bytes_per_ns > 0) {
    const sc_core::sc_time occupancy(length / config_.bytes_per_ns, sc_core::SC_NS);
    finish = sc_core::sc_time::from_value(
        port_.book(local.value(), occupancy.value(), sc_core::sc_time_stamp().value()));
    busy_ += occupancy;
    stats_.busy_ns.set(busy_.to_seconds() * 1e9);
  }
  delay += (finish - local) + config_.latency;
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned MemoryTarget::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  if ((tx.get_command() == tlm::TLM_IGNORE_COMMAND) || !contains(address, 1) ||
      tx.get_data_ptr() == nullptr)
    return 0;
  const uint64_t offset = address - config_.base;
  const unsigned bytes =
      static_cast<unsigned>(std::min<uint64_t>(tx.get_data_length(), config_.size - offset));
  if (tx.is_read()) {
    std::memcpy(tx.get_data_ptr(), data_ + offset, bytes);
  } else {
    std::memcpy(data_ + offset, tx.get_data_ptr(), bytes);
  }
  return bytes;
}

bool MemoryTarget::get_direct_mem_ptr(int, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const uint64_t address = tx.get_address();
  if (!config_.allow_dmi || !contains(address, 1)) {
    dmi.allow_none();
    dmi.set_start_address(contains(address, 1) ? config_.base : address);
    dmi.set_end_address(contains(address, 1) ? config_.base + (config_.size - 1) : address);
    return false;
  }
  dmi.set_dmi_ptr(data_);
  dmi.set_start_address(config_.base);
  dmi.set_end_address(config_.base + (config_.size - 1));
  dmi.allow_read_write();
  dmi.set_read_latency(config_.latency);
  dmi.set_write_latency(config_.latency);
  return true;
}

}  // namespace gpusoc
