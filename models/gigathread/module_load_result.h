// The ModuleLoadResult a ModuleLoad packet writes to host memory (packets.h): what the load
// produced, and its encoding into a buffer of a given size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/gigathread/packets.h"

namespace gpusoc::gigathread {

/// What one ModuleLoad produced, before it is laid out.
struct ModuleLoadReport {
  cmd::ErrorCode status = cmd::ErrorCode::None;
  uint32_t module_id = 0;
  std::vector<cmd::KernelEntry> kernels;
  std::vector<cmd::GlobalEntry> globals;
  std::vector<cmd::ParamEntry> params;
  std::string strings;      // the entries' names, each NUL-terminated
  std::string diagnostics;  // one problem per line; empty after a successful load

  /// Adds `name` to the string table; returns its offset.
  uint32_t add_string(const std::string& name);
  /// The whole result's size in bytes as laid out.
  uint64_t required_bytes() const;
};

/// The bytes to write into a result buffer of `capacity` bytes (at least the header): the whole
/// result when it fits; otherwise the header and as much of the diagnostics as fits, cut at a
/// line and NUL-terminated, with diagnostics_bytes counting what was written and required_bytes
/// set to `required` (normally report.required_bytes()). Only a report without entries may be
/// cut: a successful result that does not fit is turned into a failure by the caller.
std::vector<uint8_t> encode_module_load_result(const ModuleLoadReport& report, uint64_t capacity,
                                               uint64_t required);

}  // namespace gpusoc::gigathread
