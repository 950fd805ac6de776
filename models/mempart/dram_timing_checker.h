// An independent check of DRAM command timing: fed every command a controller issues to one
// channel, in issue order, it keeps its own history (the last command of each class per bank,
// bank group, rank and channel) and reports each rule of the table in dram_timing_rules.h that a
// command breaks, with the rule, both commands and the cycles, and each state rule. It shares
// the table with the channel model that schedules commands (dram_channel.h) but no code: the
// channel looks forward ("next allowed" cycles), the checker back (the commands before). The two
// check each other's bookkeeping (dram_agreement_test); a wrong row of the table itself would
// fool both, and is what the hand computations of the unit tests catch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/mempart/dram_command.h"
#include "models/mempart/dram_timing.h"
#include "models/mempart/dram_timing_rules.h"

namespace gpusoc::mempart {

class DramTimingChecker {
 public:
  explicit DramTimingChecker(const DramTiming& timing);

  /// Checks `c` against everything before it; returns the violations it adds (none: empty).
  /// State commands (ACT to an open bank, RD/WR to a closed bank or another row, REF with a bank
  /// open, REFpb to an open bank or on a device without per-bank refresh) are violations too.
  /// Commands must come in cycle order.
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
    uint32_t rank = 0, bank_group = 0, bank = 0;
    DramCommandKind kind = DramCommandKind::Activate;
  };
  struct Level {  // the latest command of each class in a bank, bank group, rank or the channel
    Event last[kNumDramClasses];
  };
  struct Bank : Level {
    bool open = false;
    uint32_t row = 0;
    Event refreshed;
    uint64_t refreshes = 0;  // credited refreshes (REF or REFpb), for the tREFI obligation
  };
  struct Rank : Level {
    Event recent[kNumDramClasses][kMaxNth];  // rings of the last few of each class, for nth
    uint32_t recent_next[kNumDramClasses] = {};
    uint64_t min_refreshes = 0;            // over the rank's banks
    uint64_t reported_refreshes = kNever;  // min_refreshes when tREFI was last reported
  };
  // A rule of the table, with whether a rule of scope Bank for the same pair is at least as
  // strict (then a BankGroup rule's command to the very bank is left to it: one report).
  struct Rule {
    const DramTimingRule* rule;
    int64_t delay;  // for this timing
    bool covered_in_bank = false;
  };
  template <typename GateFn, typename StateFn>
  void visit(const DramCommand& c, GateFn&& gate, StateFn&& state) const;
  template <typename GateFn>
  void visit_rules(DramClass later, const DramCommand& c, uint32_t bank_group, uint32_t bank,
                   GateFn&& gate) const;
  void note(const Event& ev, DramClass cls, Bank* bank);
  void record(const DramCommand& c);
  void precharge(Bank& b, const Event& at);
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
  Level& group(uint32_t rank, uint32_t bg) {
    return groups_[size_t(rank) * timing_.bank_groups + bg];
  }
  const Level& group(uint32_t rank, uint32_t bg) const {
    return groups_[size_t(rank) * timing_.bank_groups + bg];
  }

  std::vector<std::string> violations_;
  DramTiming timing_;
  std::vector<Rule> rules_[kNumDramClasses];  // by the later command's class
  std::vector<Bank> banks_;
  std::vector<Level> groups_;
  std::vector<Rank> ranks_;
  Level channel_;
  uint64_t last_cycle_ = 0;
  Event last_cmd_;
  bool any_cmd_ = false;
};

}  // namespace gpusoc::mempart
