// Decoding of one function body (internal to the decoder).
#pragma once

#include "models/ptx/ast.h"
#include "models/ptx/decode_context.h"
#include "models/ptx/diagnostics.h"
#include "models/ptx/program.h"

namespace gpusoc::ptx::detail {

/// Lays out the function's frame (or kernel parameter buffer), decodes its instructions into
/// `out`, and resolves branch targets and call sites. Problems go to `diags`.
void decode_function(const ast::Function& fn, const ModuleSymbols& module, const Program& program,
                     Function& out, Diagnostics& diags);

/// Byte size and alignment of a declared variable or parameter.
uint32_t variable_size(const ast::VarDecl& d);
uint32_t variable_align(const ast::VarDecl& d);

}  // namespace gpusoc::ptx::detail
