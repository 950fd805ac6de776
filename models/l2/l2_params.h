// The L2 slices' and the ROPs' parameters as the configuration gives them (l2.*, rop.*), read
// into the resolved structs the models take.
#pragma once

#include "models/common/config.h"
#include "models/l2/l2_slice.h"
#include "models/mempart/rop.h"

namespace gpusoc::l2 {

/// Reads l2.*; ConfigError naming the key when the combination is wrong (L2Config::problem).
L2Config l2_config_from(const Config& config);
/// Reads rop.*; ConfigError naming the key when a value is wrong.
mempart::RopConfig rop_config_from(const Config& config);

}  // namespace gpusoc::l2
