// Malformed input: every problem is a diagnostic at the right place, and parsing goes on.
#include <gtest/gtest.h>

#include "parse_helpers.h"

namespace gpusoc::ptx::test {
namespace {

using ::testing::ElementsAre;

/// Errors of `line` placed as line 6 of a kernel body ("  " indents it: its text starts at 3).
std::vector<std::string> body_errors(std::string_view line) {
  return parse_errors(std::string(kHeader) + ".entry k()\n{\n" + std::string(line) + "\n}\n");
}

/// Errors of `line` placed as line 4, after the module header.
std::vector<std::string> module_errors(std::string_view line) {
  return parse_errors(std::string(kHeader) + std::string(line) + "\n");
}

TEST(ParserErrors, EmptyInput) {
  EXPECT_THAT(parse_errors(""),
              ElementsAre("1:1: missing '.version' directive", "1:1: missing '.target' directive"));
  EXPECT_THAT(parse_errors("  // only a comment\n"),
              ElementsAre("1:1: missing '.version' directive", "1:1: missing '.target' directive"));
}

TEST(ParserErrors, HeaderDirectives) {
  EXPECT_THAT(parse_errors(".version 8\n.target sm_80\n"),
              ElementsAre("1:10: expected a version 'major.minor' after '.version', found '8'"));
  EXPECT_THAT(parse_errors(".version 8.0\n.version 8.1\n.target sm_80\n"),
              ElementsAre("2:1: duplicate '.version' directive"));
  EXPECT_THAT(parse_errors(".version 8.0\n.target sm_80\n.address_size 48\n"),
              ElementsAre("3:15: '.address_size' must be 32 or 64"));
  EXPECT_THAT(parse_errors(".version 8.0\n.target 80\n"),
              ElementsAre("2:9: expected a target name after '.target', found '80'",
                          "1:1: missing '.target' directive"));
}

TEST(ParserErrors, UnknownDirectiveRecovers) {
  Diagnostics diags("test.ptx");
  const ast::Module m =
      parse_module(std::string(kHeader) + ".foo bar;\n.entry k() { ret; }\n", diags);
  EXPECT_THAT(locate(diags), ElementsAre("4:1: unknown directive '.foo'"));
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].body.size(), 1u);
}

TEST(ParserErrors, ModuleScope) {
  EXPECT_THAT(module_errors("mov.u32 %r1, 1;"),
              ElementsAre("4:1: expected a directive at module scope, found 'mov'"));
  EXPECT_THAT(module_errors("}"), ElementsAre("4:1: unmatched '}'"));
  EXPECT_THAT(module_errors(".reg .u32 %r;"),
              ElementsAre("4:1: '.reg' variables are not allowed at module scope"));
  EXPECT_THAT(module_errors(".alias a, b;"), ElementsAre("4:1: unsupported directive '.alias'"));
  EXPECT_THAT(module_errors(".visible .u32 x;"),
              ElementsAre("4:10: expected '.entry', '.func' or a variable after linkage, found "
                          "'.u32'"));
  EXPECT_THAT(module_errors(".section .debug_info {\n.b8 1\n"),
              ElementsAre("4:1: unterminated '.section' block (missing '}')"));
}

TEST(ParserErrors, MissingSemicolonAtEndOfLine) {
  Diagnostics diags("test.ptx");
  const ast::Module m = parse_module(std::string(kHeader) +
                                         ".entry k()\n{\n  add.s32 %r1, %r2, %r3\n"
                                         "  mov.u32 %r4, %r5;\n  ret\n$L1:\n  exit\n}\n",
                                     diags);
  EXPECT_THAT(locate(diags), ElementsAre("6:24: expected ';' after instruction",
                                         "8:6: expected ';' after instruction",
                                         "10:7: expected ';' after instruction"));
  ASSERT_EQ(m.functions.size(), 1u);
  std::vector<std::string> body;
  for (const ast::Statement& s : m.functions[0].body) body.push_back(print(s));
  EXPECT_THAT(body,
              ElementsAre("add.s32 %r1, %r2, %r3", "mov.u32 %r4, %r5", "ret", "$L1:", "exit"));
}

TEST(ParserErrors, Operands) {
  EXPECT_THAT(body_errors("  add.s32 %r1, %r2 %r3;"),
              ElementsAre("6:20: expected ',' or ';' after operand, found '%r3'"));
  EXPECT_THAT(body_errors("  add.s32 %r1, ;"), ElementsAre("6:16: expected an operand, found ';'"));
  EXPECT_THAT(body_errors("  ld.global.u32 %r1, [%rd1+];"),
              ElementsAre("6:28: expected an integer offset after '+', found ']'"));
  EXPECT_THAT(body_errors("  ld.global.u32 %r1, [%rd1;"),
              ElementsAre("6:27: expected ']' to close the address, found ';'"));
  EXPECT_THAT(body_errors("  st.global.v2.f32 [%rd1], {};"),
              ElementsAre("6:29: empty vector operand"));
  EXPECT_THAT(body_errors("  @ bra L;"),
              ElementsAre("6:5: expected a predicate register after '@', found 'bra'"));
  EXPECT_THAT(body_errors("  mov.pred %p1, !foo;"),
              ElementsAre("6:17: '!' applies only to predicate registers, not to 'foo'"));
  EXPECT_THAT(body_errors("  mov.b64 %rd1, {{{{%r1}}}};"),
              ElementsAre("6:20: operands nested too deeply"));
  EXPECT_THAT(body_errors("  mov.f32 %f1, -%f2;"),
              ElementsAre("6:17: expected a number after '-', found '%f2'"));
  EXPECT_THAT(body_errors("  ld.u32 %r1, [1.5];"),
              ElementsAre("6:16: expected an address, found '1.5'"));
  EXPECT_THAT(body_errors("  ld.u32 %r1, [-1.5];"),
              ElementsAre("6:16: an address cannot be a floating-point number"));
}

