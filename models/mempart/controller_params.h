// The memory controller as the configuration describes it (memory.controller.*).
#pragma once

#include "models/common/config.h"
#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {

/// Reads memory.controller.*; ConfigError naming the key when the values do not fit together
/// (watermarks out of order and the like).
ControllerConfig controller_config_from(const Config& config);

}  // namespace gpusoc::mempart
