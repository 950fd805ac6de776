// Decoding of one function body (internal to the decoder).
#pragma once

#include <string>

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
uint32_t variable_size(const ast::VarDecl& d);  // saturates above kMaxVariableBytes
/// Why a declaration cannot be placed (too large, bad alignment); empty when it can.
std::string variable_problem(const ast::VarDecl& d);
constexpr uint32_t kMaxVariableBytes = 16u << 20;
constexpr uint32_t kMaxAlign = 4096;
/// Local memory of one function activation, and a kernel's parameter buffer.
constexpr uint64_t kMaxFrameBytes = 16u << 20;
constexpr uint64_t kMaxParamBufferBytes = 32764;  // CUDA's kernel parameter limit
uint32_t variable_align(const ast::VarDecl& d);

}  // namespace gpusoc::ptx::detail
