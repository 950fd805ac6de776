// The parsed form of a PTX module: what the text says, names still as strings.
// The decoder (decoder.h) turns it into the compact form the executor runs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/ptx/diagnostics.h"
#include "models/ptx/types.h"

namespace gpusoc::ptx::ast {

struct Operand {
  enum class Kind : uint8_t {
    Register,      // %r1, %p2, %tid (component in `component`), also user names like temp_param_reg
    Symbol,        // a variable, function or label name used as a value: _Z3fooPf_param_0, $L__BB0_2
    IntImmediate,  // 42, -1, 0xFF, 0b101, 017 (value in `int_value`)
    FloatImmediate,// 0f3F800000 (f32 bits), 0d3FF0000000000000 (f64 bits), 1.5 (as double bits)
    Address,       // [base], [base+off], [sym], [sym+off], [imm]; base in `name` (empty when absent);
                   // texture/surface forms [tex, {coords}] keep the operands after the first in `elements`
    Vector,        // {%r1, %r2, _}; elements in `elements`
    PredPair,      // %p1|%p2 (setp, shfl): elements[0] | elements[1]
    ParenList,     // (a, b) argument/return lists of call
    Sink,          // _ (discarded result)
  };
  Kind kind = Kind::Register;
  std::string name;        // register or symbol name; Address: base register or symbol
  char component = 0;      // 'x','y','z','w' for %tid.x and friends; 0 when none
  bool negated = false;    // !%p
  bool float_is_f32 = false;  // FloatImmediate written as 0f...: `float_bits` holds f32 bits
  bool address_base_is_register = false;  // Address: `name` is a register (else a symbol or empty)
  int64_t int_value = 0;   // IntImmediate value; Address: offset
  uint64_t float_bits = 0; // FloatImmediate: f32 bits (0f...) or f64 bits (0d..., decimal)
  std::vector<Operand> elements;
  SourceLoc loc;
};

struct Instruction {
  std::string opcode;                  // "ld", "setp", "mad"
  std::vector<std::string> modifiers;  // in order, without dots: {"global","v4","f32"} for ld.global.v4.f32
  std::string guard;                   // predicate register of @%p / @!%p; empty when unguarded
  bool guard_negated = false;
  std::vector<Operand> operands;
  SourceLoc loc;
};

/// One element of an initializer: a number, or the address of a symbol plus an offset.
struct InitValue {
  enum class Kind : uint8_t { Int, Float, SymbolAddress };
  Kind kind = Kind::Int;
  int64_t int_value = 0;
  uint64_t float_bits = 0;
  bool float_is_f32 = false;
  std::string symbol;  // SymbolAddress: the symbol (generic(sym) sets `generic`)
  bool generic = false;
  int64_t offset = 0;
};

/// .reg/.global/.const/.shared/.local/.param declaration, at module or function scope.
struct VarDecl {
  StateSpace space = StateSpace::None;
  ScalarType type = ScalarType::None;
  unsigned vector = 1;            // .v2 / .v4
  unsigned align = 0;             // .align N; 0 when not given
  std::string name;
  bool is_range = false;          // %r<120>: registers %r0 .. %r119
  unsigned range_count = 0;
  std::vector<uint64_t> dims;     // array dimensions; a 0 means unsized ([]) and takes its size from the initializer
  std::vector<InitValue> init;    // flattened initializer elements, in order
  bool is_extern = false, is_visible = false, is_weak = false;
  bool is_common = false;         // .common linkage
  bool is_managed = false;        // .attribute(.managed): __managed__, host-accessible
  /// .global .texref / .surfref: the variable holds the handle of the object the host binds.
  enum class ObjectRef : uint8_t { None, Texture, Surface };
  ObjectRef object_ref = ObjectRef::None;
  // Parameter-only attributes: .ptr .global .align N
  bool is_ptr = false;
  StateSpace ptr_space = StateSpace::None;
  unsigned ptr_align = 0;         // the .align after .ptr: alignment of the pointee, not the param
  SourceLoc loc;
};

struct Statement {
  enum class Kind : uint8_t { Instruction, Label, Declaration, BlockBegin, BlockEnd, CallPrototype };
  Kind kind = Kind::Instruction;
  Instruction instruction;  // Kind::Instruction
  std::string label;        // Kind::Label and Kind::CallPrototype (the prototype's label)
  VarDecl decl;             // Kind::Declaration
  // Kind::CallPrototype: `label: .callprototype (ret) _ (params);`
  std::vector<VarDecl> proto_returns, proto_params;
  SourceLoc loc;
};

struct Function {
  bool is_entry = false;            // .entry (kernel) vs .func
  bool is_visible = false, is_extern = false, is_weak = false;
  bool has_body = false;            // false for a prototype declaration
  std::string name;
  std::vector<VarDecl> params;      // space Param
  std::vector<VarDecl> returns;     // .func (.param .b32 func_retval0) name(...)
  unsigned maxntid[3] = {0, 0, 0}, reqntid[3] = {0, 0, 0};
  unsigned minnctapersm = 0, maxnreg = 0;
  bool noreturn = false;
  // sm_90 thread block clusters: .explicitcluster, .reqnctapercluster X, Y, Z, .maxclusterrank N
  bool explicitcluster = false;
  unsigned reqnctapercluster[3] = {0, 0, 0};
  unsigned maxclusterrank = 0;
  std::vector<Statement> body;      // flat, with BlockBegin/BlockEnd for nested { } scopes
  SourceLoc loc;
};

struct Module {
  std::string file;                 // the name used in diagnostics
  unsigned version_major = 0, version_minor = 0;
  std::vector<std::string> targets; // sm_80, texmode_independent, debug ...
  unsigned address_size = 64;
  std::vector<VarDecl> globals;     // module-scope .global/.const/.shared/.local variables
  std::vector<Function> functions;  // in source order, declarations included
};

}  // namespace gpusoc::ptx::ast
