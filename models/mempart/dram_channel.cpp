// DramChannel: the rules of dram_timing.h as "next allowed" cycles kept per bank, per bank group
// of a rank (the _L values) and per rank (the _S values, tFAW, refresh), so that earliest() is a
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

// t - d, but never before cycle 0: a latency may reach back before the start of time.
uint64_t minus(uint64_t t, uint32_t d) {
  return t > d ? t - d : 0;
}

bool is_read(DramCommandKind k) {
  return k == DramCommandKind::Read || k == DramCommandKind::ReadPrecharge;
}

}  // namespace

DramChannel::DramChannel(const DramTiming& timing)
    : DramChannel(std::make_shared<const DramTiming>(timing)) {}

DramChannel::DramChannel(std::shared_ptr<const DramTiming> timing) : timing_(std::move(timing)) {
  if (!timing_) throw ModelError(kModule, "constructed without a timing");
  const std::string problem = timing_->problem();
  if (!problem.empty()) throw ConfigError(problem);
  banks_.resize(size_t(timing_->ranks) * timing_->banks());
  groups_.resize(size_t(timing_->ranks) * timing_->bank_groups);
  shared_.assign(groups_.size() * 4, 0);  // nothing issued: nothing shared holds a command back
  ranks_.resize(timing_->ranks);
  burst_ = timing_->burst_cycles();
  ccd_s_ = std::max(timing_->tCCD_S, burst_);
  ccd_l_ = std::max(timing_->tCCD_L, burst_);
  rd_to_wr_ = timing_->CL + burst_ + timing_->tRTW_extra;  // CWL is taken off where it is used
  wr_to_rd_s_ = timing_->CWL + burst_ + timing_->tWTR_S;
  wr_to_rd_l_ = timing_->CWL + burst_ + timing_->tWTR_L;
  wr_to_pre_ = timing_->CWL + burst_ + timing_->tWR;
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
      // Rare (refresh preparation): a walk over the rank's banks, no allocation.
      uint64_t t = std::max(now, r.refresh_end);
      const size_t first = bank_index(rank, 0, 0);
      for (size_t i = first; i < first + timing_->banks(); ++i) {
        raise(t, banks_[i].refresh_end);
        if (banks_[i].open) raise(t, banks_[i].next_pre);
      }
      return t;
    }
    case DramCommandKind::Refresh:
      if (r.open_banks != 0) return kNever;
      return std::max(now, r.idle);
    case DramCommandKind::RefreshBank:
      if (timing_->tRFCpb == 0 || b.open) return kNever;
      return std::max({now, b.next_act, r.refresh_end});
  }
  return kNever;
}

// Brings shared_ up to date after `kind` issued to `rank`: ACT moves ACT's entries in the rank,
// REF those of ACT and PRE, a column command those of RD and WR in every rank (the data bus is
// the channel's). The rank's and the bus's part is taken once, then each bank group's added.
void DramChannel::update_shared(DramCommandKind kind, uint32_t rank) {
  if (kind == DramCommandKind::Activate || kind == DramCommandKind::Refresh) {
    const Rank& r = ranks_[rank];
    const uint64_t act = std::max(r.next_act, r.faw[r.faw_next]);
    for (uint32_t bg = 0; bg < timing_->bank_groups; ++bg) {
      uint64_t* at = &shared_[group_index(rank, bg) * 4];
      at[0] = std::max(act, groups_[group_index(rank, bg)].next_act);
      at[1] = r.refresh_end;
    }
    return;
  }
  const uint64_t bus_rd = minus(bus_free_, timing_->CL), bus_wr = minus(bus_free_, timing_->CWL);
  for (uint32_t k = 0; k < timing_->ranks; ++k) {
    const uint64_t rd = std::max(ranks_[k].next_rd, bus_rd);
    const uint64_t wr = std::max(ranks_[k].next_wr, bus_wr);
    for (uint32_t bg = 0; bg < timing_->bank_groups; ++bg) {
      const Group& g = groups_[group_index(k, bg)];
      uint64_t* at = &shared_[group_index(k, bg) * 4];
      at[2] = std::max(rd, g.next_rd);
      at[3] = std::max(wr, g.next_wr);
    }
  }
}

void DramChannel::close(Rank& r, Bank& b, uint64_t precharge_at) {
  b.open = false;
  --r.open_banks;
  raise(b.next_act, precharge_at + timing_->tRP);
  raise(r.idle, b.next_act);
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
  Rank& r = ranks_[c.rank];
  Group& g = groups_[group_index(c.rank, c.bank_group)];
  Bank& b = banks_[bank_index(c.rank, c.bank_group, c.bank)];
  switch (c.kind) {
    case DramCommandKind::Activate:
      b.open = true;
      b.row = c.row;
      b.next_rd = b.next_wr = t + timing_->tRCD;
      b.next_pre = t + timing_->tRAS;
      raise(b.next_act, t + timing_->tRC);
      raise(r.idle, b.next_act);
      ++r.open_banks;
      raise(r.next_act, t + timing_->tRRD_S);
      raise(g.next_act, t + timing_->tRRD_L);
      r.faw[r.faw_next] = t + timing_->tFAW;
      r.faw_next = (r.faw_next + 1) % 4;
      update_shared(c.kind, c.rank);
      return 0;
    case DramCommandKind::Precharge:
      if (b.open) close(r, b, t);
      return 0;
    case DramCommandKind::PrechargeAll: {
      const size_t first = bank_index(c.rank, 0, 0);
      for (size_t i = first; i < first + timing_->banks(); ++i) {
        if (banks_[i].open) close(r, banks_[i], t);
      }
      return 0;
    }
    case DramCommandKind::Read:
    case DramCommandKind::ReadPrecharge:
    case DramCommandKind::Write:
    case DramCommandKind::WritePrecharge: {
      uint64_t data_end;
      if (is_read(c.kind)) {
        raise(b.next_pre, t + timing_->tRTP);
        raise(r.next_rd, t + ccd_s_);
        raise(g.next_rd, t + ccd_l_);
        raise(r.next_wr, minus(t + rd_to_wr_, timing_->CWL));
        data_end = t + timing_->CL + burst_;
      } else {
        raise(b.next_pre, t + wr_to_pre_);
        raise(r.next_wr, t + ccd_s_);
        raise(g.next_wr, t + ccd_l_);
        raise(r.next_rd, t + wr_to_rd_s_);
        raise(g.next_rd, t + wr_to_rd_l_);
        data_end = t + timing_->CWL + burst_;
      }
      bus_free_ = std::max(bus_free_, data_end);
      if (c.kind == DramCommandKind::ReadPrecharge || c.kind == DramCommandKind::WritePrecharge)
        close(r, b, b.next_pre);
      update_shared(c.kind, c.rank);
      return data_end;
    }
    case DramCommandKind::Refresh:
      r.refresh_end = t + timing_->tRFC;
      raise(r.next_act, r.refresh_end);
      raise(r.idle, r.refresh_end);
      update_shared(c.kind, c.rank);
      return 0;
    case DramCommandKind::RefreshBank:
      b.refresh_end = t + timing_->tRFCpb;
      raise(b.next_act, b.refresh_end);
      raise(r.idle, b.next_act);
      return 0;
  }
  return 0;
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
