// docs/registers.md, generated from the units' register tables (RegisterSpec) and the
// configuration-space layout, so the documentation cannot drift from the model.
#pragma once

#include <string>

#include "models/common/config.h"

namespace gpusoc::platform {

/// The whole of docs/registers.md (`gpusoc registers` prints it; a test compares), with the
/// values a device configured by `config` reads after reset. It builds a PCIe endpoint (a
/// SystemC module) to read them: call it before elaboration ends, as the CLI command does.
std::string register_map_markdown(const Config& config);

}  // namespace gpusoc::platform
