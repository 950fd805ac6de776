// docs/registers.md, generated from the units' register tables (RegisterSpec) and the
// configuration-space layout, so the documentation cannot drift from the model.
#pragma once

#include <string>

namespace gpusoc::platform {

/// The whole of docs/registers.md (`gpusoc registers` prints it; a test compares).
std::string register_map_markdown();

}  // namespace gpusoc::platform
