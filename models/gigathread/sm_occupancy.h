// How many CTAs of a kernel one SM holds at once: threads in whole warps, registers per warp in
// the SM's allocation unit, shared memory with the system's reserved region, CTA slots. The CTA
// dispatcher places CTAs by it; `gpusoc ptx info` reports it. Pure arithmetic, no SystemC.
#pragma once

#include <cstdint>
#include <string>

#include "models/ptx/inst.h"

namespace gpusoc::gigathread {

/// A warp's registers: the kernel's registers per thread for 32 threads, rounded up to the SM's
/// allocation unit (sm.register_allocation_unit: 256 registers on Fermi through Hopper, i.e. 8
/// per thread).
inline uint64_t registers_per_warp(uint32_t registers_per_thread, uint32_t allocation_unit) {
  const uint64_t need = uint64_t(registers_per_thread) * ptx::kWarpSize;
  return (need + allocation_unit - 1) / allocation_unit * allocation_unit;
}

/// The most warps of a kernel an SM's `registers` hold, allocated per warp or per CTA (where
/// only the CTA's total is rounded: as many warps as the file's whole units hold unrounded).
inline uint64_t warps_for_registers(uint32_t registers, uint32_t registers_per_thread,
                                    uint32_t allocation_unit, bool per_cta) {
  if (!per_cta) return registers / registers_per_warp(registers_per_thread, allocation_unit);
  return registers / allocation_unit * allocation_unit /
         (uint64_t(registers_per_thread) * ptx::kWarpSize);
}

/// A CTA's registers: per warp as above, or, where the SM allocates per CTA (compute capability
/// 1.x), the registers of its whole warps rounded up to the unit once for the CTA.
inline uint64_t registers_per_cta(uint32_t registers_per_thread, uint64_t warps,
                                  uint32_t allocation_unit, bool per_cta) {
  if (!per_cta) return registers_per_warp(registers_per_thread, allocation_unit) * warps;
  const uint64_t need = uint64_t(registers_per_thread) * ptx::kWarpSize * warps;
  return (need + allocation_unit - 1) / allocation_unit * allocation_unit;
}

/// What one SM can hold at once (from the GPU specification).
struct SmLimits {
  uint32_t max_threads = 768;
  uint32_t max_ctas = 8;
  uint32_t registers = 8192;
  uint32_t register_allocation_unit = 256;  // per warp (per CTA with register_allocation_per_cta)
  bool register_allocation_per_cta = false;  // sm.register_allocation_granularity = cta
  uint32_t shared_memory_bytes = 16384;
  uint32_t max_threads_per_cta = 512;
  uint32_t max_shared_per_cta = 16384;
  uint32_t reserved_shared_per_cta = 0;  // by the system in every CTA, beyond the kernel's
  uint32_t stack_bytes_per_thread = 1024;
};

/// What one CTA takes on an SM.
struct CtaNeeds {
  uint32_t threads = 0;    // whole warps
  uint32_t registers = 0;  // in allocation units, per warp or per CTA
  uint32_t shared = 0;     // the kernel's and the reserved region
  uint32_t registers_per_thread = 0;
};

/// A CTA of `block_threads` threads of a kernel with `registers_per_thread` registers and
/// `shared_bytes` of static and dynamic shared memory (ptx::reserved_shared_begin: aligned for
/// the reserved region, which this adds).
CtaNeeds cta_needs(const SmLimits& limits, uint32_t registers_per_thread, uint64_t block_threads,
                   uint32_t shared_bytes);

struct CtaFit {
  uint32_t ctas = 0;     // at once on one SM (0: not even one)
  std::string limiting;  // the resource that limits it, with what a CTA needs and an SM has
};
CtaFit ctas_per_sm(const SmLimits& limits, const CtaNeeds& needs);

}  // namespace gpusoc::gigathread
