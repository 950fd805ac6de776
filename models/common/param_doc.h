// The parameter reference, generated from the registry so that it never goes stale:
// `gpusoc config doc` prints it, and docs/parameters.md is the markdown form.
#pragma once

#include <string>

#include "models/common/param_registry.h"

namespace gpusoc {

// An aligned plain-text table: name, type, default, unit, constraint, description.
std::string parameter_table(const ParamRegistry& registry);

// Markdown: one section per top-level group, one table row per parameter.
std::string parameter_markdown(const ParamRegistry& registry);

}  // namespace gpusoc
