// What the apps of the suite share beyond AppDevice: launch geometry and the tally of a
// verification (how many results failed, and the worst error against its bound).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "sw/apps/apps.h"

namespace gpusoc::apps::detail {

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
