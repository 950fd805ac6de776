#include "models/ptx/decode_function.h"

#include <cstring>
#include <optional>
#include <unordered_map>

#include "models/ptx/address_space.h"
#include "models/ptx/decode_opcode.h"
#include "models/ptx/decode_texture.h"
#include "models/ptx/semantics/semantics.h"

namespace gpusoc::ptx::detail {

uint32_t variable_size(const ast::VarDecl& d) {
  uint64_t n = uint64_t(type_size(d.type)) * d.vector;
  if (!d.dims.empty() && d.dims.back() == 0) n *= d.init.size();
  for (uint64_t dim : d.dims) {
    if (dim == 0) continue;
    if (dim > kMaxVariableBytes || n > kMaxVariableBytes / dim) return kMaxVariableBytes + 1;
    n *= dim;
  }
  return uint32_t(std::min<uint64_t>(n, kMaxVariableBytes + 1));
}

std::string variable_problem(const ast::VarDecl& d) {
  if (variable_size(d) > kMaxVariableBytes) {
    return "variable '" + d.name + "' is larger than " + std::to_string(kMaxVariableBytes >> 20) +
           " MiB";
  }
  if (d.align > kMaxAlign || (d.align & (d.align - 1)) != 0) {
    return "alignment " + std::to_string(d.align) + " of '" + d.name +
           "' is not a power of two up to " + std::to_string(kMaxAlign);
  }
  return "";
}

uint32_t variable_align(const ast::VarDecl& d) {
  return d.align ? d.align : std::max(1u, type_size(d.type) * d.vector);
}

namespace {

constexpr const char* kWarpSizeIdentifier = "WARP_SZ";

struct SpecialName {
  SpecialReg x, y, z;
  bool has_components;
};

// Every special register of the PTX ISA (9.x) but the clocks, which are read when the
// instruction runs (clock_register).
const std::unordered_map<std::string, SpecialName>& special_names() {
  using S = SpecialReg;
  static const std::unordered_map<std::string, SpecialName> t = [] {
    std::unordered_map<std::string, SpecialName> m = {
        {"%tid", {S::TidX, S::TidY, S::TidZ, true}},
        {"%ntid", {S::NtidX, S::NtidY, S::NtidZ, true}},
        {"%ctaid", {S::CtaidX, S::CtaidY, S::CtaidZ, true}},
        {"%nctaid", {S::NctaidX, S::NctaidY, S::NctaidZ, true}},
        {"%clusterid", {S::ClusterIdX, S::ClusterIdY, S::ClusterIdZ, true}},
        {"%nclusterid", {S::NClusterIdX, S::NClusterIdY, S::NClusterIdZ, true}},
        {"%cluster_ctaid", {S::ClusterCtaidX, S::ClusterCtaidY, S::ClusterCtaidZ, true}},
        {"%cluster_nctaid", {S::ClusterNctaidX, S::ClusterNctaidY, S::ClusterNctaidZ, true}},
    };
    auto scalar = [&m](const std::string& name, S s) { m[name] = {s, s, s, false}; };
    scalar("%laneid", S::LaneId);
    scalar("%warpid", S::WarpId);
    scalar("%nwarpid", S::NWarpId);
    scalar("%smid", S::SmId);
    scalar("%nsmid", S::NSmId);
    scalar("%gridid", S::GridId);
    scalar("%lanemask_eq", S::LanemaskEq);
    scalar("%lanemask_lt", S::LanemaskLt);
    scalar("%lanemask_le", S::LanemaskLe);
    scalar("%lanemask_gt", S::LanemaskGt);
    scalar("%lanemask_ge", S::LanemaskGe);
    scalar("%dynamic_smem_size", S::DynamicSmemSize);
    scalar("%total_smem_size", S::TotalSmemSize);
    scalar("%aggr_smem_size", S::AggrSmemSize);
    scalar("%reserved_smem_offset_begin", S::ReservedSmemBegin);
    scalar("%reserved_smem_offset_end", S::ReservedSmemEnd);
    scalar("%reserved_smem_offset_cap", S::ReservedSmemCap);
    scalar("%reserved_smem_offset_0", S::ReservedSmem0);
    scalar("%reserved_smem_offset_1", S::ReservedSmem1);
    scalar("%cluster_ctarank", S::ClusterCtaRank);
    scalar("%cluster_nctarank", S::ClusterNctaRank);
    scalar("%is_explicit_cluster", S::IsExplicitCluster);
    scalar("%current_graph_exec", S::CurrentGraphExec);
    for (unsigned i = 0; i < 8; ++i) {
      scalar("%pm" + std::to_string(i), S::PerfCounter);
      scalar("%pm" + std::to_string(i) + "_64", S::PerfCounter64);
    }
    for (unsigned i = 0; i < kEnvironmentRegisters; ++i)
      scalar("%envreg" + std::to_string(i), S(unsigned(S::EnvReg0) + i));
    return m;
  }();
  return t;
}

ScalarType special_type(SpecialReg s) {
  switch (s) {
    case SpecialReg::GridId:
    case SpecialReg::CurrentGraphExec:
    case SpecialReg::PerfCounter64:
      return ScalarType::U64;
    case SpecialReg::IsExplicitCluster:
      return ScalarType::Pred;
    default:
      return ScalarType::U32;
  }
}

std::optional<ClockReg> clock_register(const std::string& name) {
  static const std::unordered_map<std::string, ClockReg> t = {
      {"%clock", ClockReg::Clock},
      {"%clock_hi", ClockReg::ClockHi},
      {"%clock64", ClockReg::Clock64},
      {"%globaltimer", ClockReg::GlobalTimer},
      {"%globaltimer_lo", ClockReg::GlobalTimerLo},
      {"%globaltimer_hi", ClockReg::GlobalTimerHi},
  };
  const auto it = t.find(name);
  return it == t.end() ? std::nullopt : std::optional<ClockReg>(it->second);
}

bool has_destination(Op op) {
  switch (op) {
    case Op::St:
    case Op::Red:
    case Op::Sust:
    case Op::Sured:
    case Op::Bra:
    case Op::Call:
    case Op::Ret:
    case Op::Exit:
    case Op::Trap:
    case Op::BarSync:
    case Op::BarArrive:
    case Op::BarWarpSync:
    case Op::Membar:
    case Op::Nanosleep:
    case Op::MbarInit:
    case Op::Prefetch:
    case Op::Nop:
    case Op::Vprintf:
      return false;
    default:
      return true;
  }
}

InstClass core_class(Op op) {
  if (is_texture_op(op)) return InstClass::Texture;
  switch (op) {
    case Op::Ld:
    case Op::St:
    case Op::Atom:
    case Op::Red:
    case Op::Prefetch:
    case Op::MbarInit:
    case Op::MbarArrive:
    case Op::MbarTestWait:
      return InstClass::Memory;
    case Op::BarSync:
    case Op::BarArrive:
    case Op::BarRed:
    case Op::BarWarpSync:
    case Op::Membar:
    case Op::Nanosleep:
      return InstClass::Sync;
    case Op::Cvta:
    case Op::MovAddr:
    case Op::ReadClock:
      return InstClass::Int;
    default:
      return InstClass::Control;
  }
}

// Type rules of the instructions the warp itself executes; empty when `in` is fine.
std::string check_core_types(const Inst& in) {
  const unsigned size = type_size(in.type);
  switch (in.op) {
    case Op::Ld:
    case Op::St:
      if (size != 1 && size != 2 && size != 4 && size != 8)
        return "needs a 1-, 2-, 4- or 8-byte type";
      return "";
    case Op::Atom:
    case Op::Red: {
      const bool is_float = in.type == ScalarType::F32 || in.type == ScalarType::F64;
      if ((size != 4 && size != 8) || in.type == ScalarType::Pred ||
          (ptx::is_float(in.type) && !is_float))
        return "needs a 32- or 64-bit integer, bit, f32 or f64 type";
      const AtomOp op = AtomOp(in.sub);
      if (is_float && op != AtomOp::Add && op != AtomOp::Min && op != AtomOp::Max &&
          op != AtomOp::Exch)
        return "on floats supports only add, min, max and exch";
      if ((op == AtomOp::Inc || op == AtomOp::Dec) && in.type != ScalarType::U32)
        return "inc and dec take .u32";
      return "";
    }
    default:
      return "";
  }
}

// The float type a float literal in this instruction is converted to.
ScalarType literal_type(const Inst& in) {
  return (in.op == Op::Cvt || in.op == Op::Set) ? in.type2 : in.type;
}

class FunctionDecoder {
 public:
  FunctionDecoder(const ast::Function& fn, const ModuleSymbols& module, const Program& program,
                  Function& out, Diagnostics& diags)
      : fn_(fn), module_(module), program_(program), out_(out), diags_(diags) {}

