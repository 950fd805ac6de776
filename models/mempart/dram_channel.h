// The timing state of one DRAM channel, as a memory controller consults it: for a command to a
// bank, the earliest cycle the device accepts it given everything issued before (bank, bank
// group, rank and data-bus constraints of dram_timing.h), and the state change when it issues.
// Pure timing: no data. The controller (scheduler, page policy, refresh) stands on this.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/mempart/dram_command.h"
#include "models/mempart/dram_timing.h"

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
  /// it changes only with commands to the bank, PREA and REF of its rank.
  /// Both are unchecked (the controller's hot path): indices must be in range, kind one of the
  /// four.
  uint64_t bank_ready(DramCommandKind kind, uint32_t rank, uint32_t bank_group,
                      uint32_t bank) const {
    const Bank& b = banks_[bank_index(rank, bank_group, bank)];
    switch (kind) {
      case DramCommandKind::Activate:
        return b.open ? kNever : b.next_act;
      case DramCommandKind::Precharge:
        return std::max(b.refresh_end, b.open ? b.next_pre : 0);
      case DramCommandKind::Read:
      case DramCommandKind::ReadPrecharge:
        return b.open ? b.next_rd : kNever;
      default:  // Write, WritePrecharge
        return b.open ? b.next_wr : kNever;
    }
  }
  /// shared_ready: the constraints of its bank group, rank and the data bus (tRRD, tFAW, tCCD,
  /// tWTR, read-to-write, the bus, a running REF): ACT and REF move them for ACT and PRE, column
  /// commands for RD and WR. Kept in a table that issue() brings up to date, so that a
  /// controller can read a bank's entry directly (shared_table()[shared_index(...)]).
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
  /// One bank's state and own constraints (what bank_ready() reads).
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    uint64_t next_act = 0, next_pre = 0, next_rd = 0, next_wr = 0;
    uint64_t refresh_end = 0;  // the last REFpb to it ends
  };
  /// Unchecked, by flat bank index (rank-major, then bank group, then bank): the controller's
  /// hot path.
  const Bank& bank_at(size_t flat_bank) const { return banks_[flat_bank]; }
  /// bank_ready() of the command an access to `row` of bank `b` needs next: ACT to a closed bank,
  /// PRE to another row, else RD or WR (`write`). Selections, not a switch: planning asks it after
  /// every command.
  static uint64_t next_command_ready(const Bank& b, uint32_t row, bool write) {
    uint64_t ready = write ? b.next_wr : b.next_rd;
    ready = b.row == row ? ready : std::max(b.refresh_end, b.next_pre);
    return b.open ? ready : b.next_act;
  }

 private:
  struct Group {  // per rank and bank group: the _L constraints
    uint64_t next_act = 0, next_rd = 0, next_wr = 0;
  };
  struct Rank {  // the _S constraints, the four-activate window and refresh
    uint64_t next_act = 0, next_rd = 0, next_wr = 0;
    uint64_t idle = 0;         // every bank could take an ACT (its tRP, tRC, refreshes): REF
    uint64_t refresh_end = 0;  // the last all-bank REF ends
    uint64_t faw[4] = {};      // ring: when each of the last four ACTs lets a fifth through
    uint32_t faw_next = 0;     // the oldest of the four
    uint32_t open_banks = 0;
  };
  void check_address(uint32_t rank, uint32_t bank_group, uint32_t bank) const;
  size_t group_index(uint32_t rank, uint32_t bank_group) const {
    return size_t(rank) * timing_->bank_groups + bank_group;
  }
  size_t bank_index(uint32_t rank, uint32_t bank_group, uint32_t bank) const {
    return group_index(rank, bank_group) * timing_->banks_per_group + bank;
  }
  void close(Rank& r, Bank& b, uint64_t precharge_at);
  void update_shared(DramCommandKind kind, uint32_t rank);

  std::shared_ptr<const DramTiming> timing_;  // never null
  std::vector<Bank> banks_;                   // rank-major, then bank group, then bank
  std::vector<Group> groups_;                 // rank-major
  std::vector<Rank> ranks_;
  uint64_t bus_free_ = 0;         // the end of the last burst on the data bus
  std::vector<uint64_t> shared_;  // shared_ready(), by shared_index()
  // Derived once from timing_, in tCK.
  uint32_t burst_ = 0, ccd_s_ = 0, ccd_l_ = 0, rd_to_wr_ = 0, wr_to_rd_s_ = 0, wr_to_rd_l_ = 0,
           wr_to_pre_ = 0;
};

}  // namespace gpusoc::mempart
