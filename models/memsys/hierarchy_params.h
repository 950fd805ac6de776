// The memory hierarchy as the configuration describes it: the DRAM standard memory.type names
// (with memory.dram.* overrides), checked against the GPU's memory bus, the address mapping
// (memory.mapping.*), the memory controllers (memory.controller.*), the crossbar (xbar.*), the L2
// slices (l2.*) and the ROPs (rop.*), resolved and validated before anything runs.
#pragma once

#include <cstdint>
#include <string>

#include "models/common/config.h"
#include "models/memsys/memory_hierarchy.h"

namespace gpusoc::memsys {

/// What the GPU's specification says of its memory (GpuSpec's memory and clocks).
struct MemoryDescription {
  std::string type;  // memory.type: a DRAM standard (its timing: dram_params.h)
  uint32_t partitions = 1;
  uint32_t partition_bus_bits = 64;
  double core_mhz = 0;  // clock.core_mhz: the crossbar and L2 clock unless l2.clock_mhz
  uint64_t base = 0;    // first address of device memory
  uint32_t ports = 1;   // requesters (SMs)
};

/// ConfigError naming the key on anything inconsistent: a bus that the standard's channels do
/// not divide, a bad parameter.
HierarchyConfig hierarchy_config_from(const Config& config, const MemoryDescription& memory);

/// memory.model: hierarchy, tlm or flat.
std::string memory_model(const Config& config);

/// Bytes per second the partitions' DRAM can move at most, in GB/s.
double peak_gbytes_per_s(const HierarchyConfig& config);

}  // namespace gpusoc::memsys
