// The whole system as a library: the simulated host (CPU, host memory, PCIe root port) joined to
// the GPU SoC over the PCIe link, built from a configuration. A host program (a std::function
// running on the host CPU) drives the GPU through the runtime (sw/runtime) exactly as a driver
// would. SystemC allows one elaboration per process: build one SocPlatform per process (a second
// is refused at once) and run as many host programs on it as you like, one after the other.
#pragma once

#include <functional>
#include <memory>

#include <systemc>

#include "models/common/config.h"
#include "models/common/stat_group.h"
#include "models/host/host_bus.h"

namespace gpusoc::platform {

class GpuSoc;

class SocPlatform {
 public:
  SocPlatform(const Config& config, StatGroup& stats);
  ~SocPlatform();

  /// Runs `program` on the host CPU until it returns (the simulation pauses there: the program
  /// synchronizes with the GPU as a driver would); returns the simulated time at which it
  /// returned. An exception thrown by the program (or by a model) is rethrown here. Call it
  /// again for the next program: the simulation goes on from where it paused, with the GPU as
  /// the last program left it (and its statistics adding up).
  sc_core::sc_time run(std::function<void(host::HostBus&)> program);

  /// Protocol checkers on the platform's bindings (platform.check_tlm_protocol) and what they
  /// found; a violation also stops the simulation with an error when it happens.
  size_t protocol_checkers() const;
  size_t protocol_violations() const;

  /// The GPU, for what a platform does before the simulation starts: bind its reset input,
  /// probe its sockets.
  GpuSoc& gpu();

 private:
  struct Impl;
  static std::unique_ptr<Impl> build(const Config& config, StatGroup& stats);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusoc::platform
