// The timing state of one DRAM channel, as a memory controller consults it: for a command to a
// bank, the earliest cycle the device accepts it given everything issued before (the rule table
// of dram_timing_rules.h and its state rules), and the state change when it issues.
// Pure timing: no data. The controller (scheduler, page policy, refresh) stands on this.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "models/mempart/dram_command.h"
#include "models/mempart/dram_timing.h"
#include "models/mempart/dram_timing_rules.h"

namespace gpusoc::mempart {

class DramChannel {
 public:
  explicit DramChannel(const DramTiming& timing);  // keeps a copy
  /// Shares `timing` with the other channels of a memory system: its lines, read by every
  /// command, then stay in the host's cache.
  explicit DramChannel(std::shared_ptr<const DramTiming> timing);
  const DramTiming& timing() const { return *timing_; }

  /// Earliest cycle >= `now` at which `kind` may issue to (rank, bank_group, bank); kNever when
  /// the bank's state forbids it outright (RD/WR to a closed bank, ACT to an open one, REF with
  /// a bank open).
  static constexpr uint64_t kNever = ~uint64_t(0);
  uint64_t earliest(DramCommandKind kind, uint32_t rank, uint32_t bank_group, uint32_t bank,
                    uint64_t now) const;
  /// earliest() of ACT, PRE, RD (RDA) and WR (WRA) split in two, so that a controller can keep
  /// the part banks share once per bank group: earliest = max(now, bank_ready, shared_ready).
  /// bank_ready: the bank's own constraints (kNever as earliest() when its state forbids kind);
  /// it changes only with commands to the bank and PREA of its rank.
  /// Both are unchecked (the controller's hot path): indices must be in range, kind one of the
  /// four.
  uint64_t bank_ready(DramCommandKind kind, uint32_t rank, uint32_t bank_group,
                      uint32_t bank) const {
    const Bank& b = banks_[bank_index(rank, bank_group, bank)];
    switch (kind) {
      case DramCommandKind::Activate:
        return b.open ? kNever : b.next[kAct];
      case DramCommandKind::Precharge:
        return std::max(b.next[kPre], b.open ? b.next[kPreOpen] : 0);
      case DramCommandKind::Read:
      case DramCommandKind::ReadPrecharge:
        return b.open ? b.next[kRd] : kNever;
      default:  // Write, WritePrecharge
        return b.open ? b.next[kWr] : kNever;
    }
  }
  /// shared_ready: the rules of scope bank group, rank and channel (tRRD, tFAW, tCCD, tWTR,
  /// read-to-write, the data bus, a running REF). Kept in a table that issue() brings up to
  /// date, so that a controller can read a bank's entry directly
  /// (shared_table()[shared_index(...)]).
  uint64_t shared_ready(DramCommandKind kind, uint32_t rank, uint32_t bank_group) const {
    return shared_[shared_index(kind, rank, bank_group)];
  }
  /// Per rank, bank group and class (ACT, PRE, RD and RDA, WR and WRA); unchecked.
  uint32_t shared_index(DramCommandKind kind, uint32_t rank, uint32_t bank_group) const {
    const uint32_t cls = kind == DramCommandKind::Activate    ? 0
                         : kind == DramCommandKind::Precharge ? 1
                         : kind == DramCommandKind::Read || kind == DramCommandKind::ReadPrecharge
                             ? 2
                             : 3;
    return uint32_t(group_index(rank, bank_group)) * 4 + cls;
  }
  const uint64_t* shared_table() const { return shared_.data(); }
  /// Issues `c` (c.cycle must be >= earliest(...)); updates bank state and timing history.
  /// Returns, for RD/RDA, the cycle the last data beat leaves the device (data ready);
  /// for WR/WRA the cycle the write data ends; 0 for other commands. Both are the end of the
  /// burst on the bus: c.cycle + CL + B, c.cycle + CWL + B. A command earliest() refuses at
  /// c.cycle, or an index out of range, throws ModelError and changes nothing.
  uint64_t issue(const DramCommand& c);
  /// issue() without its check, for a controller whose planning computed c.cycle from
  /// bank_ready() and shared_ready() (or earliest()) itself: checking again would cost as much as
  /// planning. A command earliest() would refuse corrupts the timing state.
  uint64_t issue_planned(const DramCommand& c);

