// A bridge between TLM-2.0 sockets of different bus widths. The width is part of a socket's type,
// so a platform built on 64-bit sockets (VCML's, for one) cannot bind its initiators straight to
// gpusoc's 32-bit targets, nor gpusoc's initiators to its targets. The width changes nothing a
// payload carries (address, data, length, byte enables and streaming width are the same at any
// width), so the bridge forwards every call of both directions unchanged: b_transport,
// nb_transport (both ways), transport_dbg, get_direct_mem_ptr and invalidate_direct_mem_ptr.
// CheckedBindings::connect inserts one wherever the two sockets' widths differ.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

namespace gpusoc {

template <unsigned FromWidth, unsigned ToWidth>
class BusWidthBridge : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BusWidthBridge, FromWidth> target;
  tlm_utils::simple_initiator_socket<BusWidthBridge, ToWidth> initiator;

  explicit BusWidthBridge(sc_core::sc_module_name name)
      : sc_module(name), target("target"), initiator("initiator") {
    target.register_b_transport(this, &BusWidthBridge::b_transport);
    target.register_nb_transport_fw(this, &BusWidthBridge::nb_transport_fw);
    target.register_transport_dbg(this, &BusWidthBridge::transport_dbg);
    target.register_get_direct_mem_ptr(this, &BusWidthBridge::get_direct_mem_ptr);
    initiator.register_nb_transport_bw(this, &BusWidthBridge::nb_transport_bw);
    initiator.register_invalidate_direct_mem_ptr(this, &BusWidthBridge::invalidate_direct_mem_ptr);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    initiator->b_transport(tx, delay);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    return initiator->nb_transport_fw(tx, phase, delay);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& tx) { return initiator->transport_dbg(tx); }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
    return initiator->get_direct_mem_ptr(tx, dmi);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) {
    return target->nb_transport_bw(tx, phase, delay);
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    target->invalidate_direct_mem_ptr(start, end);
  }
};

/// The bus width of an initiator or a target socket type, known at compile time.
template <unsigned Width, typename Forward, typename Backward>
constexpr unsigned socket_width(const tlm::tlm_base_initiator_socket_b<Width, Forward, Backward>*) {
  return Width;
}
template <unsigned Width, typename Forward, typename Backward>
constexpr unsigned socket_width(const tlm::tlm_base_target_socket_b<Width, Forward, Backward>*) {
  return Width;
}
template <typename Socket>
constexpr unsigned socket_width() {
  return socket_width(static_cast<const Socket*>(nullptr));
}

}  // namespace gpusoc
