// Static shared memory laid out per kernel (internal to the decoder). A kernel is charged for
// the static .shared variables that it and the functions it may call name, not for every
// variable of its module: a module whose kernels each use their own tiles gives each kernel
// only its tiles, as ptxas does.
//
// Method. Each function's references are gathered from its body: the shared variables its
// instructions name, the functions they name (direct calls, and addresses taken), and whether
// it calls through a register (which may then reach any .func with a body). A kernel reaches
// what its call graph reaches. Variables named only by initializers of other variables count as
// reached by every kernel; variables no code names take no room.
//
// A function compiled once is shared by every kernel that calls it, so a variable has one
// offset in all of them. Variables are placed in groups of the same reaching kernels, groups
// reached by more kernels first; each goes at the first aligned offset past everything already
// placed for any kernel that reaches it. Variables of different kernels thus overlap, and a
// kernel whose variables are its own starts them at offset 0.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/ptx/ast.h"

namespace gpusoc::ptx::detail {

struct SharedLayout {
  std::unordered_map<std::string, uint64_t> offsets;  // by variable name
  /// Static shared bytes of each kernel (by name), as ptxas counts them: up to the end of its
  /// last variable; 0 for kernels that reach no shared variable.
  std::unordered_map<std::string, uint64_t> kernel_bytes;
};

/// Lays out `variables` (the module's static, non-extern .shared declarations, module and
/// function scope, each placeable) for the kernels of `module`.
SharedLayout layout_shared_variables(const ast::Module& module,
                                     const std::vector<const ast::VarDecl*>& variables);

}  // namespace gpusoc::ptx::detail
