// Runners of retired CTAs, kept for the next CTA of the same grid on the same SM: a runner holds
// each warp's registers and local memory, too big to build anew for every CTA. Runners of other
// grids are dropped when a new grid arrives (those grids may be gone: never touch them).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "models/ptx/cta_runner.h"
#include "models/sm/sm_interface.h"

namespace gpusoc::sm {

class CtaRunnerPool {
 public:
  std::unique_ptr<ptx::CtaRunner> take(GridWork& grid);
  void give_back(const GridWork& grid, std::unique_ptr<ptx::CtaRunner> runner);

 private:
  std::vector<std::pair<uint32_t, std::unique_ptr<ptx::CtaRunner>>> spare_;  // by grid id
};

}  // namespace gpusoc::sm