  void run() {
    frame_bytes_ = fn_.is_entry ? program_.module_local_bytes : 0;
    layout_params();
    for (const ast::Statement& st : fn_.body) {
      switch (st.kind) {
        case ast::Statement::Kind::BlockBegin:
          scopes_.push();
          break;
        case ast::Statement::Kind::BlockEnd:
          scopes_.pop();
          break;
        case ast::Statement::Kind::Declaration:
          declare(st.decl);
          break;
        case ast::Statement::Kind::Label:
          if (!labels_.emplace(st.label, uint32_t(out_.code.size())).second)
            diags_.error(st.loc, "label '" + st.label + "' defined twice");
          break;
        case ast::Statement::Kind::CallPrototype:
          break;  // indirect calls check at run time
        case ast::Statement::Kind::Instruction:
          decode(st.instruction);
          break;
      }
    }
    for (const auto& [pc, fix] : branch_fixups_) {
      auto it = labels_.find(fix.first);
      if (it == labels_.end()) {
        diags_.error(fix.second, "undefined label '" + fix.first + "'");
      } else {
        out_.code[pc].target = it->second;
      }
    }
    // A kernel's frame starts at local address 0, after the module's .local variables.
    out_.frame_bytes = uint32_t(std::min<uint64_t>((frame_bytes_ + 15) / 16 * 16, kMaxFrameBytes));
    for (unsigned i = 0; i < 3; ++i) {
      out_.reqntid[i] = fn_.reqntid[i];
      out_.maxntid[i] = fn_.maxntid[i];
    }
    out_.maxnreg = fn_.maxnreg;
    out_.minnctapersm = fn_.minnctapersm;
  }

