// PTX text -> ast::Module. Never throws on bad input: every problem becomes a diagnostic
// with line and column, and parsing resumes at the next statement.
#pragma once

#include <string>
#include <string_view>

#include "models/ptx/ast.h"
#include "models/ptx/diagnostics.h"

namespace gpusoc::ptx {

ast::Module parse_module(std::string_view text, Diagnostics& diags);

}  // namespace gpusoc::ptx
