// The resolved configuration of the host interface (pcie.* parameters): the link, the identity
// the endpoint shows in configuration space, the BAR1 aperture and the copy engines.
#pragma once

#include <cstdint>

#include "models/common/config.h"
#include "models/pcie/link_timing.h"

namespace gpusoc::pcie {

struct PcieConfig {
  // Defaults: the GeForce 8800 GTX, a PCIe 1.0 x16 device.
  static constexpr uint32_t kDefaultVendorId = 0x10DE;     // NVIDIA
  static constexpr uint32_t kDefaultDeviceId = 0x0191;     // GeForce 8800 GTX (G80)
  static constexpr uint32_t kDefaultClassCode = 0x030200;  // display controller, 3D
  static constexpr uint64_t kDefaultBar1Bytes = uint64_t{256} << 20;

  LinkParams link;  // generation, lanes, max payload and read request sizes, latency
  uint32_t max_outstanding_reads = 32;  // read requests a copy engine keeps in flight
  uint32_t vendor_id = kDefaultVendorId;
  uint32_t device_id = kDefaultDeviceId;
  uint32_t class_code = kDefaultClassCode;  // base class << 16 | subclass << 8 | prog. interface
  uint64_t bar1_bytes = kDefaultBar1Bytes;  // the VRAM aperture; a power of two
  uint32_t copy_engines = 2;

  /// The pcie.* parameters, validated (ConfigError naming the key).
  static PcieConfig from_config(const Config& config);
  /// Checks a configuration built in code the same way.
  void validate() const;
};

}  // namespace gpusoc::pcie
