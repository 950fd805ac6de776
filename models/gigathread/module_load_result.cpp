#include "models/gigathread/module_load_result.h"

#include <algorithm>
#include <cstring>

#include "models/common/error.h"

namespace gpusoc::gigathread {
namespace {

template <typename T>
void put(std::vector<uint8_t>& out, uint64_t offset, const T& value) {
  std::memcpy(out.data() + offset, &value, sizeof(T));
}

cmd::ModuleLoadResultLayout layout_of(const ModuleLoadReport& r, uint64_t diagnostics_bytes) {
  return cmd::module_load_result_layout(r.kernels.size(), r.globals.size(), r.params.size(),
                                        r.strings.size(), diagnostics_bytes);
}

}  // namespace

uint32_t ModuleLoadReport::add_string(const std::string& name) {
  const uint32_t offset = uint32_t(strings.size());
  strings += name;
  strings += '\0';
  return offset;
}

uint64_t ModuleLoadReport::required_bytes() const {
  return layout_of(*this, diagnostics.empty() ? 0 : diagnostics.size() + 1).total;
}

std::vector<uint8_t> encode_module_load_result(const ModuleLoadReport& report, uint64_t capacity,
                                               uint64_t required) {
  std::string text = report.diagnostics;
  cmd::ModuleLoadResultLayout layout = layout_of(report, text.empty() ? 0 : text.size() + 1);
  if (layout.total > capacity) {
    if (!report.kernels.empty() || !report.globals.empty() || !report.params.empty() ||
        !report.strings.empty() || capacity < layout.diagnostics) {
      throw ModelError("gigathread", "a module load result with entries cannot be cut");
    }
    // Keep whole lines that fit with their NUL; at least the start of the first line.
    const uint64_t room = capacity - layout.diagnostics;
    text.resize(room == 0 ? 0 : room - 1);
    const size_t line_end = text.rfind('\n');
    if (line_end != std::string::npos) text.resize(line_end + 1);
    layout = cmd::module_load_result_layout(0, 0, 0, 0, text.empty() ? 0 : text.size() + 1);
  }
  cmd::ModuleLoadResult header;
  header.status = uint32_t(report.status);
  header.module_id = report.module_id;
  header.num_kernels = uint32_t(report.kernels.size());
  header.num_globals = uint32_t(report.globals.size());
  header.num_params = uint32_t(report.params.size());
  header.strings_bytes = uint32_t(report.strings.size());
  header.diagnostics_bytes = uint32_t(text.empty() ? 0 : text.size() + 1);
  header.required_bytes = required;

  std::vector<uint8_t> out(std::min(layout.total, capacity), 0);
  put(out, 0, header);
  for (size_t i = 0; i < report.kernels.size(); ++i)
    put(out, layout.kernels + i * sizeof(cmd::KernelEntry), report.kernels[i]);
  for (size_t i = 0; i < report.globals.size(); ++i)
    put(out, layout.globals + i * sizeof(cmd::GlobalEntry), report.globals[i]);
  for (size_t i = 0; i < report.params.size(); ++i)
    put(out, layout.params + i * sizeof(cmd::ParamEntry), report.params[i]);
  if (!report.strings.empty())
    std::memcpy(out.data() + layout.strings, report.strings.data(), report.strings.size());
  if (!text.empty()) std::memcpy(out.data() + layout.diagnostics, text.data(), text.size());
  return out;
}

}  // namespace gpusoc::gigathread
