// The simulated host: a CPU running the host program, host DRAM, the interrupt controller that
// receives MSIs, and the PCIe root port, around one router that decodes the host's physical
// address space (HostAddressMap). The CPU and the root port's upstream path both reach every
// window through that router. The platform binds the root port's device-side sockets to the
// GPU's endpoint:
//   host.config_initiator -> endpoint.config_target
//   host.mem_initiator    -> endpoint.mem_target
//   endpoint.dma_initiator -> host.upstream_target
#pragma once

#include "models/common/checked_bindings.h"

#include <systemc>
#include <tlm>

#include "models/common/memory_target.h"
#include "models/common/stat_group.h"
#include "models/common/tlm_router.h"
#include "models/host/host_config.h"
#include "models/host/host_cpu.h"
#include "models/host/interrupt_controller.h"
#include "models/host/root_port.h"

namespace gpusoc::host {

class HostSystem : public sc_core::sc_module {
 public:
  /// Router ports, in bind order (the router's initiator port index of each window).
  enum RouterPort : unsigned { kMemoryPort, kEcamPort, kMmioPort, kMsiPort };

  /// Statistics go in a group named after the module (cpu, router, dram, msi, root_port).
  /// `check_protocol`: every internal binding runs through a base-protocol checker.
  HostSystem(sc_core::sc_module_name name, const HostConfig& config, StatGroup& stats_parent,
             bool check_protocol = false);
  size_t protocol_violations() const { return bindings_.violations(); }
  size_t protocol_checkers() const { return bindings_.checkers(); }

  void set_program(HostProgram program) { cpu.set_program(std::move(program)); }
  const HostConfig& config() const { return config_; }

 private:
  // Declared before the parts, which are built from them.
  HostConfig config_;
  StatGroup stats_;
  CheckedBindings bindings_;

 public:
  HostCpu cpu;
  TlmRouter router;
  MemoryTarget dram;
  InterruptController msi;
  RootPort root_port;

  // The root port's device side, for the platform to bind.
  tlm::tlm_initiator_socket<>& config_initiator;
  tlm::tlm_initiator_socket<>& mem_initiator;
  tlm::tlm_target_socket<>& upstream_target;
};

}  // namespace gpusoc::host
