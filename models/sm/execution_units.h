// The functional-unit pipelines of one processing block. Each unit has a number of lanes and a
// latency: a warp instruction occupies the unit's issue for ceil(warp size / lanes) cycles (its
// initiation interval) and its result is ready `latency` cycles after issue. Instruction classes
// map onto units (ptx::InstClass -> Unit) as the configuration says.
#pragma once

#include <array>
#include <cstdint>

#include "models/ptx/inst.h"

namespace gpusoc::sm {

enum class Unit : uint8_t { Int, Fp32, Fp64, Sfu, Lsu, Tex, Branch };
constexpr size_t kNumUnits = size_t(Unit::Branch) + 1;
const char* unit_name(Unit u);  // "int", "fp32", ... as in the configuration keys

struct UnitConfig {
  uint32_t lanes = 32;
  uint32_t latency = 1;  // cycles from issue to result
};

struct ExecutionUnitsConfig {
  std::array<UnitConfig, kNumUnits> units{};
  std::array<Unit, ptx::kNumInstClasses> unit_of{};  // which unit runs each instruction class
  // A class's own latency where it differs from its unit's (Volta's IMAD: 5 on a 4-cycle
  // pipe); 0: the unit's.
  std::array<uint32_t, ptx::kNumInstClasses> class_latency{};
};

class ExecutionUnits {
 public:
  explicit ExecutionUnits(const ExecutionUnitsConfig& config);
  Unit unit_of(ptx::InstClass c) const { return config_.unit_of[size_t(c)]; }
  /// First cycle >= now at which `u` can accept a warp instruction.
  uint64_t free_at(Unit u) const { return free_[size_t(u)]; }
  bool can_issue(Unit u, uint64_t now) const { return free_[size_t(u)] <= now; }
  /// Issues an instruction of class `c` on its unit at `now` (which must be free); returns the
  /// cycle the result is ready. `extra` cycles (operand-collector conflicts) delay the start.
  uint64_t issue(ptx::InstClass c, uint64_t now, uint32_t extra = 0);
  /// Holds `u` busy until `cycle` (the LSU serializing a bank conflict or many lines).
  void occupy(Unit u, uint64_t until) {
    if (free_[size_t(u)] < until) free_[size_t(u)] = until;
  }
  uint32_t interval(Unit u) const { return interval_[size_t(u)]; }
  uint32_t latency(Unit u) const { return config_.units[size_t(u)].latency; }
  uint32_t latency(ptx::InstClass c) const {
    const uint32_t own = config_.class_latency[size_t(c)];
    return own != 0 ? own : latency(unit_of(c));
  }

 private:
  ExecutionUnitsConfig config_;
  std::array<uint32_t, kNumUnits> interval_{};
  std::array<uint64_t, kNumUnits> free_{};
};

/// Register-file bank conflicts at operand collection: source registers in the same bank
/// (register % banks) are read one per cycle, so an instruction whose sources put n reads on one
/// bank waits n - 1 extra cycles. banks == 0 switches the model off (no conflicts). Sources whose
/// bit is set in `reused` come from the operand reuse cache and read no bank.
uint32_t operand_bank_conflict_cycles(const uint32_t* source_regs, unsigned count, uint32_t banks,
                                      uint32_t reused = 0);

}  // namespace gpusoc::sm
