#include "sw/runtime/module_image.h"

#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

constexpr uint64_t kDiagnosticsReserve = 4096;


[[noreturn]] void malformed(const std::string& why) {
  throw Error(Status::DeviceError, "malformed ModuleLoadResult from the GPU: " + why);
}

// The name an entry points at in the string table: inside it, and NUL-terminated there.
std::string table_name(std::string_view strings, uint32_t offset, uint32_t bytes, const char* kind,
                       uint64_t index) {
  if (uint64_t(offset) + bytes >= strings.size() || strings[offset + bytes] != '\0')
    malformed(fmt::format("{} {} names [{}, +{}) of a {}-byte string table", kind, index, offset,
                          bytes, strings.size()));
  return std::string(strings.substr(offset, bytes));
}

// Bytes of the names that follow each occurrence of `token` (an over-count: comments,
// declarations inside functions).
size_t names_after(std::string_view text, std::string_view token) {
  size_t bytes = 0;
  for (size_t at = text.find(token); at != std::string_view::npos;
       at = text.find(token, at + token.size())) {
    size_t end = at + token.size();
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 std::strchr("_$.% \t", text[end])))
      ++end;
    bytes += end - at + 1;
  }
  return bytes;
}

size_t count_token(std::string_view text, std::string_view token) {
  size_t n = 0;
  for (size_t at = text.find(token); at != std::string_view::npos;
       at = text.find(token, at + token.size())) {
    ++n;
  }
  return n;
}

template <typename T>
T read_entry(const uint8_t* data, uint64_t offset, uint64_t index) {
  T entry;
  std::memcpy(&entry, data + offset + index * sizeof(T), sizeof(T));
  return entry;
}

}  // namespace

uint64_t estimate_module_result_bytes(std::string_view ptx) {
  // Over-counts (declarations inside functions, comments) and so errs on the large side.
  const size_t kernels = count_token(ptx, ".entry");
  const size_t globals = count_token(ptx, ".global") + count_token(ptx, ".const");
  const size_t params = count_token(ptx, ".param");
  const size_t names = names_after(ptx, ".entry") + names_after(ptx, ".global") +
                       names_after(ptx, ".const");
  return cmd::module_load_result_layout(kernels, globals, params, names, kDiagnosticsReserve)
      .total;
}

ModuleLoadReport parse_module_load_result(const uint8_t* data, uint64_t bytes) {
  if (bytes < sizeof(cmd::ModuleLoadResult)) malformed("buffer smaller than its header");
  cmd::ModuleLoadResult header;
  std::memcpy(&header, data, sizeof header);
  ModuleLoadReport report;
  report.status = static_cast<cmd::ErrorCode>(header.status);
  report.module_id = header.module_id;
  report.required_bytes = header.required_bytes;
  // A buffer too small for the result gets the header (and perhaps some text) only.
  if (report.status != cmd::ErrorCode::None && report.required_bytes > bytes) return report;
  const cmd::ModuleLoadResultLayout l =
      cmd::module_load_result_layout(header.num_kernels, header.num_globals, header.num_params,
                                     header.strings_bytes, header.diagnostics_bytes);
  if (l.total > bytes) {
    malformed(
        fmt::format("{} kernels, {} globals, {} parameters, {} bytes of names and {} bytes of "
                    "diagnostics need {} bytes, the buffer has {}",
                    header.num_kernels, header.num_globals, header.num_params,
                    header.strings_bytes, header.diagnostics_bytes, l.total, bytes));
  }
  const std::string_view strings(reinterpret_cast<const char*>(data + l.strings),
                                 header.strings_bytes);
  std::vector<cmd::ParamEntry> params(header.num_params);
  for (uint64_t i = 0; i < header.num_params; ++i) {
    params[i] = read_entry<cmd::ParamEntry>(data, l.params, i);
  }
  for (uint64_t i = 0; i < header.num_kernels; ++i) {
    const auto e = read_entry<cmd::KernelEntry>(data, l.kernels, i);
    KernelInfo k;
    k.name = table_name(strings, e.name_offset, e.name_bytes, "kernel", i);
    k.register_source = static_cast<cmd::RegisterSource>(e.register_source);
    k.handle = e.handle;
    k.param_buffer_bytes = e.param_buffer_bytes;
    k.static_shared_bytes = e.static_shared_bytes;
    k.registers_per_thread = e.registers_per_thread;
    k.local_bytes_per_thread = e.local_bytes_per_thread;
    k.max_threads_per_cta = e.max_threads_per_cta;
    if (uint64_t(e.first_param) + e.num_params > header.num_params) {
      malformed(fmt::format("kernel {} lists parameters {}..{} of {}", k.name, e.first_param,
                            uint64_t(e.first_param) + e.num_params, header.num_params));
    }
    k.params.assign(params.begin() + e.first_param, params.begin() + e.first_param + e.num_params);
    for (size_t p = 0; p < k.params.size(); ++p) {
      if (uint64_t(k.params[p].offset) + k.params[p].bytes > k.param_buffer_bytes) {
        malformed(
            fmt::format("parameter {} of kernel {} ([{}, +{})) lies outside its {}-byte "
                        "parameter buffer",
                        p, k.name, k.params[p].offset, k.params[p].bytes, k.param_buffer_bytes));
      }
    }
    report.kernels.push_back(std::move(k));
  }
  for (uint64_t i = 0; i < header.num_globals; ++i) {
    const auto e = read_entry<cmd::GlobalEntry>(data, l.globals, i);
    report.globals.push_back(
        GlobalInfo{table_name(strings, e.name_offset, e.name_bytes, "global", i), e.address,
                   e.bytes});
  }
  const char* text = reinterpret_cast<const char*>(data + l.diagnostics);
  report.diagnostics.assign(text, strnlen(text, header.diagnostics_bytes));
  return report;
}

}  // namespace gpusoc::rt
