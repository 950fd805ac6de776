// The whole system as a library: the simulated host (CPU, host memory, PCIe root port) joined to
// the GPU SoC over the PCIe link, built from a configuration. A host program (a std::function
// running on the host CPU) drives the GPU through the runtime (sw/runtime) exactly as a driver
// would. SystemC allows one elaboration per process: build one SocPlatform per process.
#pragma once

#include <functional>
#include <memory>

#include <systemc>

#include "models/common/config.h"
#include "models/common/stat_group.h"
#include "models/host/host_bus.h"

namespace gpusoc::platform {

class SocPlatform {
 public:
  SocPlatform(const Config& config, StatGroup& stats);
  ~SocPlatform();

  /// Runs `program` on the host CPU until it returns (the simulation stops there: the program
  /// synchronizes with the GPU as a driver would); returns the simulated time at which it
  /// returned. An exception thrown by the program (or by a model) ends the simulation and is
  /// rethrown here. Once per platform.
  sc_core::sc_time run(std::function<void(host::HostBus&)> program);

  /// Protocol checkers on the platform's bindings (platform.check_tlm_protocol) and what they
  /// found; a violation also stops the simulation with an error when it happens.
  size_t protocol_checkers() const;
  size_t protocol_violations() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusoc::platform
