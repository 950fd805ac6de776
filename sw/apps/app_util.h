// What the apps of the suite share beyond AppDevice: launch geometry and the tally of a
// verification (how many results failed, and the worst error against its bound).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "sw/apps/apps.h"

namespace gpusoc::apps::detail {

/// Runs `launches` (kernels on `dev`) and returns the simulated nanoseconds they took: 0 on a
/// device that keeps no simulated time.
template <typename Launches>
double simulated_ns(AppDevice& dev, Launches&& launches) {
  const double before = dev.stats().kernel_ns;
  launches();
  return dev.stats().kernel_ns - before;
}

/// A rate figure: `amount` per simulated nanosecond (bytes per ns = GB/s, flops per ns =
/// GFLOP/s); 0 when no simulated time passed.
inline Figure rate(std::string name, double amount, double ns, std::string unit,
                   std::string description) {
  return {std::move(name), ns > 0 ? amount / ns : 0.0, std::move(unit), std::move(description)};
}

inline uint32_t blocks_of(uint64_t n, uint32_t block) {
  return uint32_t(std::max<uint64_t>(1, (n + block - 1) / block));
}

/// The results one check compared: how many, how many failed, and the worst error as a
/// fraction of its bound (exact comparisons count as 0 when equal).
struct Tally {
  uint64_t checked = 0;
  uint64_t wrong = 0;
  double worst = 0;

  void exact(bool same) {
    ++checked;
    if (!same) {
      ++wrong;
      worst = HUGE_VAL;
    }
  }
  /// |error| against a bound; a NaN error fails.
  void bounded(double error, double bound) {
    ++checked;
    const bool ok = error <= bound;
    wrong += !ok;
    if (bound > 0 && !std::isnan(error))
      worst = std::max(worst, error / bound);
    else if (!ok)
      worst = HUGE_VAL;
  }
  bool ok() const { return wrong == 0; }
  /// "3 of 4096 wrong"
  std::string wrong_of() const { return fmt::format("{} of {} wrong", wrong, checked); }
  /// "0 of 4096 outside the bound (worst at 0.031 of it)"
  std::string bounded_summary() const {
    return fmt::format("{} of {} outside the bound (worst at {:.3g} of it)", wrong, checked, worst);
  }
};

}  // namespace gpusoc::apps::detail
