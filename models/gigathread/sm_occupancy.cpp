#include "models/gigathread/sm_occupancy.h"

#include <fmt/format.h>

namespace gpusoc::gigathread {

CtaNeeds cta_needs(const SmLimits& l, uint32_t registers_per_thread, uint64_t block_threads,
                   uint32_t shared_bytes) {
  const uint64_t warps = (block_threads + ptx::kWarpSize - 1) / ptx::kWarpSize;
  CtaNeeds n;
  n.threads = uint32_t(warps * ptx::kWarpSize);  // SMs allocate whole warps
  n.registers = uint32_t(registers_per_cta(registers_per_thread, warps, l.register_allocation_unit,
                                           l.register_allocation_per_cta));
  n.shared = shared_bytes + l.reserved_shared_per_cta;
  n.registers_per_thread = registers_per_thread;
  return n;
}

CtaFit ctas_per_sm(const SmLimits& l, const CtaNeeds& n) {
  CtaFit fit{l.max_ctas, fmt::format("CTA slots: an SM has {}", l.max_ctas)};
  auto limit = [&](uint32_t available, uint32_t need, const std::string& what) {
    if (need == 0) return;
    if (available / need < fit.ctas) {
      fit.ctas = available / need;
      fit.limiting = fmt::format("{}: a CTA needs {}, an SM has {}", what, need, available);
    }
  };
  limit(l.max_threads, n.threads, "threads");
  limit(l.registers, n.registers,
        l.register_allocation_per_cta
            ? fmt::format("registers ({} per thread, allocated per CTA)", n.registers_per_thread)
            : fmt::format("registers ({} per thread, {} per warp)", n.registers_per_thread,
                          registers_per_warp(n.registers_per_thread, l.register_allocation_unit)));
  limit(l.shared_memory_bytes, n.shared, "bytes of shared memory");
  return fit;
}

}  // namespace gpusoc::gigathread
