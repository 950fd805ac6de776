// The rules of dram_timing.h, written once as a list of gates ("c no earlier than event + need")
// and state conditions (visit); check() reports the broken ones and earliest() takes their
// maximum, so the two cannot disagree. History is a fixed record per bank, bank group and rank,
// plus the data-bus bursts still in flight: constant memory however long the stream.
#include "models/mempart/dram_timing_checker.h"

#include <algorithm>

#include <fmt/format.h>

namespace gpusoc::mempart {

namespace {

using K = DramCommandKind;

bool is_read(K k) {
  return k == K::Read || k == K::ReadPrecharge;
}
bool is_column(K k) {
  return k == K::Read || k == K::Write || k == K::ReadPrecharge || k == K::WritePrecharge;
}
bool is_rank_wide(K k) {
  return k == K::PrechargeAll || k == K::Refresh;
}

}  // namespace

// One timing rule as it applies to the command being checked.
struct DramTimingChecker::Gate {
  const char* rule;
  const Event& earlier;
  int64_t need;  // cycles after earlier.cycle (may be negative: no constraint in practice)
};

DramTimingChecker::DramTimingChecker(const DramTiming& timing)
    : timing_(timing),
      banks_(size_t(timing.ranks) * timing.banks()),
      groups_(size_t(timing.ranks) * timing.bank_groups),
      ranks_(timing.ranks) {}

// The gates of a precharge of bank `b` (PRE, or PREA for each open bank).
template <typename GateFn>
void DramTimingChecker::visit_precharge(const Bank& b, GateFn&& gate) const {
  const DramTiming& t = timing_;
  gate(Gate{"tRAS", b.act, t.tRAS});
  gate(Gate{"tRTP", b.rd, t.tRTP});
  gate(Gate{"tWR", b.wr, int64_t(t.CWL) + t.burst_cycles() + t.tWR});
}

// Column-to-column gates within the rank (bank-group aware).
template <typename GateFn>
void DramTimingChecker::visit_column(const DramCommand& c, GateFn&& gate) const {
  const DramTiming& t = timing_;
  const int64_t burst = t.burst_cycles();
  const bool read = is_read(c.kind);
  for (uint32_t bg = 0; bg < t.bank_groups; ++bg) {
    const Group& g = group(c.rank, bg);
    const bool same = bg == c.bank_group;
    if (read) {
      gate(Gate{same ? "tCCD_L" : "tCCD_S", g.rd,
                std::max<int64_t>(same ? t.tCCD_L : t.tCCD_S, burst)});
      gate(Gate{same ? "tWTR_L" : "tWTR_S", g.wr,
                int64_t(t.CWL) + burst + (same ? t.tWTR_L : t.tWTR_S)});
    } else {
      gate(Gate{same ? "tCCD_L" : "tCCD_S", g.wr,
                std::max<int64_t>(same ? t.tCCD_L : t.tCCD_S, burst)});
      gate(Gate{"tRTW", g.rd, int64_t(t.CL) + burst + t.tRTW_extra - int64_t(t.CWL)});
    }
  }
}

template <typename GateFn, typename StateFn>
void DramTimingChecker::visit(const DramCommand& c, GateFn&& gate, StateFn&& state) const {
  const DramTiming& t = timing_;
  const Rank& r = ranks_[c.rank];
  switch (c.kind) {
    case K::Activate: {
      const Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (b.open)
        state(fmt::format("ACT to an open bank (row {} opened at {})", b.row, b.act.cycle));
      gate(Gate{"tRC", b.act, t.tRC});
      gate(Gate{"tRP", b.pre, t.tRP});
      for (uint32_t bg = 0; bg < t.bank_groups; ++bg) {
        const Group& g = group(c.rank, bg);
        if (bg != c.bank_group) {
          gate(Gate{"tRRD_S", g.act, t.tRRD_S});
        } else {
          // The group's last ACT to this very bank is gated by tRC instead; any ACT to another
          // bank before it was already tRRD_L older than it.
          if (g.act.bank != c.bank) gate(Gate{"tRRD_L", g.act, t.tRRD_L});
        }
      }
      gate(Gate{"tFAW", r.faw[r.faw_next], t.tFAW});
      gate(Gate{"tRFC", r.ref, t.tRFC});
      gate(Gate{"tRFCpb", b.refpb, t.tRFCpb});
      break;
    }
    case K::Precharge: {
      const Bank& b = bank(c.rank, c.bank_group, c.bank);
      gate(Gate{"tRFC", r.ref, t.tRFC});
      gate(Gate{"tRFCpb", b.refpb, t.tRFCpb});
      if (b.open) visit_precharge(b, gate);
      break;
    }
    case K::PrechargeAll:
      gate(Gate{"tRFC", r.ref, t.tRFC});
      for (uint32_t bg = 0; bg < t.bank_groups; ++bg) {
        for (uint32_t bk = 0; bk < t.banks_per_group; ++bk) {
          const Bank& b = bank(c.rank, bg, bk);
          gate(Gate{"tRFCpb", b.refpb, t.tRFCpb});
          if (b.open) visit_precharge(b, gate);
        }
      }
      break;
    case K::Read:
    case K::Write:
    case K::ReadPrecharge:
    case K::WritePrecharge: {
      const Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (!b.open) {
        state(fmt::format("{} to a closed bank", dram_command_name(c.kind)));
      } else if (b.row != c.row) {
        state(fmt::format("{} to row {} but row {} is open (ACT at {})", dram_command_name(c.kind),
                          c.row, b.row, b.act.cycle));
      }
      gate(Gate{"tRFC", r.ref, t.tRFC});
      gate(Gate{"tRFCpb", b.refpb, t.tRFCpb});
      if (b.open) gate(Gate{"tRCD", b.act, t.tRCD});
      visit_column(c, gate);
      break;
    }
    case K::Refresh:
      gate(Gate{"tRFC", r.ref, t.tRFC});
      for (uint32_t bg = 0; bg < t.bank_groups; ++bg) {
        for (uint32_t bk = 0; bk < t.banks_per_group; ++bk) {
          const Bank& b = bank(c.rank, bg, bk);
          if (b.open) state(fmt::format("REF with bg {} bank {} open (row {})", bg, bk, b.row));
          gate(Gate{"tRC", b.act, t.tRC});  // JEDEC: tRC is ACT to ACT or REF
          gate(Gate{"tRP", b.pre, t.tRP});
          gate(Gate{"tRFCpb", b.refpb, t.tRFCpb});
        }
      }
      break;
    case K::RefreshBank: {
      const Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (b.open) state(fmt::format("REFpb to an open bank (row {})", b.row));
      gate(Gate{"tRC", b.act, t.tRC});
      gate(Gate{"tRP", b.pre, t.tRP});
      gate(Gate{"tRFC", r.ref, t.tRFC});
      gate(Gate{"tRFCpb", b.refpb, t.tRFCpb});
      break;
    }
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

// "ACT at 100", "ACT bg 0 bank 3 at 100" (elsewhere), "auto-precharge at 50 (RDA at 40)".
template <typename E>
std::string describe(const E& e, const DramCommand& c) {
  if (e.source != ~0ull) {
    return fmt::format("auto-precharge at {} ({} at {})", e.cycle, dram_command_name(e.kind),
                       e.source);
  }
  const bool elsewhere = !is_rank_wide(e.kind) &&
                         (is_rank_wide(c.kind) || e.bank_group != c.bank_group || e.bank != c.bank);
  if (!elsewhere) return fmt::format("{} at {}", dram_command_name(e.kind), e.cycle);
  return fmt::format("{} bg {} bank {} at {}", dram_command_name(e.kind), e.bank_group, e.bank,
                     e.cycle);
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
                              dram_command_name(last_cmd_.kind), last_rank_, last_cycle_));
  }
  check_refresh_obligation(c, out);
  visit(
      c,
      [&](const Gate& g) {
        if (g.earlier.cycle == kNever) return;
        const int64_t gap = int64_t(c.cycle) - int64_t(g.earlier.cycle);
        if (gap >= g.need) return;
        out.push_back(fmt::format("{}: {}: {} cycles after {} (needs {})", where(c), g.rule, gap,
                                  describe(g.earlier, c), g.need));
      },
      [&](const std::string& what) { out.push_back(fmt::format("{}: {}", where(c), what)); });

