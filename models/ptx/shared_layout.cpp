#include "models/ptx/shared_layout.h"

#include <algorithm>
#include <map>

#include "models/ptx/decode_function.h"

namespace gpusoc::ptx::detail {
namespace {

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

template <typename F>
void for_each_name(const ast::Operand& o, F f) {
  if (!o.name.empty()) f(o.name);
  for (const ast::Operand& e : o.elements) for_each_name(e, f);
}

// What the bodies of a module's functions name.
class References {
 public:
  References(const ast::Module& module, const std::vector<const ast::VarDecl*>& variables) {
    for (uint32_t v = 0; v < variables.size(); ++v) variable_index_.emplace(variables[v]->name, v);
    for (const ast::Function& f : module.functions) {
      const auto [it, is_new] = function_index_.emplace(f.name, uint32_t(functions_.size()));
      if (is_new) functions_.push_back(Refs{});
      Refs& refs = functions_[it->second];
      if (f.has_body) {
        refs.has_body = true;
        refs.is_entry = f.is_entry;
      }
    }
    for (const ast::Function& f : module.functions) {
      if (f.has_body) gather(f, functions_[function_index_.at(f.name)]);
    }
    for (const ast::VarDecl& d : module.globals) {
      for (const ast::InitValue& v : d.init) {
        if (auto it = variable_index_.find(v.symbol); it != variable_index_.end())
          named_by_initializers_.push_back(it->second);
      }
    }
  }

  /// The variables the kernel `name` and everything it may call name.
  std::vector<uint32_t> reached_by(const std::string& name) const {
    std::vector<bool> seen(functions_.size(), false);
    std::vector<uint32_t> work = {function_index_.at(name)}, vars;
    seen[work[0]] = true;
    bool indirect_followed = false;
    while (!work.empty()) {
      const Refs& r = functions_[work.back()];
      work.pop_back();
      vars.insert(vars.end(), r.vars.begin(), r.vars.end());
      auto visit = [&](uint32_t f) {
        if (!seen[f]) {
          seen[f] = true;
          work.push_back(f);
        }
      };
      for (uint32_t f : r.callees) visit(f);
      if (r.indirect && !indirect_followed) {  // may reach any function with a body
        indirect_followed = true;
        for (uint32_t f = 0; f < functions_.size(); ++f)
          if (functions_[f].has_body && !functions_[f].is_entry) visit(f);
      }
    }
    return vars;
  }
  const std::vector<uint32_t>& named_by_initializers() const { return named_by_initializers_; }

 private:
  struct Refs {
    bool has_body = false, is_entry = false;
    bool indirect = false;          // calls through a register
    std::vector<uint32_t> vars;     // shared variables named
    std::vector<uint32_t> callees;  // functions named (called or address taken)
  };

  void gather(const ast::Function& f, Refs& refs) {
    auto name = [&](const std::string& n) {
      if (auto v = variable_index_.find(n); v != variable_index_.end())
        refs.vars.push_back(v->second);
      if (auto c = function_index_.find(n); c != function_index_.end())
        refs.callees.push_back(c->second);
    };
    for (const ast::Statement& st : f.body) {
      if (st.kind == ast::Statement::Kind::Declaration) {
        for (const ast::InitValue& v : st.decl.init) name(v.symbol);
        continue;
      }
      if (st.kind != ast::Statement::Kind::Instruction) continue;
      const ast::Instruction& in = st.instruction;
      for (const ast::Operand& o : in.operands) for_each_name(o, name);
      if (in.opcode == "call") {
        const auto callee = std::find_if(in.operands.begin(), in.operands.end(), [](const auto& o) {
          return o.kind != ast::Operand::Kind::ParenList;
        });
        if (callee != in.operands.end() && !function_index_.count(callee->name))
          refs.indirect = true;
      }
    }
  }

  std::unordered_map<std::string, uint32_t> variable_index_;
  std::unordered_map<std::string, uint32_t> function_index_;
  std::vector<Refs> functions_;
  std::vector<uint32_t> named_by_initializers_;
};

}  // namespace

SharedLayout layout_shared_variables(const ast::Module& module,
                                     const std::vector<const ast::VarDecl*>& variables) {
  SharedLayout layout;
  std::vector<std::string> kernels;
  for (const ast::Function& f : module.functions) {
    if (f.is_entry && f.has_body && !layout.kernel_bytes.count(f.name)) {
      kernels.push_back(f.name);
      layout.kernel_bytes[f.name] = 0;
    }
  }
  // Which kernels reach each variable, as a sorted list of kernel indices.
  const References refs(module, variables);
  std::vector<std::vector<uint32_t>> reaching(variables.size());
  for (uint32_t k = 0; k < kernels.size(); ++k) {
    for (uint32_t v : refs.reached_by(kernels[k]))
      if (reaching[v].empty() || reaching[v].back() != k) reaching[v].push_back(k);
  }
  std::vector<uint32_t> all(kernels.size());
  for (uint32_t k = 0; k < kernels.size(); ++k) all[k] = k;
  for (uint32_t v : refs.named_by_initializers()) reaching[v] = all;

  // Groups of variables with the same reaching kernels, most widely shared first, then in
  // the order of their first declaration.
  std::map<std::vector<uint32_t>, std::vector<uint32_t>> groups;
  for (uint32_t v = 0; v < variables.size(); ++v) {
    layout.offsets[variables[v]->name] = 0;  // unreached: takes no room anywhere
    if (!reaching[v].empty()) groups[reaching[v]].push_back(v);
  }
  std::vector<const std::pair<const std::vector<uint32_t>, std::vector<uint32_t>>*> order;
  for (const auto& g : groups) order.push_back(&g);
  std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    if (a->first.size() != b->first.size()) return a->first.size() > b->first.size();
    return a->second.front() < b->second.front();
  });
  std::vector<uint64_t> end(kernels.size(), 0);
  for (const auto* group : order) {
    uint64_t cursor = 0;
    for (uint32_t k : group->first) cursor = std::max(cursor, end[k]);
    for (uint32_t v : group->second) {
      const uint64_t offset = align_up(cursor, variable_align(*variables[v]));
      layout.offsets[variables[v]->name] = offset;
      cursor = offset + variable_size(*variables[v]);
    }
    for (uint32_t k : group->first) end[k] = cursor;
  }
  for (uint32_t k = 0; k < kernels.size(); ++k) layout.kernel_bytes[kernels[k]] = end[k];
  return layout;
}

}  // namespace gpusoc::ptx::detail
