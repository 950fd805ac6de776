#include "models/ptx/lexer.h"

#include <charconv>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace gpusoc::ptx {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_ident_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '$';
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_punct(char c) {
  return c != '\0' && std::strchr(",;:()[]{}<>+-!|@=", c) != nullptr;
}

int digit_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

enum class Accumulate { Ok, BadDigit, Overflow };

/// Folds `digits` in `base` into `value`; an empty digit string is a bad digit.
Accumulate accumulate(std::string_view digits, unsigned base, uint64_t& value) {
  if (digits.empty()) return Accumulate::BadDigit;
  value = 0;
  for (char c : digits) {
    const unsigned d = static_cast<unsigned>(digit_value(c));
    if (d >= base) return Accumulate::BadDigit;
    if (value > (std::numeric_limits<uint64_t>::max() - d) / base) return Accumulate::Overflow;
    value = value * base + d;
  }
  return Accumulate::Ok;
}

std::string_view strip_unsigned_suffix(std::string_view digits) {
  if (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u')) digits.remove_suffix(1);
  return digits;
}

}  // namespace

std::string quote(std::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f) {
      out += fmt::format("\\x{:02X}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > kMaxShown) out += "...";
  out += '\'';
  return out;
}

void Lexer::advance(size_t n) {
  for (; n > 0 && pos_ < text_.size(); --n, ++pos_) {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
  }
}

bool Lexer::skip_trivia() {
  const size_t start = pos_;
  while (!at_end()) {
    const char c = peek_char();
    if (is_space(c)) {
      advance();
    } else if (c == '/' && peek_char(1) == '/') {
      while (!at_end() && peek_char() != '\n') advance();
    } else if (c == '/' && peek_char(1) == '*') {
      const SourceLoc open{line_, column_};
      const size_t close = text_.find("*/", pos_ + 2);
      if (close == std::string_view::npos) {
        diags_.error(open, "unterminated block comment");
        advance(text_.size() - pos_);
      } else {
        advance(close + 2 - pos_);
      }
    } else {
      break;
    }
  }
  return pos_ != start;
}

Token Lexer::next() {
  Token tok;
  tok.space_before = skip_trivia() || pos_ == 0;
  tok.loc = {line_, column_};
  if (at_end()) return tok;

  const size_t start = pos_;
  const char c = peek_char();
  auto finish = [&](TokenKind kind) {
    tok.kind = kind;
    tok.text = text_.substr(start, pos_ - start);
    return tok;
  };

  if (is_alpha(c) || c == '_' || c == '$' || (c == '%' && is_ident_char(peek_char(1)))) {
    advance();
    while (is_ident_char(peek_char())) advance();
    return finish(TokenKind::Identifier);
  }
  if (c == '.' && is_ident_char(peek_char(1))) {
    advance();
    while (is_ident_char(peek_char())) advance();
    // Qualifiers such as .L1::evict_last and .shared::cta are one word.
    while (peek_char() == ':' && peek_char(1) == ':' && is_ident_char(peek_char(2))) {
      advance(2);
      while (is_ident_char(peek_char())) advance();
    }
    return finish(TokenKind::Directive);
  }
  if (is_digit(c)) return lex_number(tok);
  if (c == '"') return lex_string(tok);
  if (is_punct(c)) {
    advance();
    return finish(TokenKind::Punct);
  }

  // Anything else is garbage: report a run of it once.
  auto starts_token = [&](size_t ahead) {
    const char g = peek_char(ahead);
    return is_space(g) || is_ident_char(g) || g == '"' || is_punct(g) ||
           (g == '.' && is_ident_char(peek_char(ahead + 1))) ||
           (g == '%' && is_ident_char(peek_char(ahead + 1))) ||
           (g == '/' && (peek_char(ahead + 1) == '/' || peek_char(ahead + 1) == '*'));
  };
  do {
    advance();
  } while (!at_end() && !starts_token(0));
  finish(TokenKind::Invalid);
  diags_.error(tok.loc, fmt::format("unexpected character{} {}", tok.text.size() > 1 ? "s" : "",
                                    quote(tok.text)));
  return tok;
}

Token Lexer::lex_number(Token tok) {
  const size_t start = pos_;
  const char second = peek_char(1);
  const bool prefixed = peek_char() == '0' && second != '\0' && std::strchr("xXbBfFdD", second);
  bool decimal_float = false;
  if (prefixed) {
    advance(2);
  } else {
    while (is_digit(peek_char())) advance();
    if (peek_char() == '.' && is_digit(peek_char(1))) {
      decimal_float = true;
      advance();
      while (is_digit(peek_char())) advance();
    }
    const char e1 = peek_char(1);
    if ((peek_char() == 'e' || peek_char() == 'E') &&
        (is_digit(e1) || ((e1 == '+' || e1 == '-') && is_digit(peek_char(2))))) {
      decimal_float = true;
      advance(2);
      while (is_digit(peek_char())) advance();
    }
  }
  // Letters glued to a number belong to it, so that "12abc" is one bad literal, not two tokens.
  while (is_ident_char(peek_char())) advance();
  tok.text = text_.substr(start, pos_ - start);

  const char kind = prefixed ? second : '\0';
  if (kind == 'f' || kind == 'F' || kind == 'd' || kind == 'D' || decimal_float) {
    tok.kind = TokenKind::Float;
    decode_float(tok);
  } else {
    tok.kind = TokenKind::Integer;
    decode_integer(tok);
  }
  return tok;
}

void Lexer::decode_integer(Token& tok) {
  const std::string_view text = tok.text;
  unsigned base = 10;
  std::string_view digits = strip_unsigned_suffix(text);
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  } else if (text.size() >= 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    digits.remove_prefix(2);
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    digits.remove_prefix(1);
  }
  switch (accumulate(digits, base, tok.int_bits)) {
    case Accumulate::Ok:
      return;
    case Accumulate::BadDigit:
      diags_.error(tok.loc, fmt::format("invalid integer literal {}", quote(text)));
      break;
    case Accumulate::Overflow:
      diags_.error(tok.loc, fmt::format("integer literal {} does not fit in 64 bits", quote(text)));
      break;
  }
  tok.int_bits = 0;
}

