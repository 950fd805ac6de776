// Token stream, error recovery and module-scope directives of the PTX parser.
#include "models/ptx/parser.h"

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

#include "models/ptx/parser_impl.h"

namespace gpusoc::ptx {
namespace detail {
namespace {

// Past this many errors the input is most likely not PTX at all; more messages would not help.
constexpr size_t kMaxErrors = 100;

// Directives that start a module-scope item: recovery stops in front of them.
constexpr std::array<std::string_view, 14> kModuleItemStarts{
    ".version", ".target", ".address_size", ".visible", ".extern", ".weak",  ".common",
    ".entry",   ".func",   ".global",       ".const",   ".shared", ".local", ".section"};

// PTX directives that this front end does not implement (as opposed to unknown words).
constexpr std::array<std::string_view, 6> kUnsupportedDirectives{
    ".alias", ".branchtargets", ".calltargets", ".callprototype", ".dwarf", ".tex"};

template <size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

bool parse_decimal(std::string_view digits, unsigned& out) {
  if (digits.empty()) return false;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  return ec == std::errc() && end == digits.data() + digits.size();
}

}  // namespace

bool is_module_item_start(const Token& tok) {
  return tok.kind == TokenKind::Directive && tok.space_before &&
         contains(kModuleItemStarts, tok.text);
}

bool is_unsupported_directive(std::string_view text) {
  return contains(kUnsupportedDirectives, text);
}

// --- token stream ---

const Token& Parser::peek(size_t ahead) {
  while (!gave_up_ && lookahead_.size() <= ahead) {
    lookahead_.push_back(lexer_.next());
    too_many_errors();
  }
  if (gave_up_) {
    end_token_.loc = prev_end_;
    return end_token_;
  }
  return lookahead_[ahead];
}

Token Parser::take() {
  Token tok = peek();
  if (tok.kind != TokenKind::End) {
    lookahead_.pop_front();
    prev_end_ = tok.end();
    ++taken_;
  }
  return tok;
}

bool Parser::accept(char punct) {
  if (!peek().is(punct)) return false;
  take();
  return true;
}

Token Parser::expect(char punct, std::string_view context) {
  if (!peek().is(punct)) fail_expected(fmt::format("'{}' {}", punct, context), peek());
  return take();
}

Token Parser::expect_identifier(std::string_view what) {
  if (peek().kind != TokenKind::Identifier) fail_expected(what, peek());
  return take();
}

uint64_t Parser::expect_unsigned(std::string_view what, uint64_t max) {
  const Token& tok = peek();
  if (tok.kind != TokenKind::Integer) fail_expected(what, tok);
  if (tok.int_bits > max) {
    fail(tok.loc, fmt::format("{} is too large for {} (at most {})", tok.text, what, max));
  }
  return take().int_bits;
}

Number Parser::parse_number(std::string_view what) {
  Number num;
  num.loc = peek().loc;
  const bool negative = accept('-');
  const Token& tok = peek();
  if (tok.kind == TokenKind::Integer) {
    num.bits = negative ? 0 - tok.int_bits : tok.int_bits;
  } else if (tok.kind == TokenKind::Float) {
    num.is_float = true;
    num.is_f32 = tok.float_is_f32;
    num.bits = tok.float_bits;
    if (negative) num.bits ^= num.is_f32 ? (uint64_t{1} << 31) : (uint64_t{1} << 63);
  } else {
    fail_expected(negative ? "a number after '-'" : what, tok);
  }
  take();
  return num;
}

int64_t Parser::parse_offset() {
  const Token sign = take();
  bool negative = sign.is('-');
  if (sign.is('+') && accept('-')) negative = true;  // [%rd1+-4]
  const Token& tok = peek();
  if (tok.kind != TokenKind::Integer) {
    fail_expected(fmt::format("an integer offset after '{}'", sign.text), tok);
  }
  const uint64_t value = take().int_bits;
  return static_cast<int64_t>(negative ? 0 - value : value);
}

void Parser::expect_terminator(std::string_view what) {
  if (accept(';')) return;
  const Token& tok = peek();
  // A statement that simply lacks its ';' is complete: say so and go on with the next line.
  if (tok.kind == TokenKind::End || tok.loc.line > prev_end_.line) {
    error(prev_end_, fmt::format("expected ';' after {}", what));
    return;
  }
  fail_expected(fmt::format("';' after {}", what), tok);
}

// --- errors and recovery ---

void Parser::error(SourceLoc loc, std::string message) {
  if (gave_up_) return;
  diags_.error(loc, std::move(message));
  too_many_errors();
}

void Parser::fail(SourceLoc loc, std::string message) {
  error(loc, std::move(message));
  throw SyntaxError{};
}

void Parser::fail_expected(std::string_view what, const Token& found) {
  // The lexer has already reported what is wrong with an invalid token.
  if (found.kind == TokenKind::Invalid) throw SyntaxError{};
  // The end of input is reported where the text runs out: after the last token.
  if (found.kind == TokenKind::End) {
    fail(prev_end_, fmt::format("expected {}, found end of input", what));
  }
  fail(found.loc, fmt::format("expected {}, found {}", what, quote(found.text)));
}

bool Parser::too_many_errors() {
  if (!gave_up_ && diags_.list().size() >= first_error_ + kMaxErrors) {
    diags_.error(diags_.list().back().loc, "too many errors, giving up");
    gave_up_ = true;
  }
  return gave_up_;
}

void Parser::skip_line(uint32_t line) {
  while (peek().kind != TokenKind::End && peek().loc.line == line) take();
}

void Parser::recover_statement(int open_braces) {
  while (true) {
    const Token& tok = peek();
    const bool new_line = tok.loc.line > prev_end_.line;
    if (tok.kind == TokenKind::End) return;
    if (tok.is(';')) {
      take();
      return;
    }
    if (tok.is('}')) {
      if (open_braces == 0) return;  // it closes a block: the body loop handles it
      --open_braces;
    } else if (tok.is('{')) {
      if (new_line) return;  // a block opening on its own line, after a statement missing ';'
      ++open_braces;
    } else if (new_line && open_braces == 0 &&
               ((tok.kind == TokenKind::Identifier && peek(1).is(':')) ||
                is_module_item_start(tok))) {
      return;  // a label or a new function starts here
    }
    take();
  }
}

void Parser::recover_module(int open_braces) {
  int blocks = 0;  // { } opened while skipping: a function body, skipped whole
  while (true) {
    if (peek().kind == TokenKind::End) return;
    if (blocks == 0 && is_module_item_start(peek())) return;
    const Token tok = take();
    if (tok.is('{')) {
      // Inside an initializer a '{' nests it further; elsewhere it opens a body to skip whole.
      if (open_braces > 0) {
        ++open_braces;
      } else {
        ++blocks;
      }
    } else if (tok.is('}')) {
      if (open_braces > 0) {
        --open_braces;
      } else if (blocks == 0 || --blocks == 0) {
        return;
      }
    } else if (tok.is(';') && blocks == 0) {
      return;
    }
  }
}

// --- module scope ---

ast::Module Parser::parse() {
  ast::Module module;
  module.file = diags_.file();
  first_error_ = diags_.list().size();
  while (peek().kind != TokenKind::End) {
    const uint64_t before = taken_;
    open_braces_ = 0;
    try {
      parse_module_item(module);
    } catch (const SyntaxError&) {
      recover_module(open_braces_);
      if (taken_ == before) take();  // always make progress
    }
  }
  if (!saw_version_) error({1, 1}, "missing '.version' directive");
  if (module.targets.empty()) error({1, 1}, "missing '.target' directive");
  return module;
}

void Parser::parse_module_item(ast::Module& module) {
  const Token& tok = peek();
  if (tok.is('}')) fail(tok.loc, "unmatched '}'");
  if (tok.kind != TokenKind::Directive) fail_expected("a directive at module scope", tok);
  const std::string_view word = tok.text;
  if (word == ".version") return parse_version(module);
  if (word == ".target") return parse_target(module);
  if (word == ".address_size") return parse_address_size(module);
  if (word == ".file" || word == ".loc") return skip_line(take().loc.line);
  if (word == ".section") return skip_section();
  if (word == ".pragma") return skip_pragma();
  if (word == ".reg" || word == ".param") {
    fail(tok.loc, fmt::format("'{}' variables are not allowed at module scope", word));
  }
  if (is_unsupported_directive(word)) {
    fail(tok.loc, fmt::format("unsupported directive {}", quote(word)));
  }

  const Linkage linkage = parse_linkage();
  const Token& what = peek();
  if (what.is_directive(".entry") || what.is_directive(".func")) {
    return parse_function(linkage, module);
  }
  const auto space =
      what.kind == TokenKind::Directive ? parse_state_space(what.text) : std::nullopt;
  if (space == StateSpace::Global || space == StateSpace::Const || space == StateSpace::Shared ||
      space == StateSpace::Local) {
    for (ast::VarDecl& decl : parse_var_decls(linkage)) module.globals.push_back(std::move(decl));
    return;
  }
  if (linkage.any()) fail_expected("'.entry', '.func' or a variable after linkage", what);
  fail(what.loc, fmt::format("unknown directive {}", quote(what.text)));
}

void Parser::parse_version(ast::Module& module) {
  const Token directive = take();
  if (saw_version_) error(directive.loc, "duplicate '.version' directive");
  saw_version_ = true;
  const Token& tok = peek();
  const size_t dot = tok.text.find('.');
  unsigned major = 0, minor = 0;
  if (tok.kind != TokenKind::Float || dot == std::string_view::npos ||
      !parse_decimal(tok.text.substr(0, dot), major) ||
      !parse_decimal(tok.text.substr(dot + 1), minor)) {
    fail_expected("a version 'major.minor' after '.version'", tok);
  }
  take();
  module.version_major = major;
  module.version_minor = minor;
}

void Parser::parse_target(ast::Module& module) {
  take();
  do {
    module.targets.emplace_back(expect_identifier("a target name after '.target'").text);
  } while (accept(','));
}

void Parser::parse_address_size(ast::Module& module) {
  take();
  const Token tok = peek();
  const uint64_t size = expect_unsigned("an address size after '.address_size'", 64);
  if (size != 32 && size != 64) fail(tok.loc, "'.address_size' must be 32 or 64");
  module.address_size = static_cast<unsigned>(size);
}

void Parser::skip_section() {
  const Token directive = take();
  while (!peek().is('{')) {
    const Token& tok = peek();
    if (tok.kind == TokenKind::End || tok.is(';') || tok.loc.line != directive.loc.line) {
      fail_expected("'{' after the '.section' name", tok);
    }
    take();
  }
  take();
  for (int depth = 1; depth > 0;) {
    const Token tok = take();
    if (tok.kind == TokenKind::End) {
      fail(directive.loc, "unterminated '.section' block (missing '}')");
    }
    if (tok.is('{')) ++depth;
    if (tok.is('}')) --depth;
  }
}

void Parser::skip_pragma() {
  take();
  do {
    if (peek().kind != TokenKind::String) fail_expected("a string after '.pragma'", peek());
    take();
  } while (accept(','));
  expect_terminator("'.pragma'");
}

Linkage Parser::parse_linkage() {
  Linkage linkage;
  linkage.loc = peek().loc;
  while (true) {
    const Token& tok = peek();
    if (tok.is_directive(".visible")) {
      linkage.is_visible = true;
    } else if (tok.is_directive(".extern")) {
      linkage.is_extern = true;
    } else if (tok.is_directive(".weak")) {
      linkage.is_weak = true;
    } else if (tok.is_directive(".common")) {
      linkage.is_common = true;
    } else {
      return linkage;
    }
    take();
  }
}

}  // namespace detail

ast::Module parse_module(std::string_view text, Diagnostics& diags) {
  return detail::Parser(text, diags).parse();
}

}  // namespace gpusoc::ptx
