#include "models/mempart/rop.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc::mempart {

std::string RopConfig::problem(const std::string& prefix) const {
  if (ops_per_cycle == 0) return fmt::format("{}.ops_per_cycle = 0: must be at least 1", prefix);
  if (latency == 0) return fmt::format("{}.latency = 0: must be at least 1 cycle", prefix);
  return {};
}

std::vector<std::string> atomic_op_labels() {
  return {std::begin(kAtomicOpNames), std::end(kAtomicOpNames)};
}

Rop::Rop(const RopConfig& config, StatGroup& stats_parent, const std::string& prefix)
    : config_(checked_config(config, prefix)), stats_(stats_parent) {}

uint64_t Rop::execute(uint64_t sector_address, uint64_t ready, AtomicOp op) {
  const unsigned kind = unsigned(op);
  ++stats_.operations[kind];
  uint64_t start = ready;
  auto it = busy_until_.find(sector_address);
  if (it != busy_until_.end() && it->second > start) {
    start = it->second;  // the same word is still being updated: wait for its result
    ++stats_.serialized[kind];
  }
  // Issue slots are counted in 1/ops_per_cycle units so that several may share a cycle.
  const uint64_t slot = std::max(next_slot_, start * config_.ops_per_cycle);
  next_slot_ = slot + 1;
  start = slot / config_.ops_per_cycle;
  stats_.wait_cycles[kind] += start - ready;
  const uint64_t done = start + config_.latency;
  if (it != busy_until_.end()) {
    it->second = done;
  } else {
    // Entries whose result is long written matter no more: drop them so the map stays as
    // small as the set of addresses in flight.
    if (busy_until_.size() >= 4096) {
      for (auto e = busy_until_.begin(); e != busy_until_.end();)
        e = e->second <= ready ? busy_until_.erase(e) : std::next(e);
    }
    busy_until_.emplace(sector_address, done);
  }
  return done;
}

}  // namespace gpusoc::mempart
