#include "models/host/root_port.h"

#include <cstring>

namespace gpusoc::host {

RootPort::RootPort(sc_core::sc_module_name name, StatGroup& stats_parent)
    : sc_module(name),
      ecam_target("ecam_target"),
      mmio_target("mmio_target"),
      host_initiator("host_initiator"),
      config_initiator("config_initiator"),
      mem_initiator("mem_initiator"),
      upstream_target("upstream_target"),
      stats_(stats_parent, basename()) {
  ecam_target.register_b_transport(this, &RootPort::ecam_b_transport);
  ecam_target.register_transport_dbg(this, &RootPort::ecam_transport_dbg);
  mmio_target.register_b_transport(this, &RootPort::mmio_b_transport);
  mmio_target.register_transport_dbg(this, &RootPort::mmio_transport_dbg);
  mmio_target.register_get_direct_mem_ptr(this, &RootPort::mmio_get_direct_mem_ptr);
  mem_initiator.register_invalidate_direct_mem_ptr(this, &RootPort::invalidate_from_device);
  upstream_target.register_b_transport(this, &RootPort::upstream_b_transport);
  upstream_target.register_transport_dbg(this, &RootPort::upstream_transport_dbg);
  upstream_target.register_get_direct_mem_ptr(this, &RootPort::upstream_get_direct_mem_ptr);
  host_initiator.register_invalidate_direct_mem_ptr(this, &RootPort::invalidate_from_host);
}

bool RootPort::device_function(uint64_t address, uint64_t& offset) {
  // ECAM offset = bus << 20 | device << 15 | function << 12 | register.
  offset = address % kFunctionBytes;
  return address < kFunctionBytes;
}

void RootPort::answer_absent(tlm::tlm_generic_payload& tx) {
  if (tx.is_read()) std::memset(tx.get_data_ptr(), 0xFF, tx.get_data_length());
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

void RootPort::ecam_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  uint64_t offset = 0;
  const bool present = device_function(tx.get_address(), offset);
  if (offset + tx.get_data_length() > kFunctionBytes) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);  // spans two functions
    return;
  }
  if (!present) {
    ++stats_.absent_accesses;
    answer_absent(tx);
    return;
  }
  ++stats_.config_accesses;
  config_initiator->b_transport(tx, delay);  // function 0's offset is its ECAM offset
}

unsigned RootPort::ecam_transport_dbg(tlm::tlm_generic_payload& tx) {
  uint64_t offset = 0;
  const bool present = device_function(tx.get_address(), offset);
  if (offset + tx.get_data_length() > kFunctionBytes) return 0;
  if (!present) {
    if (tx.is_read()) std::memset(tx.get_data_ptr(), 0xFF, tx.get_data_length());
    return tx.get_data_length();
  }
  return config_initiator->transport_dbg(tx);
}

void RootPort::mmio_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  ++stats_.mmio_accesses;
  mem_initiator->b_transport(tx, delay);
}

unsigned RootPort::mmio_transport_dbg(tlm::tlm_generic_payload& tx) {
  return mem_initiator->transport_dbg(tx);
}

bool RootPort::mmio_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  return mem_initiator->get_direct_mem_ptr(tx, dmi);
}

void RootPort::upstream_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  ++stats_.upstream_accesses;
  stats_.upstream_bytes += tx.get_data_length();
  host_initiator->b_transport(tx, delay);
}

unsigned RootPort::upstream_transport_dbg(tlm::tlm_generic_payload& tx) {
  return host_initiator->transport_dbg(tx);
}

bool RootPort::upstream_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  return host_initiator->get_direct_mem_ptr(tx, dmi);
}

void RootPort::invalidate_from_device(sc_dt::uint64 start, sc_dt::uint64 end) {
  mmio_target->invalidate_direct_mem_ptr(start, end);
}

void RootPort::invalidate_from_host(sc_dt::uint64 start, sc_dt::uint64 end) {
  upstream_target->invalidate_direct_mem_ptr(start, end);
}

}  // namespace gpusoc::host