  if (is_column(c.kind)) {
    // Bursts ending by the earliest a later command's data could start are history.
    const uint64_t done = last_cycle_ + std::min(t.CL, t.CWL);
    bursts_.erase(std::remove_if(bursts_.begin(), bursts_.end(),
                                 [&](const Burst& b) { return b.end <= done; }),
                  bursts_.end());
    const uint64_t start = c.cycle + (is_read(c.kind) ? t.CL : t.CWL);
    const uint64_t end = start + t.burst_cycles();
    for (const Burst& b : bursts_) {
      if (start < b.end && b.start < end) {
        out.push_back(
            fmt::format("{}: data bus: burst [{}, {}) overlaps the burst [{}, {}) of {} "
                        "rank {} bg {} bank {} at {}",
                        where(c), start, end, b.start, b.end, dram_command_name(b.cmd.kind), b.rank,
                        b.cmd.bank_group, b.cmd.bank, b.cmd.cycle));
      }
    }
    bursts_.push_back(
        Burst{start, end, Event{c.cycle, kNever, c.bank_group, c.bank, c.kind}, c.rank});
  }
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
      [&](const Gate& g) {
        if (g.earlier.cycle != kNever) lb = std::max(lb, int64_t(g.earlier.cycle) + g.need);
      },
      [&](const std::string&) { forbidden = true; });
  if (forbidden) return kNever;
  return is_column(c.kind) ? bus_free_from(c, uint64_t(lb)) : uint64_t(lb);
}

