#include "platform/launch_counters.h"

#include "models/memsys/memory_totals.h"

namespace gpusoc::platform {
namespace {

using Name = gigathread::LaunchCounters::Name;

// The cycle-level SMs' counts for the kernel, in the order sm_counts() reads them.
const Name kSmNames[] = {
    {"cycles", "cycles", "SM cycles with a CTA of the kernel resident"},
    {"issue_slots", "slots", "scheduler cycles: cycles x processing blocks"},
    {"stall_memory", "slots", "slots without an issue: waiting on memory"},
    {"stall_texture", "slots", "slots without an issue: waiting on a texture instruction"},
    {"stall_dependency", "slots", "slots without an issue: waiting on an arithmetic result"},
    {"stall_barrier", "slots", "slots without an issue: at a barrier"},
    {"stall_pipeline", "slots", "slots without an issue: the unit is busy"},
    {"stall_no_warp", "slots", "slots without an issue: no warp"},
    {"resident_warp_cycles", "warp-cycles", "sum over cycles of the warps resident"},
    {"l1_hits", "lines", "L1 lookups that hit"},
    {"l1_lookups", "lines", "L1 lookups"}};
const Name kL2Names[] = {
    {"l2_read_hits", "packets", "L2 reads whose sectors were all present (while it ran)"},
    {"l2_reads", "packets", "L2 reads (while it ran)"}};
const Name kTextureNames[] = {
    {"texture_hits", "lines", "texture-cache lookups that hit (while it ran)"},
    {"texture_lookups", "lines", "texture-cache lookups (while it ran)"}};

}  // namespace

SocLaunchCounters::SocLaunchCounters(const sm::KernelCycleStats* kernels,
                                     const memsys::MemorySystem* memory,
                                     const std::vector<std::unique_ptr<tex::TextureUnit>>& textures)
    : kernels_(kernels), memory_(memory), textures_(textures) {
  // Only what this SoC has: no zeros for loosely timed SMs or a flat memory.
  if (kernels_) names_.insert(names_.end(), std::begin(kSmNames), std::end(kSmNames));
  if (memory_ && memory_->hierarchy().slices() > 0)
    names_.insert(names_.end(), std::begin(kL2Names), std::end(kL2Names));
  if (!textures_.empty())
    names_.insert(names_.end(), std::begin(kTextureNames), std::end(kTextureNames));
}

void SocLaunchCounters::totals(const std::string& kernel, std::vector<uint64_t>& out) const {
  out.clear();
  if (kernels_) {
    const sm::CycleStats* k = kernels_->find(kernel);
    if (k) {
      for (const Counter* c : {&k->cycles, &k->issue_slots, &k->stall_memory, &k->stall_texture,
                               &k->stall_dependency, &k->stall_barrier, &k->stall_pipeline,
                               &k->stall_no_warp, &k->resident_warp_cycles, &k->l1_hits})
        out.push_back(c->value());
      out.push_back(k->l1_hits.value() + k->l1_misses.value() + k->l1_merges.value());
    } else {
      out.insert(out.end(), std::size(kSmNames), 0);  // before the kernel's first CTA
    }
  }
  if (memory_ && memory_->hierarchy().slices() > 0) {
    const memsys::L2Reads l2 = memsys::l2_reads(memory_->hierarchy());
    out.push_back(l2.hits);
    out.push_back(l2.reads);
  }
  if (!textures_.empty()) {
    uint64_t hits = 0, lookups = 0;
    for (const auto& t : textures_) {
      hits += t->cache_hits();
      lookups += t->cache_lookups();
    }
    out.push_back(hits);
    out.push_back(lookups);
  }
}

}  // namespace gpusoc::platform
