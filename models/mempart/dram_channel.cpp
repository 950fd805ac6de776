// DramChannel: the rule table of dram_timing_rules.h as "next allowed" cycles kept per bank, per
// bank group, per rank and for the channel, raised when a command issues, so that earliest() is a
// handful of max() operations: the controller asks it for every candidate every cycle.
#include "models/mempart/dram_channel.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc::mempart {
namespace {

constexpr const char* kModule = "dram channel";

void raise(uint64_t& at, uint64_t value) {
  at = std::max(at, value);
}

}  // namespace

DramChannel::DramChannel(const DramTiming& timing)
    : DramChannel(std::make_shared<const DramTiming>(timing)) {}

DramChannel::DramChannel(std::shared_ptr<const DramTiming> timing) : timing_(std::move(timing)) {
  if (!timing_) throw ModelError(kModule, "constructed without a timing");
  const std::string problem = timing_->problem();
  if (!problem.empty()) throw ConfigError(problem);
  delays_ = dram_timing_delays(*timing_);
  for (size_t i = 0; i < kNumDramTimingRules; ++i) {
    other_groups_in_rank_[i] = kDramTimingRules[i].scope == DramRuleScope::OtherBankGroups &&
                               dram_rule_covered(i, DramRuleScope::BankGroup, delays_);
  }
  banks_.resize(size_t(timing_->ranks) * timing_->banks());
  groups_.resize(size_t(timing_->ranks) * timing_->bank_groups);
  shared_.assign(groups_.size() * 4, 0);  // nothing issued: nothing shared holds a command back
  ranks_.resize(timing_->ranks);
}

void DramChannel::check_address(uint32_t rank, uint32_t bank_group, uint32_t bank) const {
  if (rank >= timing_->ranks || bank_group >= timing_->bank_groups ||
      bank >= timing_->banks_per_group) {
    throw ModelError(kModule,
                     fmt::format("rank {} bank group {} bank {} is outside {} ({} ranks, {} bank "
                                 "groups of {} banks)",
                                 rank, bank_group, bank, timing_->name, timing_->ranks,
                                 timing_->bank_groups, timing_->banks_per_group));
  }
}

uint64_t DramChannel::above_bank(Slot slot, uint32_t rank, uint32_t bank_group) const {
  return std::max({groups_[group_index(rank, bank_group)].next[slot], ranks_[rank].next[slot],
                   channel_.next[slot]});
}

uint64_t DramChannel::earliest(DramCommandKind kind, uint32_t rank, uint32_t bank_group,
                               uint32_t bank, uint64_t now) const {
  check_address(rank, bank_group, bank);
  const Rank& r = ranks_[rank];
  const Bank& b = banks_[bank_index(rank, bank_group, bank)];
  switch (kind) {
    case DramCommandKind::Activate:
    case DramCommandKind::Precharge:
    case DramCommandKind::Read:
    case DramCommandKind::ReadPrecharge:
    case DramCommandKind::Write:
    case DramCommandKind::WritePrecharge: {
      const uint64_t own = bank_ready(kind, rank, bank_group, bank);  // checked above
      return own == kNever ? kNever : std::max({now, own, shared_ready(kind, rank, bank_group)});
    }
    case DramCommandKind::PrechargeAll: {
      // Rare (refresh preparation): a PRE to each bank of the rank, no allocation.
      uint64_t t = now;
      for (uint32_t bg = 0; bg < timing_->bank_groups; ++bg) {
        raise(t, above_bank(kPre, rank, bg));
        for (uint32_t bk = 0; bk < timing_->banks_per_group; ++bk) {
          raise(t, bank_ready(DramCommandKind::Precharge, rank, bg, bk));
        }
      }
      return t;
    }
    case DramCommandKind::Refresh:
      if (r.open_banks != 0) return kNever;
      return std::max(now, above_bank(kRef, rank, 0));
    case DramCommandKind::RefreshBank:
      if (timing_->tRFCpb == 0 || b.open) return kNever;
      return std::max({now, b.next[kRefBank], above_bank(kRefBank, rank, bank_group)});
  }
  return kNever;
}

