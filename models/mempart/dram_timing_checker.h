// An independent check of DRAM command timing: fed every command a controller issues to one
// channel, in issue order, it keeps its own history per bank, bank group and rank and reports
// each rule of dram_timing.h a command breaks, with the rule, both commands and the cycles.
// It shares no code with the channel model that schedules commands (dram_channel.h), on purpose:
// two implementations of the rules check each other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/mempart/dram_command.h"
#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {

class DramTimingChecker {
 public:
  explicit DramTimingChecker(const DramTiming& timing);

  /// Checks `c` against everything before it; returns the violations it adds (none: empty).
  /// State commands (ACT to an open bank, RD/WR to a closed bank or another row, ACT during a
  /// refresh, REF with a bank open) are violations too. Commands must come in cycle order.
  std::vector<std::string> check(const DramCommand& c);
  /// The earliest cycle at which `c` would pass (its own cycle ignored), for tests that prove a
  /// gate tight: check() refuses c at earliest - 1 and accepts it at earliest. ~0 when a state
  /// rule refuses c at any cycle. The refresh obligation is a deadline, not a gate: not included.
  uint64_t earliest(const DramCommand& c) const;
  const std::vector<std::string>& violations() const { return violations_; }

 private:
  static constexpr uint64_t kNever = ~0ull;
  // A past command (or an auto-precharge) that later commands are timed from.
  struct Event {
    uint64_t cycle = kNever;
    uint64_t source = kNever;  // for an auto-precharge: the RDA/WRA that scheduled it
    uint32_t bank_group = 0, bank = 0;
    DramCommandKind kind = DramCommandKind::Activate;
  };
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    Event act, pre, rd, wr, refpb, refreshed;
    uint64_t refreshes = 0;  // credited refreshes (REF or REFpb), for the tREFI obligation
  };
  struct Group {
    Event rd, wr;  // last RD/RDA and WR/WRA to any bank of the group
    Event act;     // last ACT to any bank of the group
  };
  struct Rank {
    Event faw[4];  // last four ACTs, faw[faw_next] the oldest
    unsigned faw_next = 0;
    Event ref;
    uint64_t min_refreshes = 0;            // over the rank's banks
    uint64_t reported_refreshes = kNever;  // min_refreshes when tREFI was last reported
  };
  struct Burst {
    uint64_t start, end;  // [start, end) on the data bus
    Event cmd;
    uint32_t rank;
  };
  struct Gate;
  template <typename GateFn, typename StateFn>
  void visit(const DramCommand& c, GateFn&& gate, StateFn&& state) const;
  template <typename GateFn>
  void visit_precharge(const Bank& b, GateFn&& gate) const;
  template <typename GateFn>
  void visit_column(const DramCommand& c, GateFn&& gate) const;
  uint64_t bus_free_from(const DramCommand& c, uint64_t from) const;
  void record(const DramCommand& c);
  void precharge(Bank& b, uint64_t at, uint64_t source, DramCommandKind kind);
  void refreshed(const DramCommand& c, Bank& b);
  void update_min_refreshes(uint32_t rank);
  void check_refresh_obligation(const DramCommand& c, std::vector<std::string>& out);
  std::string where(const DramCommand& c) const;
  Bank& bank(uint32_t rank, uint32_t bg, uint32_t bk) {
    return banks_[(size_t(rank) * timing_.bank_groups + bg) * timing_.banks_per_group + bk];
  }
  const Bank& bank(uint32_t rank, uint32_t bg, uint32_t bk) const {
    return banks_[(size_t(rank) * timing_.bank_groups + bg) * timing_.banks_per_group + bk];
  }
  const Group& group(uint32_t rank, uint32_t bg) const {
    return groups_[size_t(rank) * timing_.bank_groups + bg];
  }

  std::vector<std::string> violations_;
  DramTiming timing_;
  std::vector<Bank> banks_;
  std::vector<Group> groups_;
  std::vector<Rank> ranks_;
  std::vector<Burst> bursts_;  // those that can still overlap a later burst
  uint64_t last_cycle_ = 0;
  Event last_cmd_;
  uint32_t last_rank_ = 0;
  bool any_cmd_ = false;
};

}  // namespace gpusoc::mempart
