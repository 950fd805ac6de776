// The PCIe root port between the host's router and the GPU's endpoint. Downstream it turns ECAM
// window accesses into configuration accesses of the device at bus 0, device 0, function 0
// (address = offset in that function's 4 KiB space) and passes MMIO window accesses on with
// their host addresses; other functions are absent and read as all ones, like real hardware
// (vendor ID 0xFFFF), with writes ignored. Upstream it passes the device's DMA and MSI writes to
// the host router. Link timing is the endpoint's business: the root port adds no delay.
#pragma once

#include <cstdint>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/stat.h"
#include "models/common/stat_group.h"

namespace gpusoc::host {

class RootPort : public sc_core::sc_module {
 public:
  // Host side.
  tlm_utils::simple_target_socket<RootPort> ecam_target;  // address = offset in the ECAM window
  tlm_utils::simple_target_socket<RootPort> mmio_target;  // host physical addresses
  tlm_utils::simple_initiator_socket<RootPort> host_initiator;  // upstream traffic, to the router
  // Device side.
  tlm_utils::simple_initiator_socket<RootPort> config_initiator;  // -> endpoint.config_target
  tlm_utils::simple_initiator_socket<RootPort> mem_initiator;     // -> endpoint.mem_target
  tlm_utils::simple_target_socket<RootPort> upstream_target;      // <- endpoint.dma_initiator

  RootPort(sc_core::sc_module_name name, StatGroup& stats_parent);

 private:
  struct Stats : StatGroup {
    using StatGroup::StatGroup;
    Counter config_accesses{*this, "config_accesses", "accesses",
                            "configuration accesses forwarded to the device"};
    Counter absent_accesses{*this, "absent_accesses", "accesses",
                            "configuration accesses to absent functions (all ones)"};
    Counter mmio_accesses{*this, "mmio_accesses", "accesses", "MMIO accesses to the device"};
    Counter upstream_accesses{*this, "upstream_accesses", "accesses",
                              "DMA and MSI requests from the device"};
    Counter upstream_bytes{*this, "upstream_bytes", "bytes", "bytes the device's requests moved"};
  };
  static constexpr uint64_t kFunctionBytes = 4096;

  /// Splits an ECAM offset: `offset` within its function's 4 KiB; true for function 0 of
  /// device 0 on bus 0 (the GPU), false for the absent rest.
  static bool device_function(uint64_t address, uint64_t& offset);
  void ecam_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned ecam_transport_dbg(tlm::tlm_generic_payload& tx);
  static void answer_absent(tlm::tlm_generic_payload& tx);
  void mmio_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned mmio_transport_dbg(tlm::tlm_generic_payload& tx);
  bool mmio_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void upstream_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned upstream_transport_dbg(tlm::tlm_generic_payload& tx);
  bool upstream_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void invalidate_from_device(sc_dt::uint64 start, sc_dt::uint64 end);
  void invalidate_from_host(sc_dt::uint64 start, sc_dt::uint64 end);

  Stats stats_;
};

}  // namespace gpusoc::host
