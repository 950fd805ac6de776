#include "models/common/text_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpusoc {

std::optional<std::string> read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

namespace {

// NAME.ptx -> NAME.ptxas
std::string ptxas_report_beside(const std::string& module_path) {
  const size_t slash = module_path.find_last_of('/');
  const size_t dot = module_path.find_last_of('.');
  const bool has_extension =
      dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (has_extension ? module_path.substr(0, dot) : module_path) + ".ptxas";
}

}  // namespace

std::optional<ModuleReport> read_ptxas_report(const std::string& module_path,
                                              const std::string& given) {
  if (!given.empty()) {
    auto text = read_text_file(given);
    if (!text) return std::nullopt;
    return ModuleReport{given, std::move(*text)};
  }
  const std::string beside = ptxas_report_beside(module_path);
  return ModuleReport{beside, read_text_file(beside).value_or("")};
}

}  // namespace gpusoc