TEST(ParserErrors, VectorErrorKeepsFollowingStatements) {
  Diagnostics diags("test.ptx");
  const ast::Module m = parse_module(
      std::string(kHeader) + ".entry k()\n{\n  st.v2.f32 [%rd1], {%f1 %f2};\n  { ret; }\n}\n",
      diags);
  EXPECT_THAT(locate(diags), ElementsAre("6:26: expected ',' or '}' in the vector, found '%f2'"));
  ASSERT_EQ(m.functions.size(), 1u);
  std::vector<std::string> body;
  for (const ast::Statement& s : m.functions[0].body) body.push_back(print(s));
  EXPECT_THAT(body, ElementsAre("{", "ret", "}"));
}

TEST(ParserErrors, Statements) {
  EXPECT_THAT(body_errors("  .foo;"), ElementsAre("6:3: unknown directive '.foo'"));
  EXPECT_THAT(body_errors("  42;"),
              ElementsAre("6:3: expected an instruction, label or declaration, found '42'"));
  EXPECT_THAT(body_errors("  %r1: ret;"),
              ElementsAre("6:3: register name '%r1' cannot be a label"));
  EXPECT_THAT(body_errors("  $Ltab: .branchtargets $L1, $L2;"),
              ElementsAre("6:10: unsupported directive '.branchtargets'"));
  EXPECT_THAT(body_errors("  proto: .callprototype (.param .b32 _) f (.param .b32 _);"),
              ElementsAre("6:41: expected '_' in place of the function name in '.callprototype'"));
  EXPECT_THAT(body_errors("  ld .global.u32 %r1, [%rd1];"),
              ElementsAre("6:6: expected ';' after instruction, found '.global'"));
}

TEST(ParserErrors, Literals) {
  const std::pair<const char*, const char*> cases[] = {
      {"0x", "invalid integer literal '0x'"},
      {"0b102", "invalid integer literal '0b102'"},
      {"019", "invalid integer literal '019'"},
      {"12abc", "invalid integer literal '12abc'"},
      {"99999999999999999999999",
       "integer literal '99999999999999999999999' does not fit in 64 bits"},
      {"0x1FFFFFFFFFFFFFFFF", "integer literal '0x1FFFFFFFFFFFFFFFF' does not fit in 64 bits"},
      {"0f3F80", "invalid float literal '0f3F80' (0f takes 8 hex digits)"},
      {"0d3FF0", "invalid float literal '0d3FF0' (0d takes 16 hex digits)"},
      {"0f3F80000G", "invalid float literal '0f3F80000G' (0f takes 8 hex digits)"},
      {"1e999", "float literal '1e999' is out of range"},
      {"1.5x", "invalid float literal '1.5x'"},
  };
  for (const auto& [literal, message] : cases) {
    EXPECT_THAT(body_errors(std::string("  mov.u32 %r1, ") + literal + ";"),
                ElementsAre(std::string("6:16: ") + message))
        << literal;
  }
}

TEST(ParserErrors, LexicalProblems) {
  EXPECT_THAT(module_errors("/* never closed\n.entry k() { ret; }"),
              ElementsAre("4:1: unterminated block comment"));
  EXPECT_THAT(
      module_errors(".pragma \"nounroll;"),
      ElementsAre("4:9: unterminated string literal", "4:19: expected ';' after '.pragma'"));
  EXPECT_THAT(body_errors("  add.s32 %r1, %r2, #;"), ElementsAre("6:21: unexpected character '#'"));
  EXPECT_THAT(module_errors("\x01\xFF"), ElementsAre("4:1: unexpected characters '\\x01\\xFF'"));
  EXPECT_THAT(module_errors("%% .global .u32 x;"), ElementsAre("4:1: unexpected characters '%%'"));
}

TEST(ParserErrors, Bodies) {
  EXPECT_THAT(parse_errors(std::string(kHeader) + ".entry k()\n{\n  ret;\n"),
              ElementsAre("5:1: unterminated body of 'k' (missing '}')"));

  Diagnostics diags("test.ptx");
  const ast::Module m = parse_module(
      std::string(kHeader) + ".entry a()\n{\n  ret;\n.entry b()\n{\n  exit;\n}\n", diags);
  EXPECT_THAT(locate(diags), ElementsAre("7:1: missing '}' at the end of 'a'"));
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_EQ(print(m.functions[0].body.at(0)), "ret");
  EXPECT_EQ(print(m.functions[1].body.at(0)), "exit");
}

