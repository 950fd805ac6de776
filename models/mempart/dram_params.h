// The DRAM timing a configuration asks for: the standard memory.type names (dram_standard.h),
// with any field overridden by memory.dram.* (memory.dram.tRCD = 20, memory.dram.clock_mhz, ...).
#pragma once

#include "models/common/config.h"
#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {

/// ConfigError naming memory.type or the field for a standard that is not there, malformed, or
/// inconsistent once overridden.
DramTiming dram_timing_from(const Config& config);

}  // namespace gpusoc::mempart
