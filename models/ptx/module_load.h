// Loading a module: the one path every loader takes (the functional device and `gpusoc ptx
// check`, the GigaThread engine's module loader on the SoC), so that a module the one accepts
// the other accepts too. Parse, decode (names, types, layouts), estimate each kernel's
// registers for the target SM, then give the kernels the exact counts of a ptxas report when
// there is one (ptxas_report.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "models/ptx/decoder.h"
#include "models/ptx/diagnostics.h"
#include "models/ptx/program.h"
#include "models/ptx/register_pressure.h"

namespace gpusoc::ptx {

struct ModuleSource {
  std::string_view ptx;
  std::string file;               // the module's name in messages
  std::string_view ptxas_report;  // empty: none
  std::string report_file;        // its name in messages
  RegisterTarget target;          // the SM the register estimate is for
};

/// The loaded program, or null with every problem in `diags` (whose file is the module's).
std::shared_ptr<Program> load_program(const ModuleSource& source, GlobalPlacement& placement,
                                      Diagnostics& diags);

}  // namespace gpusoc::ptx
