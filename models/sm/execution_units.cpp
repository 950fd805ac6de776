#include "models/sm/execution_units.h"

#include <algorithm>

#include "models/common/error.h"

namespace gpusoc::sm {

const char* unit_name(Unit u) {
  static constexpr const char* kNames[kNumUnits] = {"int", "fp32", "fp64",  "sfu",
                                                    "lsu", "tex",  "branch"};
  return kNames[size_t(u)];
}

ExecutionUnits::ExecutionUnits(const ExecutionUnitsConfig& config) : config_(config) {
  for (size_t u = 0; u < kNumUnits; ++u) {
    const uint32_t lanes = config_.units[u].lanes;
    if (lanes == 0)
      throw ConfigError(std::string("execution unit '") + unit_name(Unit(u)) +
                        "': lanes = 0, needs at least 1");
    interval_[u] = (ptx::kWarpSize + lanes - 1) / lanes;
  }
}

uint64_t ExecutionUnits::issue(ptx::InstClass c, uint64_t now, uint32_t extra) {
  const Unit u = unit_of(c);
  const uint64_t start = now + extra;
  free_[size_t(u)] = start + interval_[size_t(u)];
  return start + latency(c);
}

uint32_t operand_bank_conflict_cycles(const uint32_t* source_regs, unsigned count, uint32_t banks,
                                      uint32_t reused) {
  if (banks == 0 || count == 0) return 0;
  const uint32_t* end = source_regs + count;
  // Read already, or not read at all (from the reuse cache).
  auto read_before = [&](const uint32_t* r) {
    return ((reused >> (r - source_regs)) & 1) || std::find(source_regs, r, *r) != r;
  };
  // The busiest bank sets the delay; it is counted from its first register, which every other
  // register of that bank follows.
  uint32_t busiest = 1;
  for (const uint32_t* r = source_regs; r != end; ++r) {
    if (read_before(r)) continue;
    uint32_t reads = 1;
    for (const uint32_t* o = r + 1; o != end; ++o)
      reads += *o % banks == *r % banks && *o != *r && !read_before(o);
    busiest = std::max(busiest, reads);
  }
  return busiest - 1;
}

}  // namespace gpusoc::sm
