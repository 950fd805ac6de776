// Functions: headers, performance directives, bodies and their statements.
#include <limits>

#include <fmt/format.h>

#include "models/ptx/parser_impl.h"

namespace gpusoc::ptx::detail {
namespace {

// A directive that cannot appear in a body: the body before it lacks its closing '}'.
bool ends_function_body(const Token& tok) {
  return is_module_item_start(tok) && !parse_state_space(tok.text).has_value();
}

}  // namespace

void Parser::parse_function(const Linkage& linkage, ast::Module& module) {
  const Token keyword = take();
  ast::Function fn;
  fn.is_entry = keyword.text == ".entry";
  fn.is_visible = linkage.is_visible;
  fn.is_extern = linkage.is_extern;
  fn.is_weak = linkage.is_weak;
  if (linkage.is_common) error(linkage.loc, "'.common' applies only to variables");
  register_names_.clear();
  register_ranges_.clear();

  if (!fn.is_entry && peek().is('(')) fn.returns = parse_param_list();
  const Token name =
      expect_identifier(fn.is_entry ? "a kernel name after '.entry'" : "a function name");
  fn.name = std::string(name.text);
  fn.loc = name.loc;
  if (peek().is('(')) fn.params = parse_param_list();
  parse_performance_directives(fn);

  if (accept(';')) {
    module.functions.push_back(std::move(fn));
    return;
  }
  if (!peek().is('{')) {
    fail_expected(fmt::format("'{{' or ';' after the header of '{}'", fn.name), peek());
  }
  const Token open = take();
  fn.has_body = true;
  parse_body(fn, open);
  module.functions.push_back(std::move(fn));
}

void Parser::parse_performance_directives(ast::Function& fn) {
  while (peek().kind == TokenKind::Directive) {
    const Token tok = peek();
    const std::string_view word = tok.text;
    unsigned* dims = word == ".maxntid"             ? fn.maxntid
                     : word == ".reqntid"           ? fn.reqntid
                     : word == ".reqnctapercluster" ? fn.reqnctapercluster
                                                    : nullptr;
    if (dims != nullptr) {
      take();
      dims[0] = parse_directive_value(tok);
      dims[1] = dims[2] = 1;
      if (accept(',')) {
        dims[1] = parse_directive_value(tok);
        if (accept(',')) dims[2] = parse_directive_value(tok);
      }
    } else if (word == ".minnctapersm") {
      take();
      fn.minnctapersm = parse_directive_value(tok);
    } else if (word == ".maxnreg") {
      take();
      fn.maxnreg = parse_directive_value(tok);
    } else if (word == ".maxclusterrank") {
      take();
      fn.maxclusterrank = parse_directive_value(tok);
    } else if (word == ".explicitcluster") {
      take();
      fn.explicitcluster = true;
    } else if (word == ".noreturn") {
      take();
      if (fn.is_entry) error(tok.loc, "'.noreturn' is not allowed on a kernel");
      fn.noreturn = true;
    } else if (word == ".pragma") {
      skip_pragma();
    } else {
      return;
    }
  }
}

unsigned Parser::parse_directive_value(const Token& directive) {
  const Token tok = peek();
  const uint64_t value = expect_unsigned(fmt::format("a number after '{}'", directive.text),
                                         std::numeric_limits<uint32_t>::max());
  if (value == 0) fail(tok.loc, fmt::format("'{}' values must be positive", directive.text));
  return static_cast<unsigned>(value);
}

void Parser::parse_body(ast::Function& fn, const Token& open) {
  int depth = 0;
  while (true) {
    const Token& tok = peek();
    if (tok.kind == TokenKind::End) {
      error(open.loc, fmt::format("unterminated body of '{}' (missing '}}')", fn.name));
      return;
    }
    if (ends_function_body(tok)) {
      error(tok.loc, fmt::format("missing '}}' at the end of '{}'", fn.name));
      return;
    }
    if (tok.is('{') || tok.is('}')) {
      const Token brace = take();
      const bool opens = brace.is('{');
      if (!opens && depth == 0) return;
      depth += opens ? 1 : -1;
      ast::Statement stmt;
      stmt.loc = brace.loc;
      stmt.kind = opens ? ast::Statement::Kind::BlockBegin : ast::Statement::Kind::BlockEnd;
      fn.body.push_back(std::move(stmt));
      continue;
    }
    const uint64_t before = taken_;
    open_braces_ = 0;
    operand_depth_ = 0;
    try {
      parse_statement(fn);
    } catch (const SyntaxError&) {
      recover_statement(open_braces_);
      if (taken_ == before) take();  // always make progress
    }
  }
}

void Parser::parse_statement(ast::Function& fn) {
  const Token tok = peek();
  ast::Statement stmt;
  stmt.loc = tok.loc;
  if (tok.kind == TokenKind::Directive) {
    const std::string_view word = tok.text;
    if (word == ".loc" || word == ".file") return skip_line(take().loc.line);
    if (word == ".pragma") return skip_pragma();
    if (parse_state_space(word) && word != ".sreg" && word != ".tex" && word != ".generic") {
      for (ast::VarDecl& decl : parse_var_decls(Linkage{})) {
        note_register(decl);
        stmt.kind = ast::Statement::Kind::Declaration;
        stmt.decl = std::move(decl);
        fn.body.push_back(stmt);
      }
      return;
    }
    if (is_unsupported_directive(word)) {
      fail(tok.loc, fmt::format("unsupported directive {}", quote(word)));
    }
    fail(tok.loc, fmt::format("unknown directive {}", quote(word)));
  }
  if (tok.kind == TokenKind::Identifier && peek(1).is(':')) {
    take();
    take();
    stmt.label = std::string(tok.text);
    const Token& next = peek();
    if (next.is_directive(".callprototype")) {
      stmt.kind = ast::Statement::Kind::CallPrototype;
      parse_call_prototype(stmt);
    } else if (next.is_directive(".branchtargets") || next.is_directive(".calltargets")) {
      fail(next.loc, fmt::format("unsupported directive {}", quote(next.text)));
    } else if (tok.text[0] == '%') {
      fail(tok.loc, fmt::format("register name {} cannot be a label", quote(tok.text)));
    } else {
      stmt.kind = ast::Statement::Kind::Label;
    }
    fn.body.push_back(std::move(stmt));
    return;
  }
  stmt.kind = ast::Statement::Kind::Instruction;
  stmt.instruction = parse_instruction();
  fn.body.push_back(std::move(stmt));
}

void Parser::parse_call_prototype(ast::Statement& stmt) {
  take();
  if (peek().is('(')) stmt.proto_returns = parse_param_list();
  const Token placeholder = expect_identifier("'_' in '.callprototype'");
  if (placeholder.text != "_") {
    error(placeholder.loc, "expected '_' in place of the function name in '.callprototype'");
  }
  if (peek().is('(')) stmt.proto_params = parse_param_list();
  if (peek().is_directive(".noreturn")) take();
  expect_terminator("'.callprototype'");
}

}  // namespace gpusoc::ptx::detail
