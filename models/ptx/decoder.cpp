#include "models/ptx/decoder.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "models/ptx/address_space.h"
#include "models/ptx/cfg.h"
#include "models/ptx/decode_function.h"
#include "models/ptx/shared_layout.h"

namespace gpusoc::ptx {

const detail::RegisterInfo* detail::Scopes::find_register(const std::string& name) const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    auto f = it->regs.find(name);
    if (f != it->regs.end()) return &f->second;
  }
  return nullptr;
}

const detail::Symbol* detail::Scopes::find_symbol(const std::string& name) const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    auto f = it->symbols.find(name);
    if (f != it->symbols.end()) return &f->second;
  }
  return nullptr;
}

std::optional<uint64_t> detail::float_literal_bits(uint64_t bits, bool is_f32, ScalarType target) {
  double value;
  if (is_f32) {
    float f;
    const uint32_t b = uint32_t(bits);
    std::memcpy(&f, &b, 4);
    value = f;
  } else {
    std::memcpy(&value, &bits, 8);
  }
  const unsigned size = type_size(target);
  if (size == 4 && (target == ScalarType::F32 || is_bits(target))) {
    if (is_f32) return uint32_t(bits);
    const float f = float(value);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  if (size == 8 && (target == ScalarType::F64 || is_bits(target))) {
    uint64_t b;
    std::memcpy(&b, &value, 8);
    return b;
  }
  return std::nullopt;
}

uint64_t detail::int_literal_bits(int64_t value, ScalarType target) {
  if (target == ScalarType::F32) {
    const float f = float(value);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  if (target == ScalarType::F64) {
    const double d = double(value);
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  }
  return uint64_t(value);
}

namespace {

uint64_t align_up(uint64_t v, uint64_t a) {
  return a ? (v + a - 1) / a * a : v;
}

// Serializes an initializer into the variable's bytes; symbol addresses are resolved with the
// module's symbols (variables placed earlier in the module, or functions).
std::vector<uint8_t> initial_bytes(const ast::VarDecl& d, const detail::ModuleSymbols& syms,
                                   Diagnostics& diags) {
  const uint32_t size = detail::variable_size(d);
  std::vector<uint8_t> bytes(size, 0);
  const unsigned elem = type_size(d.type);
  if (elem == 0) return bytes;
  for (size_t i = 0; i < d.init.size(); ++i) {
    if ((i + 1) * elem > size) {
      diags.error(d.loc, "too many initializers for '" + d.name + "'");
      break;
    }
    const ast::InitValue& v = d.init[i];
    uint64_t bits = 0;
    switch (v.kind) {
      case ast::InitValue::Kind::Int:
        bits = detail::int_literal_bits(v.int_value, d.type);
        break;
      case ast::InitValue::Kind::Float: {
        const auto b = detail::float_literal_bits(v.float_bits, v.float_is_f32, d.type);
        if (!b) {
          diags.error(d.loc, "a floating-point initializer cannot have type ." +
                                 std::string(to_string(d.type)));
          continue;
        }
        bits = *b;
        break;
      }
      case ast::InitValue::Kind::SymbolAddress: {
        auto it = syms.symbols.find(v.symbol);
        if (it == syms.symbols.end()) {
          diags.error(d.loc,
                      "undefined symbol '" + v.symbol + "' in initializer of '" + d.name + "'");
          continue;
        }
        const detail::Symbol& s = it->second;
        uint64_t addr = s.kind == detail::Symbol::Kind::Function
                            ? kFunctionAddressBase + 16 * uint64_t(s.function)
                            : s.offset;
        if (s.space == StateSpace::Shared && v.generic) addr += kSharedWindowBase;
        bits = addr + uint64_t(v.offset);
        break;
      }
    }
    std::memcpy(bytes.data() + i * elem, &bits, elem);
  }
  return bytes;
}

void place_globals(const ast::Module& m, detail::ModuleSymbols& syms, GlobalPlacement& placement,
                   Diagnostics& diags, Program& program) {
  for (const ast::VarDecl& d : m.globals) {
    if (d.space == StateSpace::Shared) continue;  // place_shared_variables
    if (const std::string bad = detail::variable_problem(d); !bad.empty()) {
      diags.error(d.loc, bad);
      continue;
    }
    detail::Symbol sym;
    sym.space = d.space;
    sym.size = detail::variable_size(d);
    sym.type = d.type;
    sym.object_ref = d.object_ref;
    const uint32_t align = detail::variable_align(d);
    switch (d.space) {
      case StateSpace::Global:
      case StateSpace::Const: {
        sym.offset = placement.allocate(sym.size ? sym.size : 1, align);
        syms.symbols[d.name] = sym;
        program.globals.push_back(
            GlobalVariable{d.name, sym.offset, sym.size, d.space == StateSpace::Const});
        placement.write(sym.offset, initial_bytes(d, syms, diags));
        continue;
      }
      case StateSpace::Local:
        sym.offset = align_up(syms.module_local_bytes, align);
        if (sym.offset + sym.size > detail::kMaxVariableBytes) {
          diags.error(d.loc, "module .local variables exceed 16 MiB at '" + d.name + "'");
          continue;
        }
        syms.module_local_bytes = uint32_t(sym.offset + sym.size);
        break;
      default:
        diags.error(d.loc, "unsupported module-scope variable '" + d.name + "' in state space ." +
                               std::string(to_string(d.space)));
        continue;
    }
    syms.symbols[d.name] = sym;
  }
}

// Static .shared variables (module and function scope) laid out per kernel (shared_layout.h);
// extern ones are the CTA's dynamic shared memory.
detail::SharedLayout place_shared_variables(const ast::Module& m, detail::ModuleSymbols& syms,
                                            Diagnostics& diags, Program& program) {
  uint32_t& dynamic_align = program.dynamic_shared_align;
  std::vector<const ast::VarDecl*> placed, dynamic;
  auto take = [&](const ast::VarDecl& d) {
    if (d.space != StateSpace::Shared) return;
    if (const std::string bad = detail::variable_problem(d); !bad.empty()) {
      diags.error(d.loc, bad);
      return;
    }
    (d.is_extern ? dynamic : placed).push_back(&d);
  };
  for (const ast::VarDecl& d : m.globals) take(d);
  for (const ast::Function& f : m.functions) {
    for (const ast::Statement& st : f.body)
      if (st.kind == ast::Statement::Kind::Declaration) take(st.decl);
  }
  detail::SharedLayout layout = detail::layout_shared_variables(m, placed);
  auto declare = [&](const ast::VarDecl& d, AddrBase base, uint64_t offset) {
    detail::Symbol sym;
    sym.space = StateSpace::Shared;
    sym.base = base;
    sym.offset = offset;
    sym.size = detail::variable_size(d);
    sym.type = d.type;
    syms.symbols[d.name] = sym;
  };
  for (const ast::VarDecl* d : placed) declare(*d, AddrBase::Absolute, layout.offsets.at(d->name));
  for (const ast::VarDecl* d : dynamic) {
    declare(*d, AddrBase::DynamicShared, 0);
    dynamic_align = std::max(dynamic_align, detail::variable_align(*d));
  }
  // With dynamic shared memory in the module, ptxas counts each kernel's static shared memory
  // up to where the dynamic starts.
  if (!dynamic.empty()) {
    program.declares_dynamic_shared = true;
    for (auto& [kernel, bytes] : layout.kernel_bytes)
      bytes = (bytes + dynamic_align - 1) / dynamic_align * dynamic_align;
  }
  return layout;
}

// Direct calls are checked once here; indirect ones when they run (Warp::call).
void check_direct_calls(const Program& program, Diagnostics& diags) {
  for (const Function& f : program.functions) {
    for (const Inst& in : f.code) {
      const bool calls =
          in.op == Op::Call || in.op == Op::Vprintf || (in.op == Op::Trap && in.sub == 1);
      if (!calls) continue;
      const CallSite& site = f.call_sites[in.target];
      if (site.callee_reg != kNoReg) continue;
      const std::string bad = call_mismatch(site, program.functions[site.callee]);
      if (!bad.empty()) diags.error(SourceLoc{site.line, 0}, bad);
    }
  }
}

}  // namespace

std::string call_mismatch(const CallSite& site, const Function& callee) {
  auto at_least = [](const std::vector<uint32_t>& have, std::vector<uint32_t> need) {
    if (have.size() < need.size()) return false;
    for (size_t i = 0; i < need.size(); ++i) {
      if (have[i] < need[i]) return false;
    }
    return true;
  };
  if (!callee.has_body) {  // the device-runtime functions the core provides
    const bool ret_ok = site.ret_sizes.empty() || site.ret_sizes[0] >= 4;
    if (callee.name == "vprintf" && site.arg_sizes.size() == 2 &&
        at_least(site.arg_sizes, {8, 8}) && ret_ok)
      return "";
    if (callee.name == "__assertfail" && at_least(site.arg_sizes, {8, 8, 4})) return "";
    return "call to '" + callee.name + "' with unexpected arguments";
  }
  if (callee.is_entry) return "call to kernel '" + callee.name + "': kernels cannot be called";
  if (site.arg_sizes.size() != callee.params.size() ||
      site.ret_sizes.size() > callee.returns.size()) {
    return "call to '" + callee.name + "' passes " + std::to_string(site.arg_sizes.size()) +
           " arguments and takes " + std::to_string(site.ret_sizes.size()) +
           " results; the function has " + std::to_string(callee.params.size()) +
           " parameters and " + std::to_string(callee.returns.size()) + " results";
  }
  for (size_t i = 0; i < site.arg_sizes.size(); ++i) {
    if (site.arg_sizes[i] != callee.params[i].size)
      return "argument " + std::to_string(i) + " of the call to '" + callee.name + "' has " +
             std::to_string(site.arg_sizes[i]) + " bytes; the parameter has " +
             std::to_string(callee.params[i].size);
  }
  for (size_t i = 0; i < site.ret_sizes.size(); ++i) {
    if (site.ret_sizes[i] != callee.returns[i].size)
      return "result " + std::to_string(i) + " of the call to '" + callee.name + "' has " +
             std::to_string(site.ret_sizes[i]) + " bytes; the function returns " +
             std::to_string(callee.returns[i].size);
  }
  return "";
}

std::shared_ptr<Program> decode_module(const ast::Module& module, GlobalPlacement& placement,
                                       Diagnostics& diags) {
  auto program = std::make_shared<Program>();
  program->file = module.file;
  detail::ModuleSymbols syms;

  // Functions first, so that initializers and calls can name any of them.
  std::unordered_map<std::string, uint32_t> function_index;
  for (const ast::Function& f : module.functions) {
    const auto [it, is_new] = function_index.emplace(f.name, uint32_t(program->functions.size()));
    if (!is_new) {
      // A prototype followed by its definition: the definition wins.
      if (f.has_body) program->functions[it->second].has_body = true;
      continue;
    }
    Function out;
    out.name = f.name;
    out.is_entry = f.is_entry;
    out.has_body = f.has_body;
    detail::Symbol sym;
    sym.kind = detail::Symbol::Kind::Function;
    sym.function = uint32_t(program->functions.size());
    syms.symbols[f.name] = sym;
    program->functions.push_back(std::move(out));
  }
  const detail::SharedLayout shared = place_shared_variables(module, syms, diags, *program);
  place_globals(module, syms, placement, diags, *program);
  program->module_local_bytes = uint32_t(align_up(syms.module_local_bytes, 16));

  for (const ast::Function& f : module.functions) {
    if (!f.has_body) continue;
    // The SoC launches grids of one-CTA clusters only (see the %cluster_* registers).
    const uint64_t cluster = uint64_t(std::max(1u, f.reqnctapercluster[0])) *
                             std::max(1u, f.reqnctapercluster[1]) *
                             std::max(1u, f.reqnctapercluster[2]);
    if (f.explicitcluster || cluster > 1 || f.maxclusterrank > 1)
      diags.error(f.loc, "kernel '" + f.name +
                             "' asks for thread block clusters (.explicitcluster, "
                             ".reqnctapercluster or .maxclusterrank), which are not supported");
    Function& out = program->functions[function_index.at(f.name)];
    decode_function(f, syms, *program, out, diags);
    if (f.is_entry) {
      const uint64_t bytes = shared.kernel_bytes.at(f.name);
      if (bytes > detail::kMaxVariableBytes)
        diags.error(f.loc, "the static shared memory of kernel '" + f.name + "' (" +
                               std::to_string(bytes) + " bytes) exceeds 16 MiB");
      else
        set_static_shared_bytes(out, uint32_t(bytes), program->dynamic_shared_align);
    }
    assign_reconvergence_points(out.code);
  }
  check_direct_calls(*program, diags);
  return program;
}

}  // namespace gpusoc::ptx
