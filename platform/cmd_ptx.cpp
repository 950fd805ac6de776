// `gpusoc ptx check FILE...`: parse and load PTX modules the way a launch would, reporting every
// problem (syntax, unsupported instruction, undefined label or symbol) with file, line and column.
#include <iostream>

#include "models/ptx/device.h"
#include "models/ptx/diagnostics.h"
#include "platform/command.h"

namespace gpusoc::platform {
namespace {

int check(const CommandContext& ctx) {
  int failed = 0;
  for (const std::string& file : ctx.args) {
    ptx::FunctionalDevice device;  // a fresh device each time: modules place their variables
    try {
      const ptx::Module m = device.load_module_file(file);
      const auto kernels = m.kernel_names();
      std::cout << file << ": ok (" << kernels.size() << " kernel"
                << (kernels.size() == 1 ? "" : "s");
      for (size_t i = 0; i < kernels.size(); ++i) std::cout << (i ? ", " : ": ") << kernels[i];
      std::cout << ")\n";
    } catch (const ptx::ModuleLoadError& e) {
      ++failed;
      for (const ptx::Diagnostic& d : e.diagnostics()) std::cerr << d.to_string() << "\n";
      std::cerr << file << ": " << e.diagnostics().size() << " problem"
                << (e.diagnostics().size() == 1 ? "" : "s") << "\n";
    }
  }
  return failed ? 1 : 0;
}

const CommandRegistration kCheck{
    Command("ptx check", "parse and load PTX files, reporting every unsupported or invalid line",
            check)
        .args("FILE...", 1)};

}  // namespace
}  // namespace gpusoc::platform
