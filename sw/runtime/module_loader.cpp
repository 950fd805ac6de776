// Module load and unload: the PTX text (and its ptxas report, when there is one) goes to a
// temporary device allocation, a ModuleLoad packet names it and a pinned result buffer (grown and
// retried when the GPU says it is too small), and the result becomes the module's kernels and
// globals.
#include <fmt/format.h>

#include "sw/runtime/commands.h"
#include "sw/runtime/context.h"

namespace gpusoc::rt {
namespace {

constexpr int kMaxLoadAttempts = 4;  // the second one normally fits; more means a confused GPU

}  // namespace

std::shared_ptr<ModuleState> Context::load_module(std::string_view ptx, const std::string& name,
                                                  std::string_view ptxas_report) {
  if (ptx.empty()) throw Error(Status::InvalidImage, "module " + name + " is empty");
  Channel& ch = channel(0);
  const std::string who = "load of module " + name;
  // The text, then the report and the name (for the GPU's messages, NUL-terminated), each at the
  // next 8-byte boundary. The name always fills a field of kMaxModuleNameBytes, so that where a
  // program keeps its modules (a path's length) does not change the transfer, nor the run.
  const uint64_t report_offset = (ptx.size() + 7) / 8 * 8;
  const uint64_t name_offset = report_offset + (ptxas_report.size() + 7) / 8 * 8;
  std::string shown = name.substr(0, cmd::kMaxModuleNameBytes - 1);
  shown.resize(cmd::kMaxModuleNameBytes, '\0');
  const DevicePtr text = vram_->allocate(name_offset + shown.size());
  const DevicePtr report_address = ptxas_report.empty() ? 0 : text + report_offset;
  auto module = std::make_shared<ModuleState>();
  module->name = name;
  try {
    // Synchronous, so errors of earlier work on the channel are reported before the load.
    memcpy_htod(ch, who, text, ptx.data(), ptx.size(), /*wait=*/true);
    if (report_address)
      memcpy_htod(ch, who, report_address, ptxas_report.data(), ptxas_report.size(), true);
    memcpy_htod(ch, who, text + name_offset, shown.data(), shown.size(), true);
    uint64_t result_bytes = options_.module_result_bytes ? options_.module_result_bytes
                                                         : estimate_module_result_bytes(ptx);
    for (int attempt = 1;; ++attempt) {
      const ModuleLoadReport report = run_module_load(
          ch, who, {text, ptx.size(), report_address, ptxas_report.size(), text + name_offset},
          result_bytes);
      if (report.status == cmd::ErrorCode::None) {
        module->id = report.module_id;
        module->kernels = report.kernels;
        module->globals = report.globals;
        break;
      }
      if (report.required_bytes > result_bytes && attempt < kMaxLoadAttempts) {
        result_bytes = report.required_bytes;  // too small: nothing was loaded; again, bigger
        continue;
      }
      const Status status = report.status == cmd::ErrorCode::ModuleLoadFailed
                                ? Status::InvalidImage
                                : status_from_channel_error(report.status);
      throw Error(status, fmt::format("module {} failed to load ({}):\n{}", name,
                                      channel_error_name(report.status), report.diagnostics));
    }
  } catch (...) {
    vram_->free(text);
    throw;
  }
  vram_->free(text);  // the load has completed: the GPU keeps its own copy of what it needs
  for (const GlobalInfo& g : module->globals) {
    if (g.bytes != 0) globals_[g.address] = GlobalRange{g.bytes, name + ":" + g.name};
  }
  module->loaded = true;
  return module;
}

ModuleLoadReport Context::run_module_load(Channel& ch, const std::string& who,
                                          const ModuleText& module, uint64_t result_bytes) {
  const PinnedMemory::Block result = pinned_temporary(result_bytes);
  const std::string what = fmt::format("{}: ModuleLoad of {} bytes of PTX", who, module.bytes);
  try {
    ch.wait(ch.submit({commands::module_load(module.address, module.bytes, result.address,
                                             result_bytes, module.report_address,
                                             module.report_bytes, module.name_address)},
                      what, {}, /*interrupt=*/true),
            who);
    // The result buffer says why a load failed; the channel's record of that is redundant,
    // unless the result itself could not be written (then its header is still all zero).
    const auto fault = ch.take_error();
    if (fault && fault->what != what) throw fault->to_error(ch.index());
    ModuleLoadReport report = parse_module_load_result(result.pointer, result_bytes);
    if (fault && report.required_bytes == 0) throw fault->to_error(ch.index());
    pinned_->free(result.address);
    return report;
  } catch (...) {
    pinned_->free(result.address);
    throw;
  }
}

void Context::unload_module(ModuleState& module) {
  if (!module.loaded) return;
  module.loaded = false;
  for (const GlobalInfo& g : module.globals) globals_.erase(g.address);
  // Work queued on any channel may still launch the module's kernels.
  drain();
  channel(0).submit({commands::module_unload(module.id)}, "unload of module " + module.name);
}

}  // namespace gpusoc::rt
