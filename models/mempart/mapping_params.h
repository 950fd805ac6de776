// The address mapping as the configuration describes it (memory.mapping.*), joined with the
// organization of the DRAM the partitions use: bank groups, banks, rows and bursts per row come
// from the DRAM preset, the partition and channel counts from the GPU's memory description.
#pragma once

#include <cstdint>

#include "models/common/config.h"
#include "models/mempart/address_mapping.h"
#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {

/// Reads memory.mapping.*; throws ConfigError naming the key when the layout is malformed.
/// The result is checked when an AddressMapping is built from it.
AddressMappingConfig mapping_from_config(const Config& config, const DramTiming& dram,
                                         uint32_t partitions, uint32_t channels_per_partition,
                                         uint64_t base);

}  // namespace gpusoc::mempart
