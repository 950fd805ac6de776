// Internal to the suite apps: timing of launches.
#pragma once

#include <chrono>

#include "sw/apps/suite.h"

namespace gpusoc::apps::detail {

template <typename... Args>
void timed_launch(RunResult& result, ptx::FunctionalDevice& dev, const ptx::Kernel& k,
                  const ptx::LaunchConfig& cfg, const Args&... args) {
  const auto t0 = std::chrono::steady_clock::now();
  const ptx::LaunchStats s = dev.launch(k, cfg, ptx::KernelArgs(args...));
  result.kernel_wall_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.stats.warp_instructions += s.warp_instructions;
  result.stats.thread_instructions += s.thread_instructions;
  result.stats.ctas += s.ctas;
  result.stats.warps += s.warps;
}

}  // namespace gpusoc::apps::detail