void Lexer::decode_float(Token& tok) {
  const std::string_view text = tok.text;
  if (text.size() >= 2 && text[0] == '0' && std::strchr("fFdD", text[1])) {
    tok.float_is_f32 = text[1] == 'f' || text[1] == 'F';
    const size_t want = tok.float_is_f32 ? 8 : 16;
    const std::string_view digits = text.substr(2);
    if (digits.size() != want || accumulate(digits, 16, tok.float_bits) != Accumulate::Ok) {
      diags_.error(tok.loc, fmt::format("invalid float literal {} (0{} takes {} hex digits)",
                                        quote(text), text[1], want));
      tok.float_bits = 0;
    }
    return;
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    diags_.error(tok.loc, fmt::format("float literal {} is out of range", quote(text)));
    value = 0;
  } else if (ec != std::errc() || end != text.data() + text.size()) {
    diags_.error(tok.loc, fmt::format("invalid float literal {}", quote(text)));
    value = 0;
  }
  std::memcpy(&tok.float_bits, &value, sizeof value);
}

Token Lexer::lex_string(Token tok) {
  const size_t start = pos_;
  advance();
  while (true) {
    const char c = peek_char();
    if (at_end() || c == '\n') {
      diags_.error(tok.loc, "unterminated string literal");
      break;
    }
    if (c == '\\' && peek_char(1) != '\n' && pos_ + 1 < text_.size()) {
      advance(2);
      continue;
    }
    advance();
    if (c == '"') break;
  }
  tok.kind = TokenKind::String;
  tok.text = text_.substr(start, pos_ - start);
  return tok;
}

}  // namespace gpusoc::ptx