 private:
  uint32_t allocate_frame(uint32_t size, uint32_t align) {
    frame_bytes_ = (frame_bytes_ + align - 1) / align * align;
    const uint64_t off = frame_bytes_;
    frame_bytes_ += size;
    if (frame_bytes_ > kMaxFrameBytes && !frame_too_large_) {
      frame_too_large_ = true;
      diags_.error(fn_.loc, "local memory of '" + fn_.name + "' exceeds " +
                                std::to_string(kMaxFrameBytes >> 20) + " MiB");
    }
    return uint32_t(std::min<uint64_t>(off, kMaxFrameBytes));
  }

  void layout_params() {
    uint64_t param_bytes = 0;
    auto place = [&](const ast::VarDecl& d, std::vector<ParamSlot>& slots) {
      if (const std::string bad = variable_problem(d); !bad.empty()) {
        diags_.error(d.loc, bad);
        return;
      }
      ParamSlot slot;
      slot.size = variable_size(d);
      slot.align = variable_align(d);
      Symbol sym;
      sym.size = slot.size;
      sym.type = d.type;
      if (fn_.is_entry) {
        param_bytes = (param_bytes + slot.align - 1) / slot.align * slot.align;
        slot.offset = uint32_t(std::min<uint64_t>(param_bytes, kMaxParamBufferBytes));
        param_bytes += slot.size;
        sym.space = StateSpace::Param;
        sym.offset = slot.offset;
      } else {
        slot.offset = allocate_frame(slot.size, slot.align);
        sym.space = StateSpace::Local;
        sym.base = AddrBase::Frame;
        sym.offset = slot.offset;
      }
      slots.push_back(slot);
      scopes_.declare_symbol(d.name, sym);
    };
    for (const ast::VarDecl& d : fn_.params) place(d, out_.params);
    for (const ast::VarDecl& d : fn_.returns) place(d, out_.returns);
    if (param_bytes > kMaxParamBufferBytes) {
      diags_.error(fn_.loc, "parameters of '" + fn_.name + "' take " + std::to_string(param_bytes) +
                                " bytes; at most " + std::to_string(kMaxParamBufferBytes) +
                                " are allowed");
    }
    out_.param_buffer_bytes = uint32_t(std::min<uint64_t>(param_bytes, kMaxParamBufferBytes));
  }

