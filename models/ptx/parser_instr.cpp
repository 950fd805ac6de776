// Instructions: guard, opcode and modifiers, operands.
#include <charconv>

#include <fmt/format.h>

#include "models/ptx/parser_impl.h"

namespace gpusoc::ptx::detail {
namespace {

// [tex, {coords}] is the deepest legitimate nesting: an address holding a vector.
constexpr int kMaxOperandDepth = 2;

bool is_component(const Token& tok) {
  return tok.kind == TokenKind::Directive && !tok.space_before && tok.text.size() == 2 &&
         (tok.text[1] == 'x' || tok.text[1] == 'y' || tok.text[1] == 'z' || tok.text[1] == 'w');
}

}  // namespace

ast::Instruction Parser::parse_instruction() {
  ast::Instruction ins;
  ins.loc = peek().loc;
  if (accept('@')) {
    ins.guard_negated = accept('!');
    const Token& guard = peek();
    if (guard.kind != TokenKind::Identifier || !is_register_name(guard.text)) {
      fail_expected("a predicate register after '@'", guard);
    }
    ins.guard = std::string(take().text);
  }
  const Token& opcode = peek();
  if (opcode.kind != TokenKind::Identifier || opcode.text[0] == '%' || opcode.text[0] == '$') {
    fail_expected("an instruction, label or declaration", opcode);
  }
  ins.opcode = std::string(take().text);
  while (peek().kind == TokenKind::Directive && !peek().space_before) {
    ins.modifiers.emplace_back(take().text.substr(1));
  }
  if (accept(';')) return ins;
  if (operands_absent(ins.opcode)) {
    expect_terminator("instruction");
    return ins;
  }
  while (true) {
    ins.operands.push_back(parse_operand());
    if (accept(',')) continue;
    if (accept(';')) return ins;
    const Token& tok = peek();
    if (tok.kind == TokenKind::End || tok.loc.line > prev_end_.line) {
      error(prev_end_, "expected ';' after instruction");
      return ins;
    }
    fail_expected("',' or ';' after operand", tok);
  }
}

bool Parser::operands_absent(std::string_view opcode) {
  const Token& tok = peek();
  if (tok.kind == TokenKind::End || tok.kind == TokenKind::Directive || tok.is('}') ||
      tok.is('@')) {
    return true;
  }
  // Operands start on the opcode's line; only nvcc's multi-line call layout breaks the rule.
  return tok.loc.line > prev_end_.line && opcode != "call";
}

ast::Operand Parser::parse_operand() {
  const Token& tok = peek();
  if (operand_depth_ > kMaxOperandDepth) fail(tok.loc, "operands nested too deeply");
  if (tok.is('[')) return parse_address_operand();
  if (tok.is('{')) return parse_list_operand('}', ast::Operand::Kind::Vector);
  if (tok.is('(')) return parse_list_operand(')', ast::Operand::Kind::ParenList);
  if (tok.is('-') || tok.kind == TokenKind::Integer || tok.kind == TokenKind::Float) {
    return parse_number_operand();
  }
  if (tok.is('!')) {
    const SourceLoc loc = take().loc;
    ast::Operand op = parse_name_operand();
    if (op.kind != ast::Operand::Kind::Register) {
      fail(loc, fmt::format("'!' applies only to predicate registers, not to {}", quote(op.name)));
    }
    op.negated = true;
    op.loc = loc;
    return op;
  }
  if (tok.kind != TokenKind::Identifier) fail_expected("an operand", tok);
  ast::Operand first = parse_name_operand();
  if (!accept('|')) return first;
  ast::Operand pair;
  pair.kind = ast::Operand::Kind::PredPair;
  pair.loc = first.loc;
  pair.elements.push_back(std::move(first));
  pair.elements.push_back(parse_name_operand());
  return pair;
}

ast::Operand Parser::parse_name_operand() {
  const Token name = expect_identifier("a register or symbol");
  ast::Operand op;
  op.loc = name.loc;
  op.name = std::string(name.text);
  if (name.text == "_") {
    op.kind = ast::Operand::Kind::Sink;
  } else if (is_register_name(name.text)) {
    op.kind = ast::Operand::Kind::Register;
    if (is_component(peek())) op.component = take().text[1];
  } else {
    op.kind = ast::Operand::Kind::Symbol;
  }
  return op;
}

ast::Operand Parser::parse_number_operand() {
  const Number num = parse_number("an operand");
  ast::Operand op;
  op.loc = num.loc;
  if (num.is_float) {
    op.kind = ast::Operand::Kind::FloatImmediate;
    op.float_bits = num.bits;
    op.float_is_f32 = num.is_f32;
  } else {
    op.kind = ast::Operand::Kind::IntImmediate;
    op.int_value = static_cast<int64_t>(num.bits);
  }
  return op;
}

ast::Operand Parser::parse_address_operand() {
  ast::Operand op;
  op.kind = ast::Operand::Kind::Address;
  op.loc = take().loc;
  const Token& tok = peek();
  if (tok.kind == TokenKind::Identifier) {
    const Token base = take();
    op.name = std::string(base.text);
    op.address_base_is_register = is_register_name(base.text);
    if (peek().is('+') || peek().is('-')) op.int_value = parse_offset();
  } else if (tok.kind == TokenKind::Integer || tok.is('-')) {
    const Number num = parse_number("an address");
    if (num.is_float) fail(num.loc, "an address cannot be a floating-point number");
    op.int_value = static_cast<int64_t>(num.bits);
  } else {
    fail_expected("an address", tok);
  }
  ++operand_depth_;
  while (accept(',')) op.elements.push_back(parse_operand());
  --operand_depth_;
  if (!accept(']')) fail_expected("']' to close the address", peek());
  return op;
}

ast::Operand Parser::parse_list_operand(char close, ast::Operand::Kind kind) {
  const bool vector = kind == ast::Operand::Kind::Vector;
  ast::Operand op;
  op.kind = kind;
  op.loc = take().loc;
  if (vector) ++open_braces_;
  ++operand_depth_;
  if (peek().is(close)) {
    if (vector) fail(peek().loc, "empty vector operand");
  } else {
    do {
      op.elements.push_back(parse_operand());
    } while (accept(','));
  }
  --operand_depth_;
  if (!accept(close)) {
    fail_expected(fmt::format("',' or '{}' in the {}", close, vector ? "vector" : "argument list"),
                  peek());
  }
  if (vector) --open_braces_;
  return op;
}

bool Parser::is_register_name(std::string_view name) const {
  if (name[0] == '%') return true;
  if (!register_names_.empty() && register_names_.count(std::string(name)) != 0) return true;
  for (const auto& [prefix, count] : register_ranges_) {
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view digits = name.substr(prefix.size());
    unsigned index = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec == std::errc() && end == digits.data() + digits.size() && index < count) return true;
  }
  return false;
}

}  // namespace gpusoc::ptx::detail
