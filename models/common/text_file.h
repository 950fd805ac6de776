// Whole files read into memory, for loaders of modules, reports and traces.
#pragma once

#include <optional>
#include <string>

namespace gpusoc {

/// The file's bytes, or nullopt when it cannot be opened (missing, unreadable, a directory).
std::optional<std::string> read_text_file(const std::string& path);

/// A PTX module's ptxas report (models/ptx/ptxas_report.h reads it), found the same way by
/// every loader: the file `given` when one is named, else NAME.ptxas beside NAME.ptx.
struct ModuleReport {
  std::string path;  // the file read, or looked for beside the module
  std::string text;  // empty when there is none beside the module
};
/// nullopt when `given` names a file that cannot be read.
std::optional<ModuleReport> read_ptxas_report(const std::string& module_path,
                                              const std::string& given);

}  // namespace gpusoc
