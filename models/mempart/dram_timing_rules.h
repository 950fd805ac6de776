// The timing rules of a DRAM device as one table: "a command of class `later` waits `delay` tCK
// after the last command of class `earlier` in `scope`". The channel model (dram_channel.h)
// turns each rule into "next allowed" cycles it raises when a command issues; the independent
// checker (dram_timing_checker.h) keeps the last command of each class per bank, bank group,
// rank and channel and gates every command against them. Two implementations of one table check
// each other (dram_agreement_test), and the hand computations of their tests check the table
// against the datasheets' definitions.
//
// What the table does not hold, because it is state, not time (both implementations apply it):
//   - RD, WR need their bank open on the command's row; ACT needs it closed; REF needs every bank
//     of the rank closed; REFpb its bank closed and a device with per-bank refresh (tRFCpb > 0).
//   - RDA/WRA precharge their bank themselves when a PRE would first be allowed; that
//     auto-precharge is a PRE for every later rule. PREA is a PRE to each open bank of its rank.
//   - PRE to a closed bank is a no-op: only rules not marked open_bank_only gate it.
//   - The refresh obligation (one REF per tREFI on average, at most 8 postponed) is a deadline
//     the controller keeps and the checker reports; not a gate.
// Decisions the datasheets leave open, taken here:
//   - With one bank group per rank the _L values apply (every bank is in the same group).
//   - tRRD and tFAW count ACTs only: REF and REFpb neither wait for them nor count in them.
//   - The data bus takes bursts in issue order, a little stricter than "no overlap" across
//     ranks; within a rank tRTW and tWTR already order them.
//   - tRFCpb = 0 means the device has no per-bank refresh.
//   - A rule of scope BankGroup may count the very bank too: every such rule has a rule of scope
//     Bank at least as strict (tRRD_L <= tRC, DramTiming::problem()).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "models/mempart/dram_command.h"
#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {

/// What a rule sees of a command: RDA counts as RD, WRA as WR, PREA as a PRE to each open bank.
enum class DramClass : uint8_t { Act, Pre, Rd, Wr, Ref, RefBank };
constexpr unsigned kNumDramClasses = 6;
DramClass dram_class(DramCommandKind kind);
/// REF and PREA name a rank, not a bank.
inline bool is_rank_wide(DramCommandKind k) {
  return k == DramCommandKind::PrechargeAll || k == DramCommandKind::Refresh;
}

/// Which earlier commands a rule counts, relative to the later command's bank. A rule from a
/// rank-wide command (REF), or to one, has scope Rank or Channel.
enum class DramRuleScope : uint8_t {
  Bank,             // the same bank
  BankGroup,        // any bank of the same bank group (the _L values)
  OtherBankGroups,  // any bank of the rank's other bank groups (the _S values)
  Rank,             // any bank of the same rank
  Channel,          // any bank of any rank (the data bus)
};

/// One rule. The table is a compile-time constant, so that the channel model unrolls it into
/// straight-line code per command class; only the delays depend on the timing.
struct DramTimingRule {
  const char* name;  // as a violation names it: "tRCD", "data bus"
  DramClass earlier, later;
  DramRuleScope scope;
  /// tCK after the earlier command; may be negative (then it never binds).
  int64_t (*delay)(const DramTiming&);
  /// From the nth-previous earlier command in the scope, not the last: 4 for tFAW (a fifth ACT
  /// waits for the fourth before it). At most kMaxNth, and only from ACT (commands that come in
  /// cycle order) with scope Rank.
  uint32_t nth = 1;
  /// Gates only a PRE that closes an open bank (tRAS, tRTP, write recovery). Scope Bank only.
  bool open_bank_only = false;
};
constexpr uint32_t kMaxNth = 4;

