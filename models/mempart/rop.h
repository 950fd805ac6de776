// The raster operations unit of a memory partition, as compute uses it: it executes global
// atomics and reductions next to memory. Pure timing (the PTX core computes the values): an
// operation occupies the unit's pipeline for one issue slot (1 / ops_per_cycle cycles) and
// finishes `latency` cycles after it starts; an operation to an address another operation
// is still working on starts only when that one finishes, so contended atomics serialize as on
// real parts while independent ones pipeline. Cycles are the L2 slice's (the ROP sits beside
// it).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "models/common/mem_packet.h"

namespace gpusoc::mempart {

struct RopConfig {
  uint32_t ops_per_cycle = 1;  // operations started per cycle (>= 1)
  uint32_t latency = 8;        // cycles from start to result (>= 1)
  /// What is wrong, naming `prefix`.key; empty when nothing is.
  std::string problem(const std::string& prefix) const;
};

struct RopStats {
  uint64_t operations = 0;
  uint64_t serialized = 0;   // operations that waited for an earlier one to the same address
  uint64_t wait_cycles = 0;  // sum of (start - ready)
  // The same per operation (AtomicOp), so that contention is seen where it is.
  std::array<uint64_t, kAtomicOps> operations_of{}, serialized_of{}, wait_cycles_of{};
};

class Rop {
 public:
  /// ConfigError naming `prefix`.key on a bad config.
  explicit Rop(const RopConfig& config, const std::string& prefix = "rop");
  /// Operation `op` on the 32-byte sector at `sector_address` whose operand data is present
  /// from `ready`: books it and returns the cycle its result is written (start + latency).
  /// Calls come in non-decreasing `ready` (the slice's cycle order); an address's operations run
  /// in call order. All operations take the same time; `op` is counted.
  uint64_t execute(uint64_t sector_address, uint64_t ready, AtomicOp op = AtomicOp::Add);
  const RopStats& stats() const { return stats_; }

 private:
  RopConfig config_;
  RopStats stats_;
  uint64_t next_slot_ = 0;  // first issue slot free, in 1/ops_per_cycle units
  std::unordered_map<uint64_t, uint64_t> busy_until_;  // sector -> its last result's cycle
};

}  // namespace gpusoc::mempart
