// How an SM allocates registers: per warp, the kernel's registers per thread for 32 threads,
// rounded up to the SM's allocation unit (sm.register_allocation_unit: 256 registers on Fermi
// through Hopper, i.e. 8 per thread).
#pragma once

#include <cstdint>

#include "models/ptx/inst.h"

namespace gpusoc::gigathread {

inline uint64_t registers_per_warp(uint32_t registers_per_thread, uint32_t allocation_unit) {
  const uint64_t need = uint64_t(registers_per_thread) * ptx::kWarpSize;
  return (need + allocation_unit - 1) / allocation_unit * allocation_unit;
}

}  // namespace gpusoc::gigathread