  bool is_open(uint32_t rank, uint32_t bank_group, uint32_t bank) const;
  /// The row the bank holds open (its last ACT's row once it is closed).
  uint32_t open_row(uint32_t rank, uint32_t bank_group, uint32_t bank) const;
  /// Where a rule's later command keeps its "next allowed" cycle: one slot per DramClass, and
  /// one more for the rules that gate only a PRE closing an open bank. No rule of scope Bank
  /// gates REF (dram_timing_rules.h), so a bank keeps the slots before kRef only.
  enum Slot : uint8_t { kAct, kPre, kRd, kWr, kRefBank, kPreOpen, kRef, kSlots };
  static constexpr unsigned kBankSlots = kRef;
  /// One bank's state and own constraints (what bank_ready() reads).
  struct alignas(64) Bank {  // a cache line each: the controller reads a bank whole
    bool open = false;
    uint32_t row = 0;
    uint64_t next[kBankSlots] = {};  // the rules of scope Bank, by slot
  };
  /// Unchecked, by flat bank index (rank-major, then bank group, then bank): the controller's
  /// hot path.
  const Bank& bank_at(size_t flat_bank) const { return banks_[flat_bank]; }
  /// bank_ready() of the command an access to `row` of bank `b` needs next: ACT to a closed bank,
  /// PRE to another row, else RD or WR (`write`). Selections, not a switch: planning asks it after
  /// every command.
  static uint64_t next_command_ready(const Bank& b, uint32_t row, bool write) {
    uint64_t ready = write ? b.next[kWr] : b.next[kRd];
    ready = b.row == row ? ready : std::max(b.next[kPre], b.next[kPreOpen]);
    return b.open ? ready : b.next[kAct];
  }

 private:
  struct Level {  // a bank group's, a rank's or the channel's "next allowed", by slot
    uint64_t next[kSlots] = {};
  };
  static constexpr uint32_t kWindows = [] {
    uint32_t n = 0;
    for (const DramTimingRule& r : kDramTimingRules) n += r.nth > 1;
    return n;
  }();
  // A rule with nth > 1 in one rank: when each of the last nth earlier commands lets one through.
  // The oldest only grows (a rank's ACTs, the only class with such a rule, come at least tRRD_S
  // apart), so it is raised into Rank::next.
  struct Window {
    uint64_t ring[kMaxNth] = {};
    uint32_t oldest = 0;
  };
  struct Rank : Level {
    std::array<Window, kWindows> windows;  // by the rule's place among those with nth > 1
    uint32_t open_banks = 0;
  };
  void check_address(uint32_t rank, uint32_t bank_group, uint32_t bank) const;
  size_t group_index(uint32_t rank, uint32_t bank_group) const {
    return size_t(rank) * timing_->bank_groups + bank_group;
  }
  size_t bank_index(uint32_t rank, uint32_t bank_group, uint32_t bank) const {
    return group_index(rank, bank_group) * timing_->banks_per_group + bank;
  }
  /// The constraints of every scope above the bank on `slot`.
  uint64_t above_bank(Slot slot, uint32_t rank, uint32_t bank_group) const;
  /// Applies the rules from a command of class kFrom at cycle t, the table unrolled per class,
  /// and brings shared_ up to date.
  template <DramClass kFrom>
  void apply(uint64_t t, uint32_t rank, uint32_t bank_group, uint32_t bank) {
    apply_from<kFrom>(std::make_index_sequence<kNumDramTimingRules>(), t, rank, bank_group, bank);
  }
  template <DramClass kFrom, size_t... I>
  void apply_from(std::index_sequence<I...>, uint64_t t, uint32_t rank, uint32_t bank_group,
                  uint32_t bank);
  struct Where {   // what a command's rules raise: its bank, bank group and rank
    Bank* bank;    // null for REF
    Level* group;  // null for REF
    Rank* rank;
    uint32_t rank_index;
  };
  template <DramClass kFrom, size_t I>
  void apply_rule(uint64_t t, const Where& to);
  void close(uint32_t rank, uint32_t bank_group, uint32_t bank, uint64_t precharge_at);

  std::shared_ptr<const DramTiming> timing_;         // never null
  std::array<int64_t, kNumDramTimingRules> delays_;  // by rule
  // By rule: a rule of scope OtherBankGroups kept in the rank's counter, because the same-group
  // rule on its slot is at least as strict (the _S values under the _L ones): one counter
  // raised instead of one per other group, and the same cycles.
  std::array<bool, kNumDramTimingRules> other_groups_in_rank_{};
  std::vector<Bank> banks_;    // rank-major, then bank group, then bank
  std::vector<Level> groups_;  // rank-major
  std::vector<Rank> ranks_;
  Level channel_;
  std::vector<uint64_t> shared_;  // shared_ready(), by shared_index()
};

}  // namespace gpusoc::mempart