  void declare(const ast::VarDecl& d) {
    switch (d.space) {
      case StateSpace::Reg: {
        if (d.vector != 1) {
          diags_.error(d.loc, "vector registers are not supported ('" + d.name + "')");
          return;
        }
        const unsigned count = d.is_range ? d.range_count : 1;
        for (unsigned i = 0; i < count; ++i) {
          const std::string name = d.is_range ? d.name + std::to_string(i) : d.name;
          scopes_.declare_register(name, RegisterInfo{out_.num_regs++, d.type});
          out_.reg_types.push_back(d.type);
        }
        return;
      }
      case StateSpace::Local:
      case StateSpace::Param: {
        if (const std::string bad = variable_problem(d); !bad.empty()) {
          diags_.error(d.loc, bad);
          return;
        }
        if (d.space == StateSpace::Local) out_.depot_bytes += variable_size(d);
        Symbol sym;
        sym.space = StateSpace::Local;
        sym.base = AddrBase::Frame;
        sym.size = variable_size(d);
        sym.type = d.type;
        sym.offset = allocate_frame(sym.size, variable_align(d));
        scopes_.declare_symbol(d.name, sym);
        return;
      }
      case StateSpace::Shared:
        return;  // placed with the module's shared variables
      default:
        diags_.error(d.loc, "unsupported declaration of '" + d.name + "' in ." +
                                std::string(to_string(d.space)) + " inside a function");
    }
  }

  const Symbol* find_symbol(const std::string& name) const {
    if (const Symbol* s = scopes_.find_symbol(name)) return s;
    auto it = module_.symbols.find(name);
    return it == module_.symbols.end() ? nullptr : &it->second;
  }

  uint32_t hidden_register(SpecialReg s) {
    for (const HiddenRegister& h : out_.hidden) {
      if (h.source == s) return h.reg;
    }
    out_.hidden.push_back(HiddenRegister{out_.num_regs, s});
    out_.reg_types.push_back(special_type(s));
    return out_.num_regs++;
  }

  void error(const ast::Operand& o, const std::string& msg) { diags_.error(o.loc, msg); }

  // WARP_SZ, the predefined identifier nvcc emits for warpSize: a constant.
  static bool warp_size(Operand& out) {
    out.kind = Operand::Kind::Imm;
    out.imm = kWarpSize;
    return true;
  }

  // A symbol used where a value is expected: its address (or offset in its space).
  bool symbol_value(const ast::Operand& o, const Symbol& s, Operand& out) {
    if (s.kind == Symbol::Kind::Function) {
      out.kind = Operand::Kind::Imm;
      out.imm = kFunctionAddressBase + 16 * uint64_t(s.function);
      return true;
    }
    if (s.base != AddrBase::Absolute) {
      out.kind = Operand::Kind::Addr;
      out.base = s.base;
      out.imm = s.offset;
      return true;
    }
    if (s.space == StateSpace::Param && !fn_.is_entry) {
      error(o, "the address of parameter '" + o.name + "' cannot be taken");
      return false;
    }
    out.kind = Operand::Kind::Imm;
    out.imm = s.offset;
    return true;
  }

