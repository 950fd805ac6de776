// What the SoC adds to each launch's record (gigathread::LaunchCounters): the cycle-level SMs'
// counts for the kernel (cycles, issue slots, stall reasons, resident warps, L1 lookups), the
// L2's reads and read hits, and the texture caches' lookups and hits, so that the end-of-run
// summary and the statistics file give IPC, stalls and hit rates per launch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/gigathread/launch_records.h"
#include "models/memsys/memory_system.h"
#include "models/sm/cycle_sm_stats.h"
#include "models/tex/texture_unit.h"

namespace gpusoc::platform {

class SocLaunchCounters : public gigathread::LaunchCounters {
 public:
  /// Any of them may be missing (loosely timed SMs, memory.model = flat, no texture units).
  SocLaunchCounters(const sm::KernelCycleStats* kernels, const memsys::MemorySystem* memory,
                    const std::vector<std::unique_ptr<tex::TextureUnit>>& textures);
  const std::vector<Name>& names() const override { return names_; }
  void totals(const std::string& kernel, std::vector<uint64_t>& out) const override;

 private:
  const sm::KernelCycleStats* kernels_;
  const memsys::MemorySystem* memory_;
  const std::vector<std::unique_ptr<tex::TextureUnit>>& textures_;
  std::vector<Name> names_;
};

}  // namespace gpusoc::platform
