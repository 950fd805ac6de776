// The loosely timed SM's cost model: a warp instruction occupies the SM's issue for a number of
// shader cycles set per instruction class (a warp of 32 on 8 lanes takes 4), global loads stall
// their warp for the latency the memory path returns, and warps overlap each other's stalls.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include <systemc>

#include "models/common/config.h"
#include "models/ptx/inst.h"

namespace gpusoc::sm {

struct LtSmTiming {
  std::array<uint32_t, ptx::kNumInstClasses> issue_cycles{};  // per ptx::InstClass
  uint32_t slice_instructions = 64;  // a warp runs this many before the SM picks again
  double clock_mhz = 1350;           // the SM's (shader) clock, from clock.shader_mhz
  sc_core::sc_time quantum;          // how far an SM may run ahead (0: decoupling_quantum's)
  sc_core::sc_time cta_launch;       // cost to start a CTA on an SM

  /// One shader cycle, to the nearest picosecond.
  uint64_t cycle_ps() const { return uint64_t(std::llround(1e6 / clock_mhz)); }
  /// Reads sm.lt.* (the platform sets clock_mhz); throws ConfigError naming the key.
  static LtSmTiming from_config(const Config& config);
};

}  // namespace gpusoc::sm
