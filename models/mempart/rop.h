// The raster operations unit of a memory partition, as compute uses it: it executes global
// atomics and reductions next to memory. Pure timing (the PTX core computes the values): an
// operation occupies the unit's pipeline for one issue slot (1 / ops_per_cycle cycles) and
// finishes `latency` cycles after it starts; an operation to an address another operation
// is still working on starts only when that one finishes, so contended atomics serialize as on
// real parts while independent ones pipeline. Cycles are the L2 slice's (the ROP sits beside
// it).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/common/counter_vector.h"
#include "models/common/mem_packet.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"

namespace gpusoc::mempart {

struct RopConfig {
  uint32_t ops_per_cycle = 1;  // operations started per cycle (>= 1)
  uint32_t latency = 8;        // cycles from start to result (>= 1)
  /// What is wrong, naming `prefix`.key; empty when nothing is.
  std::string problem(const std::string& prefix) const;
};

/// The atomic operations' names (kAtomicOpNames), as statistics label them.
std::vector<std::string> atomic_op_labels();

// Each count in all and per operation (AtomicOp), so that contention is seen where it is.
struct RopStats : StatGroup {
  explicit RopStats(StatGroup& parent) : StatGroup(parent, "rop") {}
  CounterVector operations{*this, "operations", "sectors",
                           "atomic operations executed (per sector), by operation",
                           atomic_op_labels()};
  CounterVector serialized{*this, "serialized", "sectors",
                           "operations that waited for an earlier one to the same sector",
                           atomic_op_labels()};
  CounterVector wait_cycles{*this, "wait_cycles", "cycles",
                            "cycles operations waited for the pipeline or an earlier operation",
                            atomic_op_labels()};
};

class Rop {
 public:
  /// ConfigError naming `prefix`.key on a bad config. Statistics go in `stats_parent`.rop.
  Rop(const RopConfig& config, StatGroup& stats_parent, const std::string& prefix = "rop");
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
