#include "models/ptx/module_load.h"

#include "models/ptx/parser.h"
#include "models/ptx/ptxas_report.h"

namespace gpusoc::ptx {

std::shared_ptr<Program> load_program(const ModuleSource& source, GlobalPlacement& placement,
                                      Diagnostics& diags) {
  if (source.ptx.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    diags.error(SourceLoc{}, "no PTX text");
    return nullptr;
  }
  ast::Module parsed = parse_module(source.ptx, diags);
  if (!diags.empty()) return nullptr;
  parsed.file = source.file;
  std::shared_ptr<Program> program = decode_module(parsed, placement, diags);
  if (!diags.empty()) return nullptr;
  cache_registers_per_thread(*program, source.target);
  if (!source.ptxas_report.empty()) {
    Diagnostics report_diags(source.report_file);
    const PtxasReport report = parse_ptxas_report(source.ptxas_report, report_diags);
    if (report_diags.empty()) apply_ptxas_report(*program, report, report_diags);
    for (const Diagnostic& d : report_diags.list()) diags.add(d);
  }
  return diags.empty() ? program : nullptr;
}

}  // namespace gpusoc::ptx
