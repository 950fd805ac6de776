// The registers of one command channel (bar0::CH_*), declared as data. Channel i's block sits
// at BAR0 offset bar0::kChannelBase + i * bar0::kChannelStride; docs/registers.md is generated
// from this table.
#pragma once

#include <vector>

#include "models/common/register_block.h"

namespace gpusoc::gigathread {

const std::vector<RegisterSpec>& channel_register_specs();

}  // namespace gpusoc::gigathread
