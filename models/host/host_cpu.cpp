#include "models/host/host_cpu.h"

#include <algorithm>

#include <fmt/format.h>

namespace gpusoc::host {
namespace {

const char* command_name(tlm::tlm_command command) {
  return command == tlm::TLM_READ_COMMAND ? "read" : "write";
}

}  // namespace

sc_core::sc_time HostCpu::QuantumKeeper::compute_local_quantum() {
  // Up to the next multiple of the quantum, like the global quantum does.
  const sc_core::sc_time::value_type q = quantum_.value();
  if (q == 0) return sc_core::SC_ZERO_TIME;  // below the time resolution: synchronize always
  return sc_core::sc_time::from_value(q - sc_core::sc_time_stamp().value() % q);
}

HostCpu::HostCpu(sc_core::sc_module_name name, const HostConfig& config, StatGroup& stats_parent)
    : sc_module(name),
      initiator("initiator"),
      msi_in("msi_in"),
      config_(config),
      keeper_(config.quantum),
      stats_(stats_parent, basename()) {
  initiator.register_invalidate_direct_mem_ptr(this, &HostCpu::invalidate_direct_mem_ptr);
  SC_THREAD(run);
}

void HostCpu::run() {
  for (;;) {
    keeper_.reset();
    try {
      if (program_) program_(*this);
      sync();
    } catch (...) {
      error_ = std::current_exception();
    }
    program_ = nullptr;
    finished_ = true;
    if (!pause_on_exit_) return;  // the rest of the system runs on
    // sc_start() returns to whoever started the program; the next sc_start() resumes here.
    sc_core::sc_pause();
    wait(sc_core::SC_ZERO_TIME);
  }
}

void HostCpu::set_program(HostProgram program) {
  program_ = std::move(program);
  finished_ = false;
  error_ = nullptr;
}

void HostCpu::rethrow_program_error() const {
  if (error_) std::rethrow_exception(error_);
}

void HostCpu::advance(const sc_core::sc_time& duration) {
  keeper_.inc(duration);
  if (keeper_.need_sync()) sync();
}

void HostCpu::sync() {
  keeper_.sync();
  ++stats_.syncs;
}

void HostCpu::compute(const sc_core::sc_time& duration) {
  compute_time_ += duration;
  stats_.compute_ns.set(compute_time_.to_seconds() * 1e9);
  advance(duration);
}

void HostCpu::read(uint64_t address, void* data, size_t bytes) {
  transact(tlm::TLM_READ_COMMAND, address, static_cast<uint8_t*>(data), bytes);
}

void HostCpu::write(uint64_t address, const void* data, size_t bytes) {
  // The payload's data pointer is not const, but a write's target only reads through it.
  transact(tlm::TLM_WRITE_COMMAND, address, const_cast<uint8_t*>(static_cast<const uint8_t*>(data)),
           bytes);
}

void HostCpu::transact(tlm::tlm_command command, uint64_t address, uint8_t* data, size_t bytes) {
  constexpr size_t kMaxChunk = size_t{1} << 30;  // a payload's length is 32 bits
  while (bytes > 0) {
    const unsigned chunk = static_cast<unsigned>(std::min(bytes, kMaxChunk));
    tx_.set_command(command);
    tx_.set_address(address);
    tx_.set_data_ptr(data);
    tx_.set_data_length(chunk);
    tx_.set_streaming_width(chunk);
    tx_.set_byte_enable_ptr(nullptr);
    tx_.set_byte_enable_length(0);
    tx_.set_dmi_allowed(false);
    tx_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = keeper_.get_local_time();
    initiator->b_transport(tx_, delay);
    if (!tx_.is_response_ok()) {
      throw HostBusError(fmt::format("{}: host {} of {} bytes at {:#x} failed: {}", name(),
                                     command_name(command), chunk, address,
                                     tx_.get_response_string()));
    }
    if (command == tlm::TLM_READ_COMMAND) {
      ++stats_.reads;
      stats_.bytes_read += chunk;
    } else {
      ++stats_.writes;
      stats_.bytes_written += chunk;
    }
    keeper_.set(delay);
    if (keeper_.need_sync()) sync();
    address += chunk;
    data += chunk;
    bytes -= chunk;
  }
}

uint8_t* HostCpu::memory(uint64_t address, size_t bytes) {
  const HostAddressMap& map = config_.map;
  const bool in_dram = address >= map.memory_base && bytes <= map.memory_bytes &&
                       address - map.memory_base <= map.memory_bytes - bytes;
  if (!in_dram) {
    throw HostBusError(
        fmt::format("{}: host memory [{:#x}, +{:#x}) lies outside host DRAM "
                    "[{:#x}, {:#x})",
                    name(), address, bytes, map.memory_base, map.memory_base + map.memory_bytes));
  }
  const uint64_t last = bytes == 0 ? address : address + (bytes - 1);
  const auto covers = [&] {
    return dmi_valid_ && dmi_.get_start_address() <= address && last <= dmi_.get_end_address();
  };
  if (!covers()) {
    tlm::tlm_generic_payload request;
    request.set_command(tlm::TLM_WRITE_COMMAND);
    request.set_address(address);
    dmi_.init();
    dmi_valid_ = initiator->get_direct_mem_ptr(request, dmi_) && dmi_.is_read_write_allowed();
    if (!covers()) {
      dmi_valid_ = false;
      throw HostBusError(fmt::format("{}: no direct access to host memory [{:#x}, +{:#x})", name(),
                                     address, bytes));
    }
  }
  return dmi_.get_dmi_ptr() + (address - dmi_.get_start_address());
}

void HostCpu::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (dmi_valid_ && start <= dmi_.get_end_address() && dmi_.get_start_address() <= end) {
    dmi_valid_ = false;
  }
}

bool HostCpu::wait_for_interrupt(const sc_core::sc_time& timeout) {
  sync();
  unsigned taken = msi_in->take_pending();  // latched while the CPU was busy: not lost
  if (taken == 0) {
    sc_core::wait(timeout, msi_in->msi_event());
    keeper_.reset();
    taken = msi_in->take_pending();
  }
  if (taken == 0) {
    ++stats_.interrupt_timeouts;
    return false;
  }
  stats_.interrupts += taken;
  return true;
}

}  // namespace gpusoc::host
