// The simulated host's resolved parameters (host.*): its physical address map, host DRAM timing
// and the CPU's time quantum.
#pragma once

#include <cstdint>

#include <systemc>

#include "models/common/config.h"
#include "models/host/host_bus.h"

namespace gpusoc::host {

struct HostConfig {
  HostAddressMap map;
  sc_core::sc_time memory_latency = sc_core::SC_ZERO_TIME;  // per host DRAM access
  double memory_bytes_per_ns = 0;                           // host DRAM port; 0: unlimited
  sc_core::sc_time quantum = sc_core::sc_time(1000, sc_core::SC_NS);  // CPU run-ahead limit

  /// Reads host.* and checks the address map: the windows (DRAM, ECAM, MMIO, the 4 KiB MSI
  /// window) must not overlap, ECAM must be 1 MiB aligned. ConfigError names the keys.
  static HostConfig from_config(const Config& config);
};

/// Bytes of the MSI window at HostAddressMap::msi_address.
constexpr uint64_t kMsiWindowBytes = 4096;

}  // namespace gpusoc::host
