// Internals of the PTX parser, shared by parser.cpp (module and functions), parser_decl.cpp
// (declarations, initializers) and parser_instr.cpp (instructions, operands).
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "models/ptx/ast.h"
#include "models/ptx/lexer.h"

namespace gpusoc::ptx::detail {

/// Thrown after a syntax error has been reported; caught where parsing can resume.
struct SyntaxError {};

/// .visible/.extern/.weak/.common written before a declaration.
struct Linkage {
  bool is_visible = false, is_extern = false, is_weak = false, is_common = false;
  SourceLoc loc;
  bool any() const { return is_visible || is_extern || is_weak || is_common; }
};

/// A numeric literal with its optional leading '-' applied.
struct Number {
  bool is_float = false;
  bool is_f32 = false;  // 0f literal: f32 bits; other floats hold f64 bits
  uint64_t bits = 0;    // integer value (two's complement) or float bits
  SourceLoc loc;
};

/// A directive with whitespace before it that begins a module-scope item (.entry, .global, ...).
bool is_module_item_start(const Token& tok);
/// PTX directives this front end deliberately does not implement.
bool is_unsupported_directive(std::string_view text);

class Parser {
 public:
  Parser(std::string_view text, Diagnostics& diags) : lexer_(text, diags), diags_(diags) {}
  ast::Module parse();

 private:
  // --- token stream and errors (parser.cpp) ---
  const Token& peek(size_t ahead = 0);
  Token take();
  bool accept(char punct);
  Token expect(char punct, std::string_view context);
  Token expect_identifier(std::string_view what);
  uint64_t expect_unsigned(std::string_view what, uint64_t max);
  Number parse_number(std::string_view what);
  /// Consumes the ';' ending a statement; a missing one at the end of a line is reported at
  /// the end of the statement without skipping anything.
  void expect_terminator(std::string_view what);
  void error(SourceLoc loc, std::string message);
  /// Reports "expected <what>, found <token>" at the token and throws SyntaxError.
  [[noreturn]] void fail_expected(std::string_view what, const Token& found);
  [[noreturn]] void fail(SourceLoc loc, std::string message);
  bool too_many_errors();
  void skip_line(uint32_t line);
  /// Skips the rest of a bad statement: through the next ';', stopping before a '}' that
  /// closes a block opened before the statement. `open_braces` is how many '{' of the
  /// statement itself were already consumed.
  void recover_statement(int open_braces);
  /// At module scope: skips through the next ';' or a whole { } block. `open_braces` counts the
  /// initializer braces of the bad item already consumed.
  void recover_module(int open_braces);

  // --- module scope (parser.cpp) ---
  void parse_module_item(ast::Module& module);
  void parse_version(ast::Module& module);
  void parse_target(ast::Module& module);
  void parse_address_size(ast::Module& module);
  void skip_section();
  void skip_pragma();
  Linkage parse_linkage();
  /// `+8`, `-4` or `+-4` after an address base or an initializer symbol.
  int64_t parse_offset();

  // --- functions (parser_func.cpp) ---
  void parse_function(const Linkage& linkage, ast::Module& module);
  void parse_performance_directives(ast::Function& fn);
  unsigned parse_directive_value(const Token& directive);
  void parse_body(ast::Function& fn, const Token& open);
  void parse_statement(ast::Function& fn);
  void parse_call_prototype(ast::Statement& stmt);

  // --- declarations (parser_decl.cpp) ---
  /// A declaration list starting at its state space, through its ';':
  /// `.global .align 4 .u32 a, b[2] = {1, 2};`
  std::vector<ast::VarDecl> parse_var_decls(const Linkage& linkage);
  /// `(.param .b32 a, .param .align 8 .b8 b[16])`; an empty list is allowed. A bad parameter
  /// is reported and skipped up to the closing ')', so that the body is still parsed.
  std::vector<ast::VarDecl> parse_param_list();
  ast::VarDecl parse_param();
  /// State space, then .align/.v2/.ptr/.attribute qualifiers and the type, in any order.
  void parse_decl_qualifiers(ast::VarDecl& decl);
  void parse_attribute(ast::VarDecl& decl);
  void parse_decl_name(ast::VarDecl& decl);
  void parse_initializer(ast::VarDecl& decl);
  void parse_init_element(std::vector<ast::InitValue>& out, int depth);
  ast::InitValue parse_init_scalar();
  void note_register(const ast::VarDecl& decl);

  // --- instructions and operands (parser_instr.cpp) ---
  ast::Instruction parse_instruction();
  /// True when an instruction has no operands although no ';' follows (a missing ';').
  bool operands_absent(std::string_view opcode);
  ast::Operand parse_operand();
  ast::Operand parse_name_operand();
  ast::Operand parse_number_operand();
  ast::Operand parse_address_operand();
  ast::Operand parse_list_operand(char close, ast::Operand::Kind kind);
  bool is_register_name(std::string_view name) const;

  Lexer lexer_;
  Diagnostics& diags_;
  std::deque<Token> lookahead_;
  SourceLoc prev_end_{1, 1};  // where the last taken token ended
  Token end_token_;           // what peek() returns once parsing has given up
  uint64_t taken_ = 0;        // tokens consumed, to make sure recovery makes progress
  size_t first_error_ = 0;    // diagnostics already in the list before this module
  bool gave_up_ = false;
  bool saw_version_ = false;
  int open_braces_ = 0;    // '{' of operands or initializers consumed in the current statement
  int operand_depth_ = 0;  // nesting of the operand being parsed ([tex, {coords}])

  // Registers declared with user names (temp_param_reg), and range prefixes (x<4>: x0..x3).
  std::unordered_set<std::string> register_names_;
  std::vector<std::pair<std::string, unsigned>> register_ranges_;
};

}  // namespace gpusoc::ptx::detail