  bool immediate(const ast::Operand& o, const Inst& in, Operand& out) {
    out.kind = Operand::Kind::Imm;
    const ScalarType t = literal_type(in);
    if (o.kind == ast::Operand::Kind::IntImmediate) {
      out.imm = int_literal_bits(o.int_value, t);
      return true;
    }
    // A 0f literal also feeds 32-bit integer operands as raw bits.
    const ScalarType as = o.float_is_f32 && type_size(t) == 4 ? ScalarType::B32 : t;
    if (const auto b = float_literal_bits(o.float_bits, o.float_is_f32, as)) {
      out.imm = *b;
      return true;
    }
    error(o, "a floating-point literal cannot be used with type ." + std::string(to_string(t)));
    return false;
  }

  bool address(const ast::Operand& o, Inst& in, Operand& out) {
    out.kind = Operand::Kind::Addr;
    out.imm = uint64_t(o.int_value);
    if (o.name.empty()) return true;
    if (const RegisterInfo* r = scopes_.find_register(o.name)) {
      out.reg = r->index;
      return true;
    }
    const Symbol* s = find_symbol(o.name);
    if (!s) {
      error(o, "undefined symbol '" + o.name + "'");
      return false;
    }
    if (s->kind == Symbol::Kind::Function) {
      error(o, "'" + o.name + "' is a function, not a variable");
      return false;
    }
    out.base = s->base;
    out.imm += s->offset;
    // The symbol tells which space a generic or .param access really touches.
    const StateSpace sym_space = s->space == StateSpace::Const ? StateSpace::Global : s->space;
    if (in.space == StateSpace::None || in.space == StateSpace::Generic ||
        (in.space == StateSpace::Param && sym_space == StateSpace::Local)) {
      in.space = sym_space;
    }
    return true;
  }

  bool source_or_dest(const ast::Operand& o, Inst& in, Operand& out) {
    using K = ast::Operand::Kind;
    switch (o.kind) {
      case K::Register: {
        auto sp = special_names().find(o.name);
        if (sp != special_names().end()) {
          const SpecialName& n = sp->second;
          SpecialReg s = n.x;
          if (n.has_components) {
            if (o.component == 'y')
              s = n.y;
            else if (o.component == 'z')
              s = n.z;
            else if (o.component != 'x') {
              error(o, "special register '" + o.name + "' needs a component .x, .y or .z");
              return false;
            }
          }
          out.kind = Operand::Kind::Reg;
          out.reg = hidden_register(s);
          return true;
        }
        if (const RegisterInfo* r = scopes_.find_register(o.name)) {
          out.kind = Operand::Kind::Reg;
          out.reg = r->index;
          out.negate = o.negated;
          return true;
        }
        if (const Symbol* s = find_symbol(o.name)) return symbol_value(o, *s, out);
        if (o.name == kWarpSizeIdentifier) return warp_size(out);
        if (clock_register(o.name)) {
          error(o, "special register '" + o.name + "' can only be read with mov");
        } else {
          error(o, "undefined register '" + o.name + "'");
        }
        return false;
      }
      case K::Symbol: {
        const Symbol* s = find_symbol(o.name);
        if (!s) {
          if (o.name == kWarpSizeIdentifier) return warp_size(out);
          error(o, "undefined symbol '" + o.name + "'");
          return false;
        }
        return symbol_value(o, *s, out);
      }
      case K::IntImmediate:
      case K::FloatImmediate:
        return immediate(o, in, out);
      case K::Address:
        return address(o, in, out);
      case K::Sink:
        out.kind = Operand::Kind::None;
        return true;
      default:
        error(o, "unexpected operand");
        return false;
    }
  }