namespace dram_rules_detail {
using T = const DramTiming&;
using C = DramClass;
using S = DramRuleScope;
// B: the cycles a burst occupies the data bus.
inline int64_t B(T t) {
  return t.burst_cycles();
}

inline constexpr DramTimingRule kRules[] = {
#define GPUSOC_DELAY(expr) [](dram_rules_detail::T t) -> int64_t { return (expr); }
    // Row commands.
    {"tRC", C::Act, C::Act, S::Bank, GPUSOC_DELAY(t.tRC)},
    {"tRRD_L", C::Act, C::Act, S::BankGroup, GPUSOC_DELAY(t.tRRD_L)},
    {"tRRD_S", C::Act, C::Act, S::OtherBankGroups, GPUSOC_DELAY(t.tRRD_S)},
    {"tFAW", C::Act, C::Act, S::Rank, GPUSOC_DELAY(t.tFAW), 4},
    {"tRCD", C::Act, C::Rd, S::Bank, GPUSOC_DELAY(t.tRCD)},
    {"tRCD", C::Act, C::Wr, S::Bank, GPUSOC_DELAY(t.tRCD)},
    {"tRAS", C::Act, C::Pre, S::Bank, GPUSOC_DELAY(t.tRAS), 1, true},
    {"tRP", C::Pre, C::Act, S::Bank, GPUSOC_DELAY(t.tRP)},
    {"tRTP", C::Rd, C::Pre, S::Bank, GPUSOC_DELAY(t.tRTP), 1, true},
    {"tWR", C::Wr, C::Pre, S::Bank, GPUSOC_DELAY(int64_t(t.CWL) + B(t) + t.tWR), 1, true},
    // Column commands within a rank: never closer than a burst.
    {"tCCD_L", C::Rd, C::Rd, S::BankGroup, GPUSOC_DELAY(std::max<int64_t>(t.tCCD_L, B(t)))},
    {"tCCD_S", C::Rd, C::Rd, S::OtherBankGroups, GPUSOC_DELAY(std::max<int64_t>(t.tCCD_S, B(t)))},
    {"tCCD_L", C::Wr, C::Wr, S::BankGroup, GPUSOC_DELAY(std::max<int64_t>(t.tCCD_L, B(t)))},
    {"tCCD_S", C::Wr, C::Wr, S::OtherBankGroups, GPUSOC_DELAY(std::max<int64_t>(t.tCCD_S, B(t)))},
    {"tWTR_L", C::Wr, C::Rd, S::BankGroup, GPUSOC_DELAY(int64_t(t.CWL) + B(t) + t.tWTR_L)},
    {"tWTR_S", C::Wr, C::Rd, S::OtherBankGroups, GPUSOC_DELAY(int64_t(t.CWL) + B(t) + t.tWTR_S)},
    {"tRTW", C::Rd, C::Wr, S::Rank,
     GPUSOC_DELAY(int64_t(t.CL) + B(t) + t.tRTW_extra - int64_t(t.CWL))},
    // The data bus, shared by the ranks: bursts in issue order.
    {"data bus", C::Rd, C::Rd, S::Channel, GPUSOC_DELAY(B(t))},
    {"data bus", C::Wr, C::Wr, S::Channel, GPUSOC_DELAY(B(t))},
    {"data bus", C::Rd, C::Wr, S::Channel, GPUSOC_DELAY(int64_t(t.CL) + B(t) - int64_t(t.CWL))},
    {"data bus", C::Wr, C::Rd, S::Channel, GPUSOC_DELAY(int64_t(t.CWL) + B(t) - int64_t(t.CL))},
    // Refresh: every bank able to take an ACT before it, nothing to a bank while it runs.
    {"tRC", C::Act, C::Ref, S::Rank, GPUSOC_DELAY(t.tRC)},
    {"tRP", C::Pre, C::Ref, S::Rank, GPUSOC_DELAY(t.tRP)},
    {"tRC", C::Act, C::RefBank, S::Bank, GPUSOC_DELAY(t.tRC)},
    {"tRP", C::Pre, C::RefBank, S::Bank, GPUSOC_DELAY(t.tRP)},
    {"tRFC", C::Ref, C::Act, S::Rank, GPUSOC_DELAY(t.tRFC)},
    {"tRFC", C::Ref, C::Pre, S::Rank, GPUSOC_DELAY(t.tRFC)},
    {"tRFC", C::Ref, C::Rd, S::Rank, GPUSOC_DELAY(t.tRFC)},
    {"tRFC", C::Ref, C::Wr, S::Rank, GPUSOC_DELAY(t.tRFC)},
    {"tRFC", C::Ref, C::Ref, S::Rank, GPUSOC_DELAY(t.tRFC)},
    {"tRFC", C::Ref, C::RefBank, S::Rank, GPUSOC_DELAY(t.tRFC)},
    {"tRFCpb", C::RefBank, C::Act, S::Bank, GPUSOC_DELAY(t.tRFCpb)},
    {"tRFCpb", C::RefBank, C::Pre, S::Bank, GPUSOC_DELAY(t.tRFCpb)},
    {"tRFCpb", C::RefBank, C::Rd, S::Bank, GPUSOC_DELAY(t.tRFCpb)},
    {"tRFCpb", C::RefBank, C::Wr, S::Bank, GPUSOC_DELAY(t.tRFCpb)},
    {"tRFCpb", C::RefBank, C::Ref, S::Rank, GPUSOC_DELAY(t.tRFCpb)},
    {"tRFCpb", C::RefBank, C::RefBank, S::Bank, GPUSOC_DELAY(t.tRFCpb)},
#undef GPUSOC_DELAY
};
}  // namespace dram_rules_detail

/// The rules, as the datasheets (JEDEC JESD79-4, JESD235, JESD250 and the GDDR5 parts) state them.
inline constexpr const auto& kDramTimingRules = dram_rules_detail::kRules;
constexpr size_t kNumDramTimingRules = std::size(kDramTimingRules);

/// Every rule's delay for `timing`, by index in kDramTimingRules.
std::array<int64_t, kNumDramTimingRules> dram_timing_delays(const DramTiming& timing);
/// Whether rule `rule` is covered within `scope`: a rule of that scope between the same classes
/// (nth 1, gating every command) waits at least as long, for these delays. The channel keeps an
/// _S rule in its rank counter where the _L rule covers it; the checker leaves a bank group's
/// command to the very bank to the bank's rule that covers it.
bool dram_rule_covered(size_t rule, DramRuleScope scope,
                       const std::array<int64_t, kNumDramTimingRules>& delays);

/// The structure both implementations rely on: a rule from or to REF has scope Rank or Channel;
/// nth is 1 to kMaxNth, and above 1 only from ACT with scope Rank; open_bank_only only for a PRE of
/// scope Bank.
constexpr bool dram_timing_rule_well_formed(const DramTimingRule& r) {
  const bool rank_wide = r.earlier == DramClass::Ref || r.later == DramClass::Ref;
  return (!rank_wide || r.scope == DramRuleScope::Rank || r.scope == DramRuleScope::Channel) &&
         r.nth >= 1 && r.nth <= kMaxNth &&
         (r.nth == 1 || (r.scope == DramRuleScope::Rank && r.earlier == DramClass::Act)) &&
         (!r.open_bank_only || (r.later == DramClass::Pre && r.scope == DramRuleScope::Bank));
}
constexpr bool dram_timing_rules_well_formed() {
  for (const DramTimingRule& r : kDramTimingRules) {
    if (!dram_timing_rule_well_formed(r)) return false;
  }
  return true;
}
static_assert(dram_timing_rules_well_formed(), "kDramTimingRules: a rule breaks the structure");

}  // namespace gpusoc::mempart