namespace {

// The slot a rule raises, its place among the rules with nth > 1, and the shared_ entries the
// rules from a class move: all known when the program is compiled.
constexpr DramChannel::Slot slot_of(const DramTimingRule& r) {
  using C = DramClass;
  if (r.open_bank_only) return DramChannel::kPreOpen;
  return r.later == C::Act       ? DramChannel::kAct
         : r.later == C::Pre     ? DramChannel::kPre
         : r.later == C::Rd      ? DramChannel::kRd
         : r.later == C::Wr      ? DramChannel::kWr
         : r.later == C::RefBank ? DramChannel::kRefBank
                                 : DramChannel::kRef;
}
constexpr uint32_t window_of(size_t rule) {
  uint32_t n = 0;
  for (size_t i = 0; i < rule; ++i) n += kDramTimingRules[i].nth > 1;
  return n;
}
constexpr uint32_t shared_slots_from(DramClass from) {
  uint32_t slots = 0;
  for (const DramTimingRule& r : kDramTimingRules) {
    if (r.earlier == from && r.scope != DramRuleScope::Bank && slot_of(r) < 4)
      slots |= 1u << slot_of(r);
  }
  return slots;
}
constexpr bool moves_channel_from(DramClass from) {
  for (const DramTimingRule& r : kDramTimingRules) {
    if (r.earlier == from && r.scope == DramRuleScope::Channel) return true;
  }
  return false;
}
}  // namespace

template <DramClass kFrom, size_t I>
void DramChannel::apply_rule(uint64_t t, const Where& to) {
  constexpr const DramTimingRule& rule = kDramTimingRules[I];
  if constexpr (rule.earlier == kFrom) {
    constexpr Slot slot = slot_of(rule);
    // Never below 0: a negative delay may reach back before the start of time.
    const uint64_t at = uint64_t(std::max<int64_t>(int64_t(t) + delays_[I], 0));
    if constexpr (rule.nth > 1) {
      Window& w = to.rank->windows[window_of(I)];
      w.ring[w.oldest] = at;
      w.oldest = (w.oldest + 1) % rule.nth;
      raise(to.rank->next[slot], w.ring[w.oldest]);
    } else if constexpr (rule.scope == DramRuleScope::Bank) {
      static_assert(slot < kBankSlots, "a rule of scope Bank gates REF");
      raise(to.bank->next[slot], at);
    } else if constexpr (rule.scope == DramRuleScope::BankGroup) {
      raise(to.group->next[slot], at);
    } else if constexpr (rule.scope == DramRuleScope::OtherBankGroups) {
      if (other_groups_in_rank_[I]) {
        raise(to.rank->next[slot], at);
      } else {
        Level* first = &groups_[group_index(to.rank_index, 0)];
        for (Level* g = first; g != first + timing_->bank_groups; ++g) {
          if (g != to.group) raise(g->next[slot], at);
        }
      }
    } else if constexpr (rule.scope == DramRuleScope::Rank) {
      raise(to.rank->next[slot], at);
    } else {
      raise(channel_.next[slot], at);
    }
  }
}

template <DramClass kFrom, size_t... I>
void DramChannel::apply_from(std::index_sequence<I...>, uint64_t t, uint32_t rank,
                             uint32_t bank_group, uint32_t bank) {
  // REF names no bank: its rules have scope Rank or Channel (dram_timing_rules.h).
  constexpr bool names_bank = kFrom != DramClass::Ref;
  const Where where{names_bank ? &banks_[bank_index(rank, bank_group, bank)] : nullptr,
                    names_bank ? &groups_[group_index(rank, bank_group)] : nullptr, &ranks_[rank],
                    rank};
  (apply_rule<kFrom, I>(t, where), ...);
  // shared_: the entries of the rank, or of every rank after the data bus moved, when a rule of
  // scope above the bank moved one.
  constexpr uint32_t slots = shared_slots_from(kFrom);
  if constexpr (slots != 0) {
    constexpr bool all = moves_channel_from(kFrom);
    for (uint32_t k = all ? 0 : rank; k < (all ? timing_->ranks : rank + 1); ++k) {
      uint64_t above[4];
      for (uint32_t s = 0; s < 4; ++s) above[s] = std::max(ranks_[k].next[s], channel_.next[s]);
      for (size_t gi = group_index(k, 0); gi < group_index(k, 0) + timing_->bank_groups; ++gi) {
        for (uint32_t s = 0; s < 4; ++s) {
          if ((slots >> s) & 1) shared_[gi * 4 + s] = std::max(above[s], groups_[gi].next[s]);
        }
      }
    }
  }
}