  // Destinations and sources in order, vectors and predicate pairs flattened.
  bool flatten(const ast::Instruction& ai, Inst& in, size_t count,
               std::vector<const ast::Operand*>& dst, std::vector<const ast::Operand*>& src) {
    using K = ast::Operand::Kind;
    const auto& ops = ai.operands;
    size_t i = 0;
    if (has_destination(in.op) && count > 0) {
      const ast::Operand& d = ops[0];
      if (d.kind == K::Vector) {
        for (const auto& e : d.elements) dst.push_back(&e);
        if (in.op == Op::Mov) in.op = Op::Unpack;
      } else if (d.kind == K::PredPair) {
        for (const auto& e : d.elements) dst.push_back(&e);
        in.flags |= kPredOut;
      } else {
        dst.push_back(&d);
      }
      i = 1;
    }
    for (; i < count; ++i) {
      if (ops[i].kind == K::Vector) {
        for (const auto& e : ops[i].elements) src.push_back(&e);
        if (in.op == Op::Mov) in.op = Op::Pack;
      } else {
        src.push_back(&ops[i]);
      }
    }
    if (in.op == Op::Ld && dst.size() != in.vec) {
      diags_.error(ai.loc, "ld.v" + std::to_string(in.vec) + " needs " + std::to_string(in.vec) +
                               " destination registers");
      return false;
    }
    if (in.op == Op::Pack || in.op == Op::Unpack) {
      const size_t n = in.op == Op::Pack ? src.size() : dst.size();
      const unsigned whole = type_size(in.type);
      if (n < 2 || whole % n != 0) {
        diags_.error(ai.loc, "cannot split ." + std::string(to_string(in.type)) + " into " +
                                 std::to_string(n) + " elements");
        return false;
      }
      const unsigned part = whole / unsigned(n);
      in.type2 = part == 1   ? ScalarType::B8
                 : part == 2 ? ScalarType::B16
                 : part == 4 ? ScalarType::B32
                             : ScalarType::B64;
    }
    return true;
  }

  void decode(const ast::Instruction& ai) {
    Inst in;
    in.line = ai.loc.line;
    OpcodeShape shape;
    std::string why;
    if (detail::is_texture_opcode(ai.opcode)) {
      decode_texture_instruction(ai, in);
      return;
    }
    if (!detail::decode_opcode(ai, in, shape, why)) {
      diags_.error(ai.loc, why);
      return;
    }
    if (!decode_guard(ai, in)) return;
    bool ok = shape.is_call ? decode_call(ai, in) : decode_operands(ai, in, shape);
    if (!ok) return;
    if (in.op <= Op::Match) {
      for (unsigned i = 0; i < in.num_src; ++i) {
        if (in.src(i).kind == Operand::Kind::Addr) {  // a local or extern .shared symbol
          diags_.error(ai.loc,
                       "the address of a .local, .param or extern .shared variable can "
                       "only be taken with mov or cvta");
          return;
        }
      }
      in.exec = select_handler(in, why);
      if (!in.exec) {
        diags_.error(ai.loc, "unsupported instruction '" + spelled(ai) + "': " + why);
        return;
      }
      in.cls = classify(in);
    } else {
      const std::string bad = check_core_types(in);
      if (!bad.empty()) {
        diags_.error(ai.loc, "unsupported instruction '" + spelled(ai) + "': " + bad);
        return;
      }
      in.cls = core_class(in.op);
    }
    out_.code.push_back(in);
  }

  // @%p / @!%p; false (reported) when the predicate is not declared.
  bool decode_guard(const ast::Instruction& ai, Inst& in) {
    if (ai.guard.empty()) return true;
    const RegisterInfo* g = scopes_.find_register(ai.guard);
    if (!g) {
      diags_.error(ai.loc, "undefined predicate '" + ai.guard + "'");
      return false;
    }
    in.guard = g->index;
    in.guard_negated = ai.guard_negated;
    return true;
  }

