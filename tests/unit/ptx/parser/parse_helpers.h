// Shared helpers of the parser tests: parse snippets and look at what came out.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "ast_print.h"
#include "models/ptx/parser.h"

namespace gpusoc::ptx::test {

inline constexpr std::string_view kHeader = ".version 8.5\n.target sm_80\n.address_size 64\n";

inline std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

/// Parses text that must be free of errors.
inline ast::Module parse_ok(std::string_view text) {
  Diagnostics diags("test.ptx");
  ast::Module module = parse_module(text, diags);
  EXPECT_TRUE(diags.empty()) << join_lines(locate(diags));
  return module;
}

/// "line:column: message" for every diagnostic of `text`.
inline std::vector<std::string> parse_errors(std::string_view text) {
  Diagnostics diags("test.ptx");
  parse_module(text, diags);
  return locate(diags);
}

/// The body of a kernel made of `statements` (the header takes lines 1-5, the body starts on 6).
inline std::vector<ast::Statement> parse_body(std::string_view statements) {
  const ast::Module module =
      parse_ok(std::string(kHeader) + ".entry k()\n{\n" + std::string(statements) + "\n}\n");
  if (module.functions.size() != 1) {
    ADD_FAILURE() << "expected one function";
    return {};
  }
  return module.functions[0].body;
}

/// Each statement of a kernel body, printed.
inline std::vector<std::string> print_body(std::string_view statements) {
  std::vector<std::string> out;
  for (const ast::Statement& stmt : parse_body(statements)) out.push_back(print(stmt));
  return out;
}

/// The single instruction of a kernel body.
inline ast::Instruction parse_instruction(std::string_view text) {
  const std::vector<ast::Statement> body = parse_body(text);
  if (body.size() != 1 || body[0].kind != ast::Statement::Kind::Instruction) {
    ADD_FAILURE() << "expected exactly one instruction in: " << text;
    return {};
  }
  return body[0].instruction;
}

}  // namespace gpusoc::ptx::test
