// Name resolution while decoding one function (internal to the decoder): nested scopes of
// registers and frame variables over the module's symbols.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/ptx/ast.h"
#include "models/ptx/program.h"

namespace gpusoc::ptx::detail {

/// A name that stands for a place in memory, or a function.
struct Symbol {
  enum class Kind : uint8_t { Variable, Function };
  Kind kind = Kind::Variable;
  StateSpace space = StateSpace::None;  // Global, Const, Shared, Local, Param
  AddrBase base = AddrBase::Absolute;
  uint64_t offset = 0;  // address in its space, relative to `base`
  uint32_t size = 0;
  ScalarType type = ScalarType::None;
  uint32_t function = 0;  // Kind::Function
  ast::VarDecl::ObjectRef object_ref = ast::VarDecl::ObjectRef::None;  // .texref, .surfref
};

struct RegisterInfo {
  uint32_t index = 0;
  ScalarType type = ScalarType::None;
};

class Scopes {
 public:
  void push() { frames_.emplace_back(); }
  void pop() {
    if (frames_.size() > 1) frames_.pop_back();
  }
  void declare_register(const std::string& name, RegisterInfo info) {
    frames_.back().regs[name] = info;
  }
  void declare_symbol(const std::string& name, Symbol sym) { frames_.back().symbols[name] = sym; }
  const RegisterInfo* find_register(const std::string& name) const;
  const Symbol* find_symbol(const std::string& name) const;

 private:
  struct Frame {
    std::unordered_map<std::string, RegisterInfo> regs;
    std::unordered_map<std::string, Symbol> symbols;
  };
  std::vector<Frame> frames_{1};
};

/// A float literal (f32 bits when written 0f..., f64 bits otherwise) as a value of `target`:
/// f32 bits for F32 and 4-byte bit types, f64 bits for F64 and 8-byte bit types; nullopt when
/// the type cannot hold a float.
std::optional<uint64_t> float_literal_bits(uint64_t bits, bool is_f32, ScalarType target);
/// An integer literal as a value of `target`: converted numerically for F32/F64, else its
/// two's-complement bits.
uint64_t int_literal_bits(int64_t value, ScalarType target);

/// Module-scope names and the layout decided for them.
struct ModuleSymbols {
  std::unordered_map<std::string, Symbol> symbols;
  uint32_t module_local_bytes = 0;
};

}  // namespace gpusoc::ptx::detail
