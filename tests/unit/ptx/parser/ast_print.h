// Compact text forms of AST pieces, so that tests can compare whole instructions at a glance.
#pragma once

#include <string>
#include <vector>

#include "models/ptx/ast.h"
#include "models/ptx/diagnostics.h"

namespace gpusoc::ptx::test {

/// %r1, !%p1, %tid.x, sym, 42, 0f3F800000, 0d..., [%rd1+16], {%r1, _}, %p1|%p2, (a, b), _
std::string print(const ast::Operand& op);
/// "@!%p1 ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16]"
std::string print(const ast::Instruction& ins);
/// Instructions as above; "label:", "{", "}", ".reg .b32 %r<5>", "proto: .callprototype".
std::string print(const ast::Statement& stmt);
/// "line:column: message" for each diagnostic.
std::vector<std::string> locate(const Diagnostics& diags);

}  // namespace gpusoc::ptx::test
