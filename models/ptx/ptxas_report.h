// What ptxas says a module's kernels use, read from its verbose report, so that users can give
// the model exact register counts instead of the estimate (register_pressure.h). Two formats:
//  - `ptxas -v` (also `nvcc -Xptxas -v`):
//      ptxas info    : Compiling entry function 'saxpy' for 'sm_80'
//      ptxas info    : Function properties for saxpy
//          0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//      ptxas info    : Used 10 registers, used 0 barriers, 360 bytes cmem[0]
//  - `cuobjdump --dump-resource-usage`:
//      Function saxpy:
//          REG:10 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0
// Other lines (compile times, gmem, warnings, nvcc's own output) are skipped. The loaders look
// for a module's report beside it (read_ptxas_report, models/common/text_file.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/ptx/diagnostics.h"

namespace gpusoc::ptx {

class Program;

struct KernelResources {
  uint32_t registers = 0;
  uint32_t shared_bytes = 0;       // static shared memory
  uint32_t stack_frame_bytes = 0;  // local memory per thread: frame, spills
  uint32_t spill_store_bytes = 0;
  std::string target;  // sm_80 ...; empty when the report does not say
  uint32_t line = 0;   // where the register count was given
};

struct PtxasReport {
  std::string file;                                // for messages
  std::map<std::string, KernelResources> kernels;  // by (mangled) name
};

/// Reads a report; problems (a count that is not a number, a register line before any kernel,
/// a report that names no kernel) go to `diags`, whose file is the report's.
PtxasReport parse_ptxas_report(std::string_view text, Diagnostics& diags);

/// Gives each kernel of `program` that `report` names its registers and (when larger than the
/// module's layout) its static shared memory, marking the registers' source. A kernel the
/// report names that the module does not have is a problem in `diags`.
void apply_ptxas_report(Program& program, const PtxasReport& report, Diagnostics& diags);

}  // namespace gpusoc::ptx