  // tex, tld4, txq, suld, sust, sured, suq: modifiers and the bracketed object in
  // decode_texture.cpp, operands resolved here like any other.
  void decode_texture_instruction(const ast::Instruction& ai, Inst& in) {
    detail::TextureOperands ops;
    std::string why;
    if (!detail::decode_texture(ai, in, ops, why)) {
      diags_.error(ai.loc, why);
      return;
    }
    if (!decode_guard(ai, in)) return;
    in.num_dst = uint8_t(ops.dst.size());
    in.num_src = uint8_t(ops.src.size());
    unsigned k = 0;
    for (const ast::Operand& o : ops.dst) {
      if (!source_or_dest(o, in, in.ops[k])) return;
      if (in.ops[k++].kind != Operand::Kind::Reg) {
        error(o, "a destination must be a register");
        return;
      }
    }
    for (const ast::Operand& o : ops.src) {
      if (o.kind == ast::Operand::Kind::Symbol && k == in.num_dst) {  // a .texref or .surfref
        if (!object_reference(o, in, in.ops[k++])) return;
        continue;
      }
      if (!source_or_dest(o, in, in.ops[k])) return;
      if (in.ops[k].kind == Operand::Kind::Addr || in.ops[k].kind == Operand::Kind::None) {
        error(o, "expected a register or an immediate");
        return;
      }
      ++k;
    }
    in.cls = core_class(in.op);
    out_.code.push_back(in);
  }

  // The object operand named by a module-scope .texref/.surfref: the address of the variable
  // holding its handle (the warp reads the handle there).
  bool object_reference(const ast::Operand& o, const Inst& in, Operand& out) {
    const Symbol* s = find_symbol(o.name);
    const bool surface = is_surface_op(in.op);
    const auto want = surface ? ast::VarDecl::ObjectRef::Surface : ast::VarDecl::ObjectRef::Texture;
    if (!s || s->object_ref == ast::VarDecl::ObjectRef::None) {
      error(o, "'" + o.name + "' is not a " + (surface ? ".surfref" : ".texref") +
                   " variable nor a register holding a handle");
      return false;
    }
    if (s->object_ref != want) {
      error(o, "'" + o.name + "' is a " + (surface ? ".texref" : ".surfref") + ", not a " +
                   (surface ? ".surfref" : ".texref"));
      return false;
    }
    out.kind = Operand::Kind::Addr;
    out.imm = s->offset;
    return true;
  }

  static std::string spelled(const ast::Instruction& ai) {
    std::string s = ai.opcode;
    for (const auto& m : ai.modifiers) s += "." + m;
    return s;
  }

  bool decode_operands(const ast::Instruction& ai, Inst& in, const OpcodeShape& shape) {
    size_t count = ai.operands.size();
    if (shape.l2_cache_hint && count > 0) --count;
    if (in.op == Op::Bra) {
      if (count != 1 || ai.operands[0].kind != ast::Operand::Kind::Symbol) {
        diags_.error(ai.loc, "bra needs a label");
        return false;
      }
      branch_fixups_.push_back(
          {uint32_t(out_.code.size()), {ai.operands[0].name, ai.operands[0].loc}});
      return true;
    }
    std::vector<const ast::Operand*> dst, src;
    if (!flatten(ai, in, count, dst, src)) return false;
    const bool packing = in.op == Op::Pack || in.op == Op::Unpack;  // element counts checked above
    if ((!packing && (int(src.size()) < shape.min_src || int(src.size()) > shape.max_src)) ||
        (has_destination(in.op) && dst.empty() && in.op != Op::BarRed)) {
      diags_.error(ai.loc, "wrong number of operands for '" + spelled(ai) + "'");
      return false;
    }
    if (dst.size() + src.size() > kMaxOperands) {
      diags_.error(ai.loc, "too many operands for '" + spelled(ai) + "'");
      return false;
    }
    in.num_dst = uint8_t(dst.size());
    in.num_src = uint8_t(src.size());
    unsigned k = 0;
    for (const ast::Operand* o : dst) {
      if (!source_or_dest(*o, in, in.ops[k])) return false;
      const Operand::Kind kind = in.ops[k].kind;
      const bool sink_allowed = in.op == Op::Unpack || in.op == Op::Ld || in.op == Op::Atom;
      if (kind == Operand::Kind::Imm || kind == Operand::Kind::Addr ||
          (kind == Operand::Kind::None && !sink_allowed)) {
        error(*o, "a destination must be a register");
        return false;
      }
      ++k;
    }
    for (const ast::Operand* o : src) {
      if (in.op == Op::Mov && o->kind == ast::Operand::Kind::Register) {
        if (auto c = clock_register(o->name)) {
          in.op = Op::ReadClock;
          in.sub = uint8_t(*c);
          ++k;
          continue;
        }
      }
      if (!source_or_dest(*o, in, in.ops[k])) return false;
      ++k;
    }
    if (in.op == Op::Mov && in.ops[1].kind == Operand::Kind::Addr) in.op = Op::MovAddr;
    return true;
  }

