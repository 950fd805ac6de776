#include "models/sm/cycle_sm_stats.h"

namespace gpusoc::sm {
namespace {
double ratio(double a, double b) {
  return a / b;
}  // 0/0 dumps as null
}  // namespace

CycleStats::CycleStats(StatGroup& parent, std::string name, uint32_t warp_slots)
    : StatGroup(parent, std::move(name)),
      ipc(*this, "ipc", "instructions/cycle", "warp instructions per cycle",
          [this] { return ratio(double(warp_instructions.value()), double(cycles.value())); }),
      issue_utilization(
          *this, "issue_utilization", "fraction", "scheduler cycles that issued an instruction",
          [this] { return ratio(double(warp_instructions.value()), double(issue_slots.value())); }),
      achieved_occupancy(*this, "achieved_occupancy", "fraction",
                         "resident warps per cycle over the SM's warp slots",
                         [this, warp_slots] {
                           return ratio(double(resident_warp_cycles.value()),
                                        double(cycles.value()) * warp_slots);
                         }),
      l1_hit_rate(*this, "l1_hit_rate", "fraction", "L1 lookups that hit",
                  [this] {
                    return ratio(double(l1_hits.value()),
                                 double(l1_hits.value() + l1_misses.value() + l1_merges.value()));
                  }),
      const_hit_rate(*this, "const_hit_rate", "fraction", "constant-cache lookups that hit",
                     [this] {
                       return ratio(double(const_hits.value()),
                                    double(const_hits.value() + const_misses.value()));
                     }),
      sectors_per_access(*this, "sectors_per_access", "sectors",
                         "coalescing: 32-byte sectors per warp-level global access (4 for a "
                         "unit-stride 32-bit access, 32 at worst)",
                         [this] {
                           return ratio(double(global_sectors.value()),
                                        double(global_accesses.value()));
                         }),
      shared_cycles_per_access(
          *this, "shared_cycles_per_access", "cycles",
          "bank-conflict degree: shared-memory cycles per access (1: none)", [this] {
            return ratio(double(shared_cycles.value()), double(shared_accesses.value()));
          }) {}

const CycleStats* KernelCycleStats::find(const std::string& kernel) const {
  for (const auto& k : kernels_)
    if (k->name() == kernel) return k.get();
  return nullptr;
}

CycleStats& KernelCycleStats::of(const std::string& kernel) {
  for (const auto& k : kernels_)
    if (k->name() == kernel) return *k;
  kernels_.push_back(std::make_unique<CycleStats>(group_, kernel, warp_slots_));
  return *kernels_.back();
}

}  // namespace gpusoc::sm
