#include "models/sm/cta_runner_pool.h"

namespace gpusoc::sm {

std::unique_ptr<ptx::CtaRunner> CtaRunnerPool::take(GridWork& grid) {
  for (auto it = spare_.begin(); it != spare_.end(); ++it) {
    if (it->first != grid.launch.grid_id) continue;
    std::unique_ptr<ptx::CtaRunner> runner = std::move(it->second);
    spare_.erase(it);
    return runner;
  }
  spare_.clear();
  return std::make_unique<ptx::CtaRunner>(grid.launch);
}

void CtaRunnerPool::give_back(const GridWork& grid, std::unique_ptr<ptx::CtaRunner> runner) {
  spare_.emplace_back(grid.launch.grid_id, std::move(runner));
}

}  // namespace gpusoc::sm
