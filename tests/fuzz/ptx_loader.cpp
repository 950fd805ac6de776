// Fuzz target: the bytes as a PTX module, loaded the way `gpusoc ptx check` and `ptx info` load
// one (platform/cmd_ptx.cpp): parse, decode, estimate registers on a fresh functional device,
// then look up every kernel it reports. A line "//@ptxas" splits the input: the text after it
// is the module's `ptxas -v` report (ptxas_report.h).
// Expected: ptx::ModuleLoadError (every problem as a diagnostic) and gpusoc::Error.
#include <cstdint>
#include <string>
#include <string_view>

#include "models/common/error.h"
#include "models/ptx/device.h"
#include "models/ptx/diagnostics.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpusoc;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string_view report;
  constexpr std::string_view kReportLine = "\n//@ptxas\n";
  if (const size_t cut = text.find(kReportLine); cut != std::string_view::npos) {
    report = text.substr(cut + kReportLine.size());
    text = text.substr(0, cut + 1);
  }
  try {
    ptx::FunctionalDevice device;
    const ptx::Module module = device.load_module(text, "fuzz.ptx", report, "fuzz.ptxas");
    for (const std::string& name : module.kernel_names()) {
      const ptx::Kernel kernel = module.kernel(name);
      if (kernel.name() != name)
        fuzz::finding("ptx_loader", "kernel('" + name + "') is '" + kernel.name() + "'");
      (void)kernel.param_sizes();
    }
  } catch (const ptx::ModuleLoadError& e) {
    fuzz::expected_error("ptx_loader", e);
    if (e.diagnostics().empty()) fuzz::finding("ptx_loader", "ModuleLoadError without diagnostics");
    for (const ptx::Diagnostic& d : e.diagnostics()) (void)d.to_string();
  } catch (const Error& e) {
    fuzz::expected_error("ptx_loader", e);
  } catch (...) {
    fuzz::unexpected_exception("ptx_loader");
  }
  return 0;
}
