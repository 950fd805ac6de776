#include "models/gigathread/module_table.h"

#include <algorithm>

#include <fmt/format.h>

namespace gpusoc::gigathread {

uint32_t ModuleTable::add(LoadedModule module) {
  const uint32_t id = next_id_++;
  modules_.emplace(id, std::move(module));
  return id;
}

std::shared_ptr<const ptx::Program> ModuleTable::remove(uint32_t id) {
  const auto it = modules_.find(id);
  if (it == modules_.end()) return nullptr;
  std::shared_ptr<const ptx::Program> program = std::move(it->second.program);
  modules_.erase(it);
  return program;
}

std::vector<uint32_t> ModuleTable::ids() const {
  std::vector<uint32_t> ids;
  for (const auto& entry : modules_) ids.push_back(entry.first);
  std::sort(ids.begin(), ids.end());
  return ids;
}

ModuleTable::Found ModuleTable::find(uint64_t handle) const {
  const auto it = modules_.find(uint32_t(handle >> 32));
  const uint64_t index = handle & 0xffff'ffffu;
  if (it == modules_.end() || index >= it->second.kernels.size()) return {};
  return {&it->second, &it->second.kernels[index]};
}

std::string ModuleTable::why_not_loaded(uint32_t id) const {
  if (id == 0 || id >= next_id_) return fmt::format("module {} was never loaded", id);
  if (modules_.count(id) == 0) return fmt::format("module {} was unloaded", id);
  return fmt::format("module {} is loaded", id);
}

std::string ModuleTable::why_not_found(uint64_t handle) const {
  const uint32_t id = uint32_t(handle >> 32);
  const uint64_t index = handle & 0xffff'ffffu;
  const auto it = modules_.find(id);
  if (it == modules_.end()) {
    return fmt::format("kernel handle 0x{:x} names no loaded kernel: {}", handle,
                       why_not_loaded(id));
  }
  return fmt::format("kernel handle 0x{:x} names kernel {} of module {}, which has {} kernels",
                     handle, index, id, it->second.kernels.size());
}

}  // namespace gpusoc::gigathread
