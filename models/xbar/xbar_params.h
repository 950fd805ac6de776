// The crossbar as the configuration describes it (xbar.*): one set of parameters shared by the
// request and the reply network.
#pragma once

#include "models/common/config.h"
#include "models/xbar/crossbar.h"

namespace gpusoc::xbar {

/// Reads xbar.*; throws ConfigError naming the key when the combination is unusable.
CrossbarConfig crossbar_config_from(const Config& config);

}  // namespace gpusoc::xbar
