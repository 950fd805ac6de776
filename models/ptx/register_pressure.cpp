#include "models/ptx/register_pressure.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "models/ptx/register_liveness.h"

namespace gpusoc::ptx {
namespace {

constexpr uint32_t kNone = 0xffffffffu;
/// ptxas caps launch-bounded kernels in units of 8 registers per thread.
constexpr uint32_t kTargetAllocationUnit = 8;

// The registers ptxas may give a kernel with launch bounds: the target's register file shared
// by .minnctapersm CTAs of .maxntid (or .reqntid) threads in whole warps, in allocation units;
// without .minnctapersm, one CTA. kMaxRegistersPerThread when the kernel gives no bounds.
uint32_t launch_bounds_cap(const Function& k, const RegisterTarget& target) {
  const uint32_t* dims = k.reqntid[0] ? k.reqntid : k.maxntid;
  if (!dims[0]) return kMaxRegistersPerThread;
  const uint64_t threads = uint64_t(dims[0]) * std::max(1u, dims[1]) * std::max(1u, dims[2]);
  const uint64_t warps = (threads + kWarpSize - 1) / kWarpSize * std::max(1u, k.minnctapersm);
  const uint64_t cap = target.registers_per_sm / (warps * kWarpSize) / kTargetAllocationUnit *
                       kTargetAllocationUnit;
  return uint32_t(std::min<uint64_t>(cap, kMaxRegistersPerThread));
}

// How far ptxas lets a latency schedule raise the kernel's registers: full occupancy, or all
// that launch bounds with .minnctapersm allow.
uint32_t scheduling_budget(const Function& k, const RegisterTarget& target) {
  const uint32_t budget = target.scheduling_budget();
  return k.minnctapersm ? std::max(budget, launch_bounds_cap(k, target)) : budget;
}

struct KernelPressure {
  uint32_t peak = 0;       // general-register slots, callees included
  bool abi_calls = false;  // reaches a call that ptxas cannot inline
};

// Combines the functions' liveness along the call graph.
class CallGraphPressure {
 public:
  CallGraphPressure(const Program& program, const RegisterTarget& target)
      : program_(program), target_(target), liveness_(program.functions.size()) {
    for (uint32_t f = 0; f < program.functions.size(); ++f) {
      const Function& fn = program.functions[f];
      if (fn.has_body && !fn.is_entry) indirect_callees_.push_back(f);
    }
  }

  // Iterative depth-first walk, so that long call chains cannot exhaust the stack. Calls not
  // followed into a callee (recursive, indirect, device runtime) go through the ABI.
  KernelPressure of(uint32_t root) {
    bool abi = false;
    const uint32_t budget =
        std::max(scheduling_budget(program_.functions[root], target_), kReservedRegisters) -
        kReservedRegisters;
    need_.assign(program_.functions.size(), kNone);
    on_chain_.assign(program_.functions.size(), false);
    struct Frame {
      uint32_t f, next = 0, value = 0, across = 0;
    };
    std::vector<Frame> chain;
    auto enter = [&](uint32_t f) {
      on_chain_[f] = true;
      const FunctionLiveness& l = liveness(f);
      chain.push_back(Frame{f, 0, std::max(l.in_order, std::min(l.scheduled, budget)), 0});
    };
    enter(root);
    for (;;) {
      Frame& top = chain.back();
      const auto& calls = liveness(top.f).calls;
      if (top.next < calls.size()) {
        const FunctionLiveness::Call c = calls[top.next++];
        if (c.callee == kNoCallee || c.callee >= need_.size() || on_chain_[c.callee]) {
          top.value = std::max(top.value, c.live_across);
          abi = true;
        } else if (need_[c.callee] != kNone) {
          top.value = std::max(top.value, c.live_across + need_[c.callee]);
        } else {
          top.across = c.live_across;
          enter(c.callee);
        }
        continue;
      }
      const uint32_t value = top.value;
      need_[top.f] = value;
      on_chain_[top.f] = false;
      chain.pop_back();
      if (chain.empty()) return KernelPressure{value, abi};
      chain.back().value = std::max(chain.back().value, chain.back().across + value);
    }
  }

 private:
  const FunctionLiveness& liveness(uint32_t f) {
    if (!liveness_[f]) {
      liveness_[f] =
          function_liveness(program_.functions[f], indirect_callees_, target_.address_bits);
    }
    return *liveness_[f];
  }

  const Program& program_;
  const RegisterTarget target_;
  std::vector<std::optional<FunctionLiveness>> liveness_;
  std::vector<uint32_t> indirect_callees_;
  std::vector<uint32_t> need_;  // per function, with its callees; kNone until known
  std::vector<bool> on_chain_;
};

uint32_t index_in(const Program& program, const Function& kernel) {
  const Function* first = program.functions.data();
  if (program.functions.empty() || &kernel < first || &kernel >= first + program.functions.size())
    throw std::invalid_argument("register estimate: function '" + kernel.name +
                                "' is not part of module '" + program.file + "'");
  return uint32_t(&kernel - first);
}

struct Allocation {
  uint32_t registers;
  RegisterSource source;
};

Allocation allocation(const Function& kernel, const KernelPressure& p,
                      const RegisterTarget& target) {
  uint32_t used = std::min(p.peak + kReservedRegisters, kMaxRegistersPerThread);
  if (p.abi_calls) used = std::max(used, kAbiMinimumRegisters);
  used = std::max(used, kMinRegistersPerThread);
  Allocation a{used, RegisterSource::Estimate};
  if (const uint32_t cap = launch_bounds_cap(kernel, target); cap < a.registers)
    a = {cap, RegisterSource::LaunchBounds};
  // ptxas raises a .maxnreg below what ABI calls need.
  const uint32_t maxnreg =
      p.abi_calls ? std::max(kernel.maxnreg, kAbiMinimumRegisters) : kernel.maxnreg;
  if (kernel.maxnreg && maxnreg < a.registers) a = {maxnreg, RegisterSource::MaxNReg};
  return a;
}

}  // namespace

const char* to_string(RegisterSource s) {
  switch (s) {
    case RegisterSource::Estimate:
      return "estimate";
    case RegisterSource::LaunchBounds:
      return "estimate, capped by launch bounds";
    case RegisterSource::MaxNReg:
      return "estimate, capped by .maxnreg";
    case RegisterSource::PtxasReport:
      return "ptxas report";
  }
  return "?";
}

uint32_t live_register_peak(const Program& program, const Function& kernel,
                            const RegisterTarget& target) {
  return CallGraphPressure(program, target).of(index_in(program, kernel)).peak;
}

uint32_t registers_per_thread(const Program& program, const Function& kernel,
                              const RegisterTarget& target) {
  if (kernel.registers_per_thread != 0) return kernel.registers_per_thread;
  const KernelPressure p = CallGraphPressure(program, target).of(index_in(program, kernel));
  return allocation(kernel, p, target).registers;
}

void cache_registers_per_thread(Program& program, const RegisterTarget& target) {
  CallGraphPressure pressure(program, target);
  for (uint32_t f = 0; f < program.functions.size(); ++f) {
    Function& fn = program.functions[f];
    if (!fn.is_entry || !fn.has_body) continue;
    const Allocation a = allocation(fn, pressure.of(f), target);
    fn.registers_per_thread = a.registers;
    fn.register_source = a.source;
  }
}

}  // namespace gpusoc::ptx
