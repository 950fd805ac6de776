// The rule table of dram_timing_rules.h, applied backwards: visit() lists, for a command, every
// rule's gate ("c no earlier than event + delay") and every state condition; check() reports the
// broken ones and earliest() takes their maximum, so the two cannot disagree. History is a fixed
// record per bank, bank group, rank and channel: constant memory however long the stream.
#include "models/mempart/dram_timing_checker.h"

#include <algorithm>

#include <fmt/format.h>

namespace gpusoc::mempart {

namespace {

using K = DramCommandKind;

bool is_column(K k) {
  return k == K::Read || k == K::Write || k == K::ReadPrecharge || k == K::WritePrecharge;
}

}  // namespace

DramTimingChecker::DramTimingChecker(const DramTiming& timing)
    : timing_(timing),
      banks_(size_t(timing.ranks) * timing.banks()),
      groups_(size_t(timing.ranks) * timing.bank_groups),
      ranks_(timing.ranks) {
  const std::array<int64_t, kNumDramTimingRules> delays = dram_timing_delays(timing_);
  for (size_t i = 0; i < kNumDramTimingRules; ++i) {
    const DramTimingRule& r = kDramTimingRules[i];
    const bool covered_in_bank =
        r.scope == DramRuleScope::BankGroup && dram_rule_covered(i, DramRuleScope::Bank, delays);
    rules_[unsigned(r.later)].push_back(Rule{&r, delays[i], covered_in_bank});
  }
}

// The gates of the rules to a command of class `later` at (c.rank, bank_group, bank); `gate`
// receives each with the event it is timed from.
template <typename GateFn>
void DramTimingChecker::visit_rules(DramClass later, const DramCommand& c, uint32_t bank_group,
                                    uint32_t bank, GateFn&& gate) const {
  const Rank& r = ranks_[c.rank];
  for (const Rule& rule : rules_[unsigned(later)]) {
    const DramTimingRule& t = *rule.rule;
    const unsigned from = unsigned(t.earlier);
    switch (t.scope) {
      case DramRuleScope::Bank: {
        const Bank& b = this->bank(c.rank, bank_group, bank);
        if (!t.open_bank_only || b.open) gate(rule, b.last[from]);
        break;
      }
      case DramRuleScope::BankGroup: {
        const Event& e = group(c.rank, bank_group).last[from];
        if (!(rule.covered_in_bank && e.bank == bank)) gate(rule, e);
        break;
      }
      case DramRuleScope::OtherBankGroups:
        for (uint32_t bg = 0; bg < timing_.bank_groups; ++bg) {
          if (bg != bank_group) gate(rule, group(c.rank, bg).last[from]);
        }
        break;
      case DramRuleScope::Rank:
        // The nth-previous: the oldest of the ring of the last kMaxNth, nth - 1 places on.
        gate(rule, t.nth > 1 ? r.recent[from][(r.recent_next[from] + kMaxNth - t.nth) % kMaxNth]
                             : r.last[from]);
        break;
      case DramRuleScope::Channel:
        gate(rule, channel_.last[from]);
        break;
    }
  }
}

template <typename GateFn, typename StateFn>
void DramTimingChecker::visit(const DramCommand& c, GateFn&& gate, StateFn&& state) const {
  const DramClass later = dram_class(c.kind);
  switch (c.kind) {
    case K::Activate: {
      const Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (b.open)
        state(fmt::format("ACT to an open bank (row {} opened at {})", b.row,
                          b.last[unsigned(DramClass::Act)].cycle));
      break;
    }
    case K::Read:
    case K::Write:
    case K::ReadPrecharge:
    case K::WritePrecharge: {
      const Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (!b.open) {
        state(fmt::format("{} to a closed bank", dram_command_name(c.kind)));
      } else if (b.row != c.row) {
        state(fmt::format("{} to row {} but row {} is open (ACT at {})", dram_command_name(c.kind),
                          c.row, b.row, b.last[unsigned(DramClass::Act)].cycle));
      }
      break;
    }
    case K::Refresh:
      for (uint32_t bg = 0; bg < timing_.bank_groups; ++bg) {
        for (uint32_t bk = 0; bk < timing_.banks_per_group; ++bk) {
          const Bank& b = bank(c.rank, bg, bk);
          if (b.open) state(fmt::format("REF with bg {} bank {} open (row {})", bg, bk, b.row));
        }
      }
      break;
    case K::RefreshBank: {
      const Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (timing_.tRFCpb == 0) state("REFpb, but the device has no per-bank refresh (tRFCpb 0)");
      if (b.open) state(fmt::format("REFpb to an open bank (row {})", b.row));
      break;
    }
    case K::Precharge:
    case K::PrechargeAll:
      break;
  }
  if (c.kind == K::PrechargeAll) {  // a PRE to each bank of the rank
    for (uint32_t bg = 0; bg < timing_.bank_groups; ++bg) {
      for (uint32_t bk = 0; bk < timing_.banks_per_group; ++bk) visit_rules(later, c, bg, bk, gate);
    }
  } else {
    visit_rules(later, c, c.bank_group, c.bank, gate);
  }
}

std::string DramTimingChecker::where(const DramCommand& c) const {
  if (is_rank_wide(c.kind)) {
    return fmt::format("{} rank {} at cycle {}", dram_command_name(c.kind), c.rank, c.cycle);
  }
  return fmt::format("{} rank {} bg {} bank {} at cycle {}", dram_command_name(c.kind), c.rank,
                     c.bank_group, c.bank, c.cycle);
}

namespace {

// "ACT at 100", "ACT bg 0 bank 3 at 100" (elsewhere), "RD rank 1 bg 0 bank 3 at 100" (another
// rank), "auto-precharge at 50 (RDA at 40)".
template <typename E>
std::string describe(const E& e, const DramCommand& c) {
  if (e.source != ~0ull) {
    return fmt::format("auto-precharge at {} ({} at {})", e.cycle, dram_command_name(e.kind),
                       e.source);
  }
  const char* name = dram_command_name(e.kind);
  if (e.rank != c.rank) {
    if (is_rank_wide(e.kind)) return fmt::format("{} rank {} at {}", name, e.rank, e.cycle);
    return fmt::format("{} rank {} bg {} bank {} at {}", name, e.rank, e.bank_group, e.bank,
                       e.cycle);
  }
  const bool elsewhere = !is_rank_wide(e.kind) &&
                         (is_rank_wide(c.kind) || e.bank_group != c.bank_group || e.bank != c.bank);
  if (!elsewhere) return fmt::format("{} at {}", name, e.cycle);
  return fmt::format("{} bg {} bank {} at {}", name, e.bank_group, e.bank, e.cycle);
}

}  // namespace

std::vector<std::string> DramTimingChecker::check(const DramCommand& c) {
  std::vector<std::string> out;
  const DramTiming& t = timing_;
  const char* range = nullptr;
  uint32_t value = 0, limit = 0;
  if (c.rank >= t.ranks) {
    range = "rank", value = c.rank, limit = t.ranks;
  } else if (!is_rank_wide(c.kind) && c.bank_group >= t.bank_groups) {
    range = "bank group", value = c.bank_group, limit = t.bank_groups;
  } else if (!is_rank_wide(c.kind) && c.bank >= t.banks_per_group) {
    range = "bank", value = c.bank, limit = t.banks_per_group;
  } else if (c.kind == K::Activate && c.row >= t.rows) {
    range = "row", value = c.row, limit = t.rows;
  } else if (is_column(c.kind) && c.column >= t.columns) {
    range = "column", value = c.column, limit = t.columns;
  }
  if (range) {
    out.push_back(fmt::format("{}: no {} {} (the channel has {})", where(c), range, value, limit));
    violations_.insert(violations_.end(), out.begin(), out.end());
    return out;
  }

  if (any_cmd_ && c.cycle < last_cycle_) {
    out.push_back(fmt::format("{}: cycle order: issued after {} rank {} at {}", where(c),
                              dram_command_name(last_cmd_.kind), last_cmd_.rank, last_cycle_));
  }
  check_refresh_obligation(c, out);
  visit(
      c,
      [&](const Rule& rule, const Event& e) {
        if (e.cycle == kNever) return;
        const int64_t gap = int64_t(c.cycle) - int64_t(e.cycle);
        if (gap >= rule.delay) return;
        std::string msg = fmt::format("{}: {}: {} cycles after {} (needs {})", where(c),
                                      rule.rule->name, gap, describe(e, c), rule.delay);
        // PREA meets a rank's rules once per bank: one report each.
        if (std::find(out.begin(), out.end(), msg) == out.end()) out.push_back(std::move(msg));
      },
      [&](const std::string& what) { out.push_back(fmt::format("{}: {}", where(c), what)); });
  record(c);
  violations_.insert(violations_.end(), out.begin(), out.end());
  return out;
}

uint64_t DramTimingChecker::earliest(const DramCommand& c) const {
  const DramTiming& t = timing_;
  if (c.rank >= t.ranks ||
      (!is_rank_wide(c.kind) && (c.bank_group >= t.bank_groups || c.bank >= t.banks_per_group)) ||
      (c.kind == K::Activate && c.row >= t.rows) || (is_column(c.kind) && c.column >= t.columns)) {
    return kNever;
  }
  int64_t lb = any_cmd_ ? int64_t(last_cycle_) : 0;
  bool forbidden = false;
  visit(
      c,
      [&](const Rule& rule, const Event& e) {
        if (e.cycle != kNever) lb = std::max(lb, int64_t(e.cycle) + rule.delay);
      },
      [&](const std::string&) { forbidden = true; });
  return forbidden ? kNever : uint64_t(lb);
}

// Keeps `ev` as the latest command of its class at every level (an auto-precharge may lie ahead
// of commands recorded after it), and in the rank's ring.
void DramTimingChecker::note(const Event& ev, DramClass cls, Bank* b) {
  const unsigned k = unsigned(cls);
  auto keep = [&](Level& level) {
    Event& last = level.last[k];
    if (last.cycle == kNever || ev.cycle >= last.cycle) last = ev;
  };
  Rank& r = ranks_[ev.rank];
  if (b) {
    keep(*b);
    keep(group(ev.rank, ev.bank_group));
  }
  keep(r);
  keep(channel_);
  r.recent[k][r.recent_next[k]] = ev;
  r.recent_next[k] = (r.recent_next[k] + 1) % kMaxNth;
}

void DramTimingChecker::precharge(Bank& b, const Event& at) {
  b.open = false;
  note(at, DramClass::Pre, &b);
}

void DramTimingChecker::refreshed(const DramCommand& c, Bank& b) {
  b.refreshed = Event{c.cycle, kNever, c.rank, c.bank_group, c.bank, c.kind};
  // At most 8 refreshes may be pulled in: credit beyond that is lost (JEDEC).
  const uint64_t cap = timing_.tREFI ? c.cycle / timing_.tREFI + 8 : kNever;
  b.refreshes = std::min(b.refreshes + 1, cap);
}

void DramTimingChecker::update_min_refreshes(uint32_t rank) {
  uint64_t least = kNever;
  for (uint32_t i = 0; i < timing_.banks(); ++i) {
    least = std::min(least, banks_[size_t(rank) * timing_.banks() + i].refreshes);
  }
  ranks_[rank].min_refreshes = least;
}

// A bank with m credited refreshes must have its next by (m + 9) * tREFI: REF k is due at
// k * tREFI and may be postponed by at most 8 intervals. Reported once per missed refresh.
void DramTimingChecker::check_refresh_obligation(const DramCommand& c,
                                                 std::vector<std::string>& out) {
  const uint64_t T = timing_.tREFI;
  if (T == 0) return;
  for (uint32_t ri = 0; ri < timing_.ranks; ++ri) {
    Rank& r = ranks_[ri];
    if (r.reported_refreshes == r.min_refreshes || c.cycle <= (r.min_refreshes + 9) * T) continue;
    r.reported_refreshes = r.min_refreshes;
    uint32_t i = 0;
    while (banks_[size_t(ri) * timing_.banks() + i].refreshes != r.min_refreshes) ++i;
    const Bank& b = banks_[size_t(ri) * timing_.banks() + i];
    const std::string last =
        b.refreshed.cycle == kNever
            ? std::string("never refreshed")
            : fmt::format("last refreshed by {} at {}", dram_command_name(b.refreshed.kind),
                          b.refreshed.cycle);
    out.push_back(fmt::format(
        "{}: tREFI: rank {} bg {} bank {} has {} refreshes postponed (at most 8, tREFI {}); {}",
        where(c), ri, i / timing_.banks_per_group, i % timing_.banks_per_group,
        (c.cycle + T - 1) / T - 1 - r.min_refreshes, T, last));
  }
}

void DramTimingChecker::record(const DramCommand& c) {
  const DramTiming& t = timing_;
  if (!any_cmd_ || c.cycle >= last_cycle_) last_cycle_ = c.cycle;
  any_cmd_ = true;
  const Event ev{c.cycle, kNever, c.rank, c.bank_group, c.bank, c.kind};
  last_cmd_ = ev;
  switch (c.kind) {
    case K::Activate: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      b.open = true;
      b.row = c.row;
      note(ev, DramClass::Act, &b);
      break;
    }
    case K::Precharge: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (b.open) precharge(b, ev);  // on a closed bank: a no-op
      break;
    }
    case K::PrechargeAll:
      for (uint32_t bg = 0; bg < t.bank_groups; ++bg) {
        for (uint32_t bk = 0; bk < t.banks_per_group; ++bk) {
          Bank& b = bank(c.rank, bg, bk);
          if (b.open) precharge(b, Event{c.cycle, kNever, c.rank, bg, bk, c.kind});
        }
      }
      break;
    case K::Read:
    case K::Write:
    case K::ReadPrecharge:
    case K::WritePrecharge: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      note(ev, dram_class(c.kind), &b);
      if (b.open && (c.kind == K::ReadPrecharge || c.kind == K::WritePrecharge)) {
        // The bank precharges itself when a PRE would first be allowed.
        uint64_t at = c.cycle;
        visit_rules(DramClass::Pre, c, c.bank_group, c.bank, [&](const Rule& rule, const Event& e) {
          if (e.cycle != kNever)
            at = std::max<uint64_t>(at, uint64_t(int64_t(e.cycle) + rule.delay));
        });
        Event pre = ev;
        pre.cycle = at;
        pre.source = c.cycle;
        precharge(b, pre);
      }
      break;
    }
    case K::Refresh:
      note(ev, DramClass::Ref, nullptr);
      for (uint32_t i = 0; i < t.banks(); ++i) {
        refreshed(c, banks_[size_t(c.rank) * t.banks() + i]);
      }
      update_min_refreshes(c.rank);
      break;
    case K::RefreshBank: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      note(ev, DramClass::RefBank, &b);
      refreshed(c, b);
      update_min_refreshes(c.rank);
      break;
    }
  }
}

}  // namespace gpusoc::mempart
