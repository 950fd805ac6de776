// PTX text -> tokens, one at a time, so that lexical and syntax errors come out in source order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "models/ptx/diagnostics.h"

namespace gpusoc::ptx {

enum class TokenKind : uint8_t {
  End,         // end of input
  Identifier,  // %r1, $L__BB0_2, _Z3fooi, _, ld
  Directive,   // .u32, .global, .2d, .L1::evict_last (text keeps the dot)
  Integer,     // value in int_bits (two's complement when it came from a 64-bit pattern)
  Float,       // 0f.., 0d.., 1.5: bits in float_bits
  String,      // "..." (text keeps the quotes)
  Punct,       // one of , ; : ( ) [ ] { } < > + - ! | @ =   (the character is text[0])
  Invalid,     // characters that start no token; already reported
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  SourceLoc loc;
  bool space_before = false;  // whitespace or a comment separates it from the previous token
  uint64_t int_bits = 0;
  uint64_t float_bits = 0;
  bool float_is_f32 = false;  // 0f literal

  bool is(char punct) const { return kind == TokenKind::Punct && text[0] == punct; }
  bool is_directive(std::string_view name) const {
    return kind == TokenKind::Directive && text == name;
  }
  /// Where the token ends (the column just past its last character).
  SourceLoc end() const { return {loc.line, loc.column + static_cast<uint32_t>(text.size())}; }
};

/// Quotes token text for a message: control and non-ASCII bytes as \xNN, long text shortened.
std::string quote(std::string_view text);

class Lexer {
 public:
  Lexer(std::string_view text, Diagnostics& diags) : text_(text), diags_(diags) {}
  Token next();

 private:
  char peek_char(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool at_end() const { return pos_ >= text_.size(); }
  void advance(size_t n = 1);
  /// Skips whitespace and comments; true when anything was skipped.
  bool skip_trivia();
  Token lex_number(Token tok);
  Token lex_string(Token tok);
  void decode_integer(Token& tok);
  void decode_float(Token& tok);

  std::string_view text_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  uint32_t line_ = 1, column_ = 1;
};

}  // namespace gpusoc::ptx
