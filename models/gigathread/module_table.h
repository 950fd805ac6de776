// The modules the command processor has loaded and the kernel handles that name their kernels.
// A handle is (module id << 32 | kernel index); module ids count up from 1 and are never reused,
// so a handle of an unloaded module can never name a kernel again.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/ptx/program.h"

namespace gpusoc::gigathread {

struct LoadedKernel {
  const ptx::Function* function = nullptr;
  uint32_t registers_per_thread = 0;
};

struct LoadedModule {
  /// Shared with running grids: an unloaded module's program (and its firmware-heap blocks)
  /// live until the last grid using it retires.
  std::shared_ptr<const ptx::Program> program;
  std::vector<LoadedKernel> kernels;  // in the order of the module's .entry declarations
};

class ModuleTable {
 public:
  static uint64_t handle(uint32_t module_id, uint32_t kernel_index) {
    return uint64_t(module_id) << 32 | kernel_index;
  }

  /// The id the next add() will return.
  uint32_t next_id() const { return next_id_; }
  /// Adds a module under next_id() and returns that id.
  uint32_t add(LoadedModule module);
  /// Drops the table's reference and returns the module's program; null when `id` names no
  /// loaded module.
  std::shared_ptr<const ptx::Program> remove(uint32_t id);

  struct Found {
    const LoadedModule* module = nullptr;  // null when the handle names no loaded kernel
    const LoadedKernel* kernel = nullptr;
  };
  Found find(uint64_t handle) const;
  /// Why `handle` names no kernel (never loaded, unloaded, index out of range), for error logs.
  std::string why_not_found(uint64_t handle) const;
  /// Why `id` names no module, for error logs.
  std::string why_not_loaded(uint32_t id) const;

  size_t size() const { return modules_.size(); }
  /// The ids of the loaded modules, in increasing order.
  std::vector<uint32_t> ids() const;

 private:
  uint32_t next_id_ = 1;
  std::unordered_map<uint32_t, LoadedModule> modules_;
};

}  // namespace gpusoc::gigathread
