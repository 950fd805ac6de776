// Declarations: variables at module and function scope, parameters, initializers.
#include <limits>

#include <fmt/format.h>

#include "models/ptx/parser_impl.h"

namespace gpusoc::ptx::detail {
namespace {

// nvcc declares a few thousand registers per kind at most; far more is a typo or garbage, and
// later stages size register files from these counts.
constexpr uint64_t kMaxRegisterRange = uint64_t{1} << 24;
constexpr uint64_t kMaxAlign = uint64_t{1} << 31;
constexpr int kMaxInitNesting = 32;

/// How many elements an initializer may have; saturates instead of overflowing.
uint64_t element_capacity(const ast::VarDecl& decl) {
  uint64_t count = decl.vector;
  for (uint64_t dim : decl.dims) {
    if (dim != 0 && count > std::numeric_limits<uint64_t>::max() / dim) {
      return std::numeric_limits<uint64_t>::max();
    }
    count *= dim;
  }
  return count;
}

}  // namespace

std::vector<ast::VarDecl> Parser::parse_var_decls(const Linkage& linkage) {
  ast::VarDecl proto;
  proto.is_visible = linkage.is_visible;
  proto.is_extern = linkage.is_extern;
  proto.is_weak = linkage.is_weak;
  proto.is_common = linkage.is_common;
  parse_decl_qualifiers(proto);
  std::vector<ast::VarDecl> decls;
  do {
    ast::VarDecl decl = proto;
    parse_decl_name(decl);
    if (peek().is('=')) parse_initializer(decl);
    decls.push_back(std::move(decl));
  } while (accept(','));
  expect_terminator("declaration");
  return decls;
}

std::vector<ast::VarDecl> Parser::parse_param_list() {
  take();  // '('
  std::vector<ast::VarDecl> params;
  if (accept(')')) return params;
  try {
    do {
      params.push_back(parse_param());
    } while (accept(','));
    if (!accept(')')) fail_expected("',' or ')' in the parameter list", peek());
  } catch (const SyntaxError&) {
    // Skip to the list's ')' so that the rest of the function is still parsed.
    while (true) {
      const Token& tok = peek();
      if (tok.kind == TokenKind::End || tok.is('{') || tok.is(';') || is_module_item_start(tok)) {
        break;
      }
      if (take().is(')')) break;
    }
  }
  return params;
}

ast::VarDecl Parser::parse_param() {
  const Token& tok = peek();
  if (!tok.is_directive(".param") && !tok.is_directive(".reg")) {
    fail_expected("'.param' in the parameter list", tok);
  }
  ast::VarDecl decl;
  parse_decl_qualifiers(decl);
  parse_decl_name(decl);
  note_register(decl);
  return decl;
}

void Parser::parse_decl_qualifiers(ast::VarDecl& decl) {
  const Token space = take();
  decl.space = parse_state_space(space.text).value_or(StateSpace::None);
  while (peek().kind == TokenKind::Directive) {
    const Token tok = peek();
    const std::string_view word = tok.text;
    if (word == ".align") {
      take();
      const uint64_t align = expect_unsigned("an alignment after '.align'", kMaxAlign);
      if (align == 0 || (align & (align - 1)) != 0) {
        fail(tok.loc, fmt::format("alignment {} is not a power of two", align));
      }
      (decl.is_ptr ? decl.ptr_align : decl.align) = static_cast<unsigned>(align);
    } else if (word == ".v2" || word == ".v4" || word == ".v8") {
      take();
      decl.vector = static_cast<unsigned>(word[2] - '0');
    } else if (word == ".ptr") {
      take();
      if (decl.space != StateSpace::Param) {
        fail(tok.loc, "'.ptr' is only allowed on '.param' declarations");
      }
      decl.is_ptr = true;
    } else if (word == ".attribute") {
      parse_attribute(decl);
    } else if (auto type = parse_scalar_type(word)) {
      take();
      if (decl.type != ScalarType::None) {
        fail(tok.loc, fmt::format("second type {} in declaration", quote(word)));
      }
      decl.type = *type;
    } else if (auto pointee = decl.is_ptr ? parse_state_space(word) : std::nullopt) {
      take();
      decl.ptr_space = *pointee;
    } else if (word == ".texref" || word == ".surfref") {
      // A module-scope reference the host binds to an object: an 8-byte slot for its handle.
      take();
      if (decl.space != StateSpace::Global || decl.type != ScalarType::None) {
        fail(tok.loc, fmt::format("{} is a type of module-scope .global variables", quote(word)));
      }
      decl.type = ScalarType::B64;
      decl.object_ref =
          word == ".texref" ? ast::VarDecl::ObjectRef::Texture : ast::VarDecl::ObjectRef::Surface;
    } else if (word == ".samplerref") {
      fail(tok.loc,
           "unsupported type '.samplerref': separate samplers (texmode_independent) are "
           "not supported");
    } else {
      fail(tok.loc, fmt::format("unexpected {} in declaration", quote(word)));
    }
  }
  if (decl.type == ScalarType::None) fail_expected("a type in the declaration", peek());
}

void Parser::parse_attribute(ast::VarDecl& decl) {
  take();
  expect('(', "after '.attribute'");
  const Token& attr = peek();
  if (!attr.is_directive(".managed")) {
    if (attr.kind != TokenKind::Directive) fail_expected("an attribute such as '.managed'", attr);
    fail(attr.loc, fmt::format("unsupported attribute {}", quote(attr.text)));
  }
  take();
  decl.is_managed = true;
  expect(')', "to close '.attribute('");
}

void Parser::parse_decl_name(ast::VarDecl& decl) {
  const Token name = expect_identifier("a variable name");
  decl.name = std::string(name.text);
  decl.loc = name.loc;
  if (peek().is('<')) {
    const Token open = take();
    if (decl.space != StateSpace::Reg) {
      fail(open.loc, "register ranges '<N>' are only allowed in '.reg' declarations");
    }
    const Token count = peek();
    decl.range_count =
        static_cast<unsigned>(expect_unsigned("a register count after '<'", kMaxRegisterRange));
    if (decl.range_count == 0) fail(count.loc, "register range count must be positive");
    expect('>', "to close the register range");
    decl.is_range = true;
  }
  while (peek().is('[')) {
    const Token open = take();
    if (accept(']')) {
      if (!decl.dims.empty()) fail(open.loc, "only the first array dimension may be unsized");
      decl.dims.push_back(0);
      continue;
    }
    const Token size = peek();
    const uint64_t dim = expect_unsigned("an array size", std::numeric_limits<uint64_t>::max());
    if (dim == 0) fail(size.loc, "array size must be positive");
    if (!accept(']')) fail_expected("']' after the array size", peek());
    decl.dims.push_back(dim);
  }
}

void Parser::parse_initializer(ast::VarDecl& decl) {
  const Token equals = take();
  if (decl.space != StateSpace::Global && decl.space != StateSpace::Const) {
    error(equals.loc, fmt::format("'.{}' variable '{}' cannot have an initializer (only .global "
                                  "and .const variables can)",
                                  to_string(decl.space), decl.name));
  }
  if (decl.is_extern) {
    error(equals.loc, fmt::format("extern variable '{}' cannot have an initializer", decl.name));
  }
  parse_init_element(decl.init, 0);
  const bool unsized = !decl.dims.empty() && decl.dims[0] == 0;
  if (!unsized && decl.init.size() > element_capacity(decl)) {
    error(equals.loc, fmt::format("too many initializers for '{}' ({} given, {} elements)",
                                  decl.name, decl.init.size(), element_capacity(decl)));
  }
}

void Parser::parse_init_element(std::vector<ast::InitValue>& out, int depth) {
  if (!peek().is('{')) {
    out.push_back(parse_init_scalar());
    return;
  }
  const Token open = take();
  ++open_braces_;
  if (depth >= kMaxInitNesting) fail(open.loc, "initializer nested too deeply");
  if (!accept('}')) {
    do {
      parse_init_element(out, depth + 1);
    } while (accept(','));
    if (!accept('}')) fail_expected("',' or '}' in the initializer", peek());
  }
  --open_braces_;
}

ast::InitValue Parser::parse_init_scalar() {
  const Token& tok = peek();
  ast::InitValue value;
  if (tok.kind == TokenKind::Integer && peek(1).is('(')) {
    fail(tok.loc, "address byte masks in initializers (such as 0xFF(sym)) are not supported");
  }
  if (tok.is('-') || tok.kind == TokenKind::Integer || tok.kind == TokenKind::Float) {
    const Number num = parse_number("an initializer value");
    if (num.is_float) {
      value.kind = ast::InitValue::Kind::Float;
      value.float_bits = num.bits;
      value.float_is_f32 = num.is_f32;
    } else {
      value.int_value = static_cast<int64_t>(num.bits);
    }
    return value;
  }
  if (tok.kind != TokenKind::Identifier || tok.text[0] == '%') {
    fail_expected("an initializer value", tok);
  }
  value.kind = ast::InitValue::Kind::SymbolAddress;
  const Token name = take();
  if (name.text == "generic" && peek().is('(')) {
    take();
    const Token& symbol = peek();
    if (symbol.kind != TokenKind::Identifier || symbol.text[0] == '%') {
      fail_expected("a symbol inside 'generic('", symbol);
    }
    value.symbol = std::string(take().text);
    value.generic = true;
    expect(')', "to close 'generic('");
  } else {
    value.symbol = std::string(name.text);
  }
  if (peek().is('+') || peek().is('-')) value.offset = parse_offset();
  return value;
}

void Parser::note_register(const ast::VarDecl& decl) {
  if (decl.space != StateSpace::Reg || decl.name[0] == '%') return;
  if (decl.is_range) {
    register_ranges_.emplace_back(decl.name, decl.range_count);
  } else {
    register_names_.insert(decl.name);
  }
}

}  // namespace gpusoc::ptx::detail
