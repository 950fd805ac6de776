// Whole files read into memory, for loaders of modules, reports and traces.
#pragma once

#include <optional>
#include <string>

namespace gpusoc {

/// The file's bytes, or nullopt when it cannot be opened (missing, unreadable, a directory).
std::optional<std::string> read_text_file(const std::string& path);

/// Where the ptxas report of a PTX module sits beside it, for every loader to find it:
/// NAME.ptx -> NAME.ptxas (models/ptx/ptxas_report.h reads it).
std::string ptxas_report_beside(const std::string& module_path);

}  // namespace gpusoc