  bool decode_call(const ast::Instruction& ai, Inst& in) {
    using K = ast::Operand::Kind;
    const auto& ops = ai.operands;
    size_t i = 0;
    CallSite site;
    site.line = ai.loc.line;
    auto frame_offsets = [&](const ast::Operand& list, std::vector<uint32_t>& offsets,
                             std::vector<uint32_t>& sizes) {
      for (const ast::Operand& e : list.elements) {
        const Symbol* s = scopes_.find_symbol(e.name);
        if (!s || s->base != AddrBase::Frame) {
          error(e, "call argument '" + e.name + "' is not a .param variable of this function");
          return false;
        }
        offsets.push_back(uint32_t(s->offset));
        sizes.push_back(s->size);
      }
      return true;
    };
    if (i < ops.size() && ops[i].kind == K::ParenList) {
      if (!frame_offsets(ops[i++], site.ret_offsets, site.ret_sizes)) return false;
    }
    if (i >= ops.size()) {
      diags_.error(ai.loc, "call needs a function");
      return false;
    }
    const ast::Operand& callee = ops[i++];
    if (i < ops.size() && ops[i].kind == K::ParenList) {
      if (!frame_offsets(ops[i++], site.arg_offsets, site.arg_sizes)) return false;
    }
    if (const RegisterInfo* r = scopes_.find_register(callee.name)) {
      site.callee_reg = r->index;
    } else {
      const Symbol* s = find_symbol(callee.name);
      if (!s || s->kind != Symbol::Kind::Function) {
        error(callee, "call to undefined function '" + callee.name + "'");
        return false;
      }
      site.callee = s->function;
      const Function& f = program_.functions[s->function];
      if (!f.has_body) {
        if (f.name == "vprintf") {
          in.op = Op::Vprintf;
        } else if (f.name == "__assertfail") {
          in.op = Op::Trap;
          in.sub = 1;
        } else {
          error(callee, "call to external function '" + f.name + "' is not supported");
          return false;
        }
      }
    }
    in.target = uint32_t(out_.call_sites.size());
    out_.call_sites.push_back(std::move(site));
    return true;
  }

  const ast::Function& fn_;
  const ModuleSymbols& module_;
  const Program& program_;
  Function& out_;
  Diagnostics& diags_;
  Scopes scopes_;
  uint64_t frame_bytes_ = 0;  // 64-bit: the limit is checked, never wrapped
  bool frame_too_large_ = false;
  std::unordered_map<std::string, uint32_t> labels_;
  std::vector<std::pair<uint32_t, std::pair<std::string, SourceLoc>>> branch_fixups_;
};

}  // namespace

void decode_function(const ast::Function& fn, const ModuleSymbols& module, const Program& program,
                     Function& out, Diagnostics& diags) {
  FunctionDecoder(fn, module, program, out, diags).run();
}

}  // namespace gpusoc::ptx::detail
