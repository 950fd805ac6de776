#include "ast_print.h"

#include <fmt/format.h>

namespace gpusoc::ptx::test {
namespace {

std::string join(const std::vector<ast::Operand>& ops, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i > 0) out += sep;
    out += print(ops[i]);
  }
  return out;
}

}  // namespace

std::string print(const ast::Operand& op) {
  using Kind = ast::Operand::Kind;
  switch (op.kind) {
    case Kind::Register:
      return fmt::format("{}{}{}{}", op.negated ? "!" : "", op.name, op.component ? "." : "",
                         op.component ? std::string(1, op.component) : "");
    case Kind::Symbol:
      return op.name;
    case Kind::IntImmediate:
      return std::to_string(op.int_value);
    case Kind::FloatImmediate:
      return op.float_is_f32 ? fmt::format("0f{:08X}", op.float_bits)
                             : fmt::format("0d{:016X}", op.float_bits);
    case Kind::Address: {
      std::string out = "[" + op.name;
      if (op.name.empty()) {
        out += std::to_string(op.int_value);
      } else if (op.int_value != 0) {
        out += fmt::format("{:+}", op.int_value);
      }
      if (!op.elements.empty()) out += ", " + join(op.elements, ", ");
      return out + "]";
    }
    case Kind::Vector:
      return "{" + join(op.elements, ", ") + "}";
    case Kind::PredPair:
      return join(op.elements, "|");
    case Kind::ParenList:
      return "(" + join(op.elements, ", ") + ")";
    case Kind::Sink:
      return "_";
  }
  return "?";
}

std::string print(const ast::Instruction& ins) {
  std::string out;
  if (!ins.guard.empty()) out = fmt::format("@{}{} ", ins.guard_negated ? "!" : "", ins.guard);
  out += ins.opcode;
  for (const std::string& m : ins.modifiers) out += "." + m;
  if (!ins.operands.empty()) out += " " + join(ins.operands, ", ");
  return out;
}

std::string print(const ast::Statement& stmt) {
  using Kind = ast::Statement::Kind;
  switch (stmt.kind) {
    case Kind::Instruction:
      return print(stmt.instruction);
    case Kind::Label:
      return stmt.label + ":";
    case Kind::BlockBegin:
      return "{";
    case Kind::BlockEnd:
      return "}";
    case Kind::CallPrototype:
      return stmt.label + ": .callprototype";
    case Kind::Declaration: {
      const ast::VarDecl& d = stmt.decl;
      std::string out = fmt::format(".{}", to_string(d.space));
      if (d.align) out += fmt::format(" .align {}", d.align);
      if (d.vector > 1) out += fmt::format(" .v{}", d.vector);
      out += fmt::format(" .{} {}", to_string(d.type), d.name);
      if (d.is_range) out += fmt::format("<{}>", d.range_count);
      for (uint64_t dim : d.dims) out += dim ? fmt::format("[{}]", dim) : "[]";
      return out;
    }
  }
  return "?";
}

std::vector<std::string> locate(const Diagnostics& diags) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags.list()) {
    out.push_back(fmt::format("{}:{}: {}", d.loc.line, d.loc.column, d.message));
  }
  return out;
}

}  // namespace gpusoc::ptx::test
