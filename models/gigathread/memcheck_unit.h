// The memory checker's registers (bar0::MC_*) and the allocation map behind them. The driver
// announces each allocation and free; the module loader adds module variables itself. While
// MC_CONTROL enables checking, every launch runs with the map, so a kernel's out-of-bounds,
// use-after-free or constant-memory write is reported (LaunchFailed) instead of landing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/register_block.h"
#include "models/ptx/memcheck.h"

namespace gpusoc::gigathread {

class MemcheckUnit {
 public:
  /// Announced regions must lie in device memory [vram_base, vram_base + vram_bytes).
  MemcheckUnit(uint64_t vram_base, uint64_t vram_bytes);

  static const std::vector<RegisterSpec>& register_specs();
  RegisterBlock& registers() { return registers_; }

  /// The map launches check against; null while checking is off.
  const ptx::AllocationMap* active() const;
  /// Whether launches check shared-memory races (racecheck).
  bool racecheck() const;
  /// For the module loader, which adds and frees module variables.
  ptx::AllocationMap& map() { return map_; }
  /// Why the last command was refused (empty when it was taken), for logs and tests.
  const std::string& last_problem() const { return last_problem_; }
  /// Registers to their reset values and every allocation forgotten (after the module loader has
  /// unloaded its modules' variables).
  void reset();

 private:
  void command(uint32_t value);
  std::string run(uint32_t value, uint64_t address, uint64_t bytes);

  uint64_t vram_base_, vram_bytes_;
  RegisterBlock registers_;
  ptx::AllocationMap map_;
  std::string last_problem_;
};

}  // namespace gpusoc::gigathread