// The first issue cycle >= from whose burst overlaps no burst in flight.
uint64_t DramTimingChecker::bus_free_from(const DramCommand& c, uint64_t from) const {
  const uint64_t latency = is_read(c.kind) ? timing_.CL : timing_.CWL;
  const uint64_t len = timing_.burst_cycles();
  for (bool moved = true; moved;) {
    moved = false;
    for (const Burst& b : bursts_) {
      const uint64_t start = from + latency;
      if (start < b.end && b.start < start + len) {
        from = b.end - latency;  // > from, so this terminates
        moved = true;
      }
    }
  }
  return from;
}

void DramTimingChecker::precharge(Bank& b, uint64_t at, uint64_t source, DramCommandKind kind) {
  b.open = false;
  b.pre = b.act;  // keeps the bank's place; time and kind follow
  b.pre.cycle = at;
  b.pre.source = source;
  b.pre.kind = kind;
}

void DramTimingChecker::refreshed(const DramCommand& c, Bank& b) {
  b.refreshed = Event{c.cycle, kNever, c.bank_group, c.bank, c.kind};
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
  const Event ev{c.cycle, kNever, c.bank_group, c.bank, c.kind};
  last_cmd_ = ev;
  last_rank_ = c.rank;
  Rank& r = ranks_[c.rank];
  switch (c.kind) {
    case K::Activate: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      b.open = true;
      b.row = c.row;
      b.act = ev;
      Group& g = groups_[size_t(c.rank) * t.bank_groups + c.bank_group];
      g.act = ev;
      r.faw[r.faw_next] = ev;
      r.faw_next = (r.faw_next + 1) % 4;
      break;
    }
    case K::Precharge: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      if (b.open) precharge(b, c.cycle, kNever, c.kind);  // on a closed bank: a no-op
      break;
    }
    case K::PrechargeAll:
      for (uint32_t i = 0; i < t.banks(); ++i) {
        Bank& b = banks_[size_t(c.rank) * t.banks() + i];
        if (b.open) precharge(b, c.cycle, kNever, c.kind);
      }
      break;
    case K::Read:
    case K::Write:
    case K::ReadPrecharge:
    case K::WritePrecharge: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      Group& g = groups_[size_t(c.rank) * t.bank_groups + c.bank_group];
      (is_read(c.kind) ? b.rd : b.wr) = ev;
      (is_read(c.kind) ? g.rd : g.wr) = ev;
      if (b.open && (c.kind == K::ReadPrecharge || c.kind == K::WritePrecharge)) {
        // The bank precharges itself when a PRE would first be allowed.
        uint64_t at = c.cycle;
        visit_precharge(b, [&](const Gate& gt) {
          if (gt.earlier.cycle != kNever) {
            at = std::max<uint64_t>(at, uint64_t(int64_t(gt.earlier.cycle) + gt.need));
          }
        });
        precharge(b, at, c.cycle, c.kind);
      }
      break;
    }
    case K::Refresh:
      r.ref = ev;
      for (uint32_t i = 0; i < t.banks(); ++i) {
        refreshed(c, banks_[size_t(c.rank) * t.banks() + i]);
      }
      update_min_refreshes(c.rank);
      break;
    case K::RefreshBank: {
      Bank& b = bank(c.rank, c.bank_group, c.bank);
      b.refpb = ev;
      refreshed(c, b);
      update_min_refreshes(c.rank);
      break;
    }
  }
}

}  // namespace gpusoc::mempart
