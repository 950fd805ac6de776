#include "models/ptx/diagnostics.h"

#include <fmt/format.h>

namespace gpusoc::ptx {
namespace {

std::string join_diagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics) {
    if (!text.empty()) text += '\n';
    text += d.to_string();
  }
  return text;
}

}  // namespace

std::string Diagnostic::to_string() const {
  return fmt::format("{}:{}:{}: error: {}", file, loc.line, loc.column, message);
}

void Diagnostics::error(SourceLoc loc, std::string message) {
  list_.push_back(Diagnostic{file_, loc, std::move(message)});
}

ModuleLoadError::ModuleLoadError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_diagnostics(diagnostics)), diagnostics_(std::move(diagnostics)) {}

}  // namespace gpusoc::ptx