TEST(ParserErrors, FunctionHeaders) {
  EXPECT_THAT(module_errors(".entry 42() { ret; }"),
              ElementsAre("4:8: expected a kernel name after '.entry', found '42'"));
  EXPECT_THAT(module_errors(".entry k() .noreturn { ret; }"),
              ElementsAre("4:12: '.noreturn' is not allowed on a kernel"));
  EXPECT_THAT(module_errors(".entry k() .maxntid 0 { ret; }"),
              ElementsAre("4:21: '.maxntid' values must be positive"));
  EXPECT_THAT(module_errors(".entry k() .maxnreg { ret; }"),
              ElementsAre("4:21: expected a number after '.maxnreg', found '{'"));
  EXPECT_THAT(module_errors(".common .func f() { ret; }"),
              ElementsAre("4:1: '.common' applies only to variables"));
  EXPECT_THAT(module_errors(".entry k() .foo { ret; }"),
              ElementsAre("4:12: expected '{' or ';' after the header of 'k', found '.foo'"));

  Diagnostics diags("test.ptx");
  const ast::Module m = parse_module(
      std::string(kHeader) + ".entry k(.param .u32 a, .param .u33 b) { ret; }\n", diags);
  EXPECT_THAT(locate(diags), ElementsAre("4:32: unexpected '.u33' in declaration"));
  ASSERT_EQ(m.functions.size(), 1u);
  EXPECT_EQ(m.functions[0].params.size(), 1u);
  EXPECT_EQ(m.functions[0].body.size(), 1u);
}

TEST(ParserErrors, Declarations) {
  const std::pair<const char*, const char*> cases[] = {
      {".global .align 3 .u32 x;", "4:9: alignment 3 is not a power of two"},
      {".global .u32 .foo x;", "4:14: unexpected '.foo' in declaration"},
      {".global .u32 .s32 x;", "4:14: second type '.s32' in declaration"},
      {".shared .u32 s = 5;",
       "4:16: '.shared' variable 's' cannot have an initializer (only .global and .const "
       "variables can)"},
      {".extern .global .u32 e = 5;", "4:24: extern variable 'e' cannot have an initializer"},
      {".global .u32 a[2] = {1, 2, 3};",
       "4:19: too many initializers for 'a' (3 given, 2 elements)"},
      {".global .u32 m[2][];", "4:18: only the first array dimension may be unsized"},
      {".global .u32 a[0];", "4:16: array size must be positive"},
      {".global .u32 r<4>;", "4:15: register ranges '<N>' are only allowed in '.reg' declarations"},
      {".global .samplerref t;",
       "4:9: unsupported type '.samplerref': separate samplers (texmode_independent) are not "
       "supported"},
      {".shared .texref t;", "4:9: '.texref' is a type of module-scope .global variables"},
      {".global .attribute(.unified) .u32 x;", "4:20: unsupported attribute '.unified'"},
      {".global .u32 .ptr x;", "4:14: '.ptr' is only allowed on '.param' declarations"},
      {".global .align 1 .b8 x[8] = {0xFF(generic(y)), 0};",
       "4:30: address byte masks in initializers (such as 0xFF(sym)) are not supported"},
      {".global .u32 x = {1, 2",
       "4:23: expected ',' or '}' in the initializer, found end of input"},
      {".global .u64 p = generic(%r1);", "4:26: expected a symbol inside 'generic(', found '%r1'"},
      {".global .u32;", "4:13: expected a variable name, found ';'"},
      {".global x;", "4:9: expected a type in the declaration, found 'x'"},
      {".global .u32 x y;", "4:16: expected ';' after declaration, found 'y'"},
  };
  for (const auto& [line, message] : cases) {
    EXPECT_THAT(module_errors(line), ElementsAre(message)) << line;
  }
  EXPECT_THAT(body_errors("  .reg .b32 %r<99999999999>;"),
              ElementsAre("6:16: 99999999999 is too large for a register count after '<' (at most "
                          "16777216)"));
  EXPECT_THAT(body_errors("  .reg .b32 %r<0>;"),
              ElementsAre("6:16: register range count must be positive"));
}

TEST(ParserErrors, DeepNestingIsRejected) {
  EXPECT_THAT(module_errors(".global .u32 x[1] = " + std::string(100, '{') + "1" +
                            std::string(100, '}') + ";"),
              ElementsAre("4:53: initializer nested too deeply"));
}

TEST(ParserErrors, GivesUpAfterTooManyErrors) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "# x;\n";
  const std::vector<std::string> errors = parse_errors(text);
  ASSERT_EQ(errors.size(), 101u);
  EXPECT_EQ(errors[0], "1:1: unexpected character '#'");
  EXPECT_EQ(errors[99], "100:1: unexpected character '#'");
  EXPECT_EQ(errors[100], "100:1: too many errors, giving up");
}

}  // namespace
}  // namespace gpusoc::ptx::test