void DramChannel::close(uint32_t rank, uint32_t bank_group, uint32_t bank, uint64_t precharge_at) {
  banks_[bank_index(rank, bank_group, bank)].open = false;
  --ranks_[rank].open_banks;
  apply<DramClass::Pre>(precharge_at, rank, bank_group, bank);
}

uint64_t DramChannel::issue(const DramCommand& c) {
  const uint64_t allowed = earliest(c.kind, c.rank, c.bank_group, c.bank, c.cycle);
  if (allowed != c.cycle) {
    const std::string when = allowed == kNever ? std::string("never, in the bank's present state")
                                               : fmt::format("not before cycle {}", allowed);
    throw ModelError(kModule, fmt::format("{}: {} to rank {} bank group {} bank {} at cycle {}: "
                                          "allowed {}",
                                          timing_->name, dram_command_name(c.kind), c.rank,
                                          c.bank_group, c.bank, c.cycle, when));
  }
  return issue_planned(c);
}

uint64_t DramChannel::issue_planned(const DramCommand& c) {
  const uint64_t t = c.cycle;
  // REF and PREA name no bank.
  auto bank = [&]() -> Bank& { return banks_[bank_index(c.rank, c.bank_group, c.bank)]; };
  const DramClass cls = dram_class(c.kind);
  uint64_t data_end = 0;
  switch (c.kind) {
    case DramCommandKind::Activate:
      bank().open = true;
      bank().row = c.row;
      ++ranks_[c.rank].open_banks;
      apply<DramClass::Act>(t, c.rank, c.bank_group, c.bank);
      break;
    case DramCommandKind::Precharge:
      if (bank().open) close(c.rank, c.bank_group, c.bank, t);  // else a no-op
      break;
    case DramCommandKind::PrechargeAll:
      for (uint32_t bg = 0; bg < timing_->bank_groups; ++bg) {
        for (uint32_t bk = 0; bk < timing_->banks_per_group; ++bk) {
          if (banks_[bank_index(c.rank, bg, bk)].open) close(c.rank, bg, bk, t);
        }
      }
      break;
    case DramCommandKind::Read:
    case DramCommandKind::ReadPrecharge:
    case DramCommandKind::Write:
    case DramCommandKind::WritePrecharge:
      if (cls == DramClass::Rd) {
        apply<DramClass::Rd>(t, c.rank, c.bank_group, c.bank);
      } else {
        apply<DramClass::Wr>(t, c.rank, c.bank_group, c.bank);
      }
      data_end = t + (cls == DramClass::Rd ? timing_->CL : timing_->CWL) + timing_->burst_cycles();
      if (c.kind == DramCommandKind::ReadPrecharge || c.kind == DramCommandKind::WritePrecharge) {
        // The bank precharges itself when a PRE would first be allowed.
        const uint64_t pre =
            std::max({t, bank_ready(DramCommandKind::Precharge, c.rank, c.bank_group, c.bank),
                      above_bank(kPre, c.rank, c.bank_group)});
        close(c.rank, c.bank_group, c.bank, pre);
      }
      break;
    case DramCommandKind::Refresh:
      apply<DramClass::Ref>(t, c.rank, 0, 0);
      break;
    case DramCommandKind::RefreshBank:
      apply<DramClass::RefBank>(t, c.rank, c.bank_group, c.bank);
      break;
  }
  return data_end;
}

bool DramChannel::is_open(uint32_t rank, uint32_t bank_group, uint32_t bank) const {
  check_address(rank, bank_group, bank);
  return banks_[bank_index(rank, bank_group, bank)].open;
}

uint32_t DramChannel::open_row(uint32_t rank, uint32_t bank_group, uint32_t bank) const {
  check_address(rank, bank_group, bank);
  return banks_[bank_index(rank, bank_group, bank)].row;
}

}  // namespace gpusoc::mempart
