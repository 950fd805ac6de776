// A long legal stream passes the checker with no violation: an in-order generator of random
// requests (row hits and misses, reads and writes, auto-precharge, periodic PREA + REF) that waits
// conservative analytic gaps of its own (the largest of each S/L pair, the bus strictly in order).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "models/mempart/dram_timing_checker.h"

namespace gpusoc::mempart {
namespace {

using K = DramCommandKind;

class LegalStream {
 public:
  explicit LegalStream(const DramTiming& t)
      : t_(t), banks_(size_t(t.ranks) * t.banks()), ranks_(t.ranks), checker_(t) {
    for (uint32_t r = 0; r < t.ranks; ++r) ranks_[r].next_ref = t.tREFI;
  }

  void request(std::mt19937_64& rng) {
    const uint32_t rank = rng() % t_.ranks, bg = rng() % t_.bank_groups,
                   bk = rng() % t_.banks_per_group, row = rng() % 4;
    const bool read = rng() % 3 != 0, autopre = rng() % 5 == 0;
    refresh_due();
    Bank& b = bank(rank, bg, bk);
    Rank& r = ranks_[rank];
    if (b.open && b.row != row) {
      const uint64_t at = issue(K::Precharge, b.ready_pre, rank, bg, bk);
      close(b, at);
    }
    if (!b.open) {
      const uint64_t at =
          issue(K::Activate, std::max({b.ready_act, r.last_act + rrd(), r.faw[r.faw_i] + t_.tFAW}),
                rank, bg, bk, row);
      r.faw[r.faw_i] = at, r.faw_i = (r.faw_i + 1) % 4, r.last_act = at;
      b.open = true, b.row = row, b.act = at;
      b.ready_act = at + t_.tRC;
      b.ready_pre = at + t_.tRAS;
    }
    const int64_t burst = t_.burst_cycles(), latency = read ? t_.CL : t_.CWL;
    int64_t lb = std::max<int64_t>(b.act + t_.tRCD, int64_t(bus_free_) - latency);
    if (r.any_col) lb = std::max(lb, int64_t(r.last_col) + col_gap(r.last_col_read, read));
    const K kind =
        read ? (autopre ? K::ReadPrecharge : K::Read) : (autopre ? K::WritePrecharge : K::Write);
    const uint64_t at = issue(kind, uint64_t(std::max<int64_t>(lb, 0)), rank, bg, bk, row);
    r.any_col = true, r.last_col = at, r.last_col_read = read;
    bus_free_ = at + latency + burst;
    b.ready_pre = std::max(b.ready_pre, read ? at + t_.tRTP : at + t_.CWL + burst + t_.tWR);
    if (autopre) close(b, std::max(b.ready_pre, at));
  }

  const DramTimingChecker& checker() const { return checker_; }
  const std::array<uint64_t, kNumDramCommandKinds>& counts() const { return counts_; }

 private:
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    uint64_t act = 0, ready_act = 0, ready_pre = 0, precharged = 0;
  };
  struct Rank {
    std::array<uint64_t, 4> faw{};
    unsigned faw_i = 0;
    uint64_t last_act = 0, last_col = 0, next_ref = 0;
    bool any_col = false, last_col_read = false;
  };

  Bank& bank(uint32_t r, uint32_t bg, uint32_t bk) {
    return banks_[(size_t(r) * t_.bank_groups + bg) * t_.banks_per_group + bk];
  }
  uint64_t rrd() const { return std::max(t_.tRRD_S, t_.tRRD_L); }
  int64_t col_gap(bool prev_read, bool read) const {
    const int64_t burst = t_.burst_cycles();
    if (prev_read == read) return std::max<int64_t>({t_.tCCD_S, t_.tCCD_L, burst});
    if (prev_read) return int64_t(t_.CL) + burst + t_.tRTW_extra - int64_t(t_.CWL);
    return int64_t(t_.CWL) + burst + std::max(t_.tWTR_S, t_.tWTR_L);
  }
  void close(Bank& b, uint64_t at) {
    b.open = false;
    b.precharged = at;
    b.ready_act = std::max(b.ready_act, at + t_.tRP);
  }
  // Every rank past its REF time closes its banks with PREA and refreshes.
  void refresh_due() {
    for (uint32_t r = 0; r < t_.ranks; ++r) {
      if (now_ < ranks_[r].next_ref) continue;
      ranks_[r].next_ref += t_.tREFI;
      uint64_t pre_at = 0;
      bool any_open = false;
      for (uint32_t i = 0; i < t_.banks(); ++i) {
        const Bank& b = banks_[size_t(r) * t_.banks() + i];
        if (b.open) any_open = true, pre_at = std::max(pre_at, b.ready_pre);
      }
      if (any_open) {
        const uint64_t at = issue(K::PrechargeAll, pre_at, r, 0, 0);
        for (uint32_t i = 0; i < t_.banks(); ++i) {
          Bank& b = banks_[size_t(r) * t_.banks() + i];
          if (b.open) close(b, at);
        }
      }
      uint64_t ref_at = 0;
      for (uint32_t i = 0; i < t_.banks(); ++i) {
        const Bank& b = banks_[size_t(r) * t_.banks() + i];
        ref_at = std::max({ref_at, b.precharged + t_.tRP, b.ready_act});  // tRP and tRC
      }
      const uint64_t at = issue(K::Refresh, ref_at, r, 0, 0);
      for (uint32_t i = 0; i < t_.banks(); ++i) {
        Bank& b = banks_[size_t(r) * t_.banks() + i];
        b.ready_act = std::max(b.ready_act, at + t_.tRFC);
      }
    }
  }
  // One command per cycle, in order.
  uint64_t issue(K kind, uint64_t at, uint32_t rank, uint32_t bg, uint32_t bk, uint32_t row = 0) {
    DramCommand c;
    c.kind = kind, c.rank = rank, c.bank_group = bg, c.bank = bk, c.row = row;
    c.cycle = std::max(at, now_);
    now_ = c.cycle + 1;
    checker_.check(c);
    ++counts_[unsigned(kind)];
    return c.cycle;
  }

  DramTiming t_;
  std::vector<Bank> banks_;
  std::vector<Rank> ranks_;
  DramTimingChecker checker_;
  uint64_t now_ = 0, bus_free_ = 0;
  std::array<uint64_t, kNumDramCommandKinds> counts_{};
};

DramTiming stream_timing(uint32_t bank_groups) {
  DramTiming t;
  t.ranks = 2, t.bank_groups = bank_groups, t.banks_per_group = 16 / bank_groups;
  t.burst_length = 16, t.beats_per_clock = 4;
  t.CL = 24, t.CWL = 7;
  t.tRCD = 20, t.tRP = 18, t.tRAS = 42, t.tRC = 61;
  t.tCCD_S = 2, t.tCCD_L = 5, t.tRRD_S = 6, t.tRRD_L = 9, t.tFAW = 34;
  t.tWTR_S = 3, t.tWTR_L = 10, t.tRTW_extra = 2, t.tWR = 21, t.tRTP = 8;
  t.tRFC = 260, t.tRFCpb = 120, t.tREFI = 3900;
  return t;
}

TEST(DramTimingCheckerStream, MillionLegalRequestsPassWithZeroViolations) {
  for (uint32_t groups : {1u, 4u}) {
    LegalStream s(stream_timing(groups));
    std::mt19937_64 rng(groups);
    for (int i = 0; i < 1000000; ++i) s.request(rng);
    EXPECT_TRUE(s.checker().violations().empty())
        << s.checker().violations().size()
        << " violations, first: " << s.checker().violations().front();
    // The stream exercised every kind but per-bank refresh.
    for (unsigned k = 0; k < kNumDramCommandKinds; ++k) {
      if (K(k) != K::RefreshBank) {
        EXPECT_GT(s.counts()[k], 0u) << dram_command_name(K(k));
      }
    }
  }
}

TEST(DramTimingCheckerStream, RandomCommandsAtEarliestPassAndOneCycleBeforeFail) {
  // earliest() against check() on random histories of every command kind (the refresh
  // obligation, a deadline rather than a gate, is off): the bus holes, auto-precharges, refresh
  // windows and pruned bursts must all agree.
  DramTiming t = stream_timing(4);
  t.tREFI = 0;
  DramTimingChecker chk(t);
  std::mt19937_64 rng(7);
  uint64_t last = 0, refused_before = 0;
  for (int i = 0; i < 200000; ++i) {
    DramCommand c;
    c.kind = K(rng() % kNumDramCommandKinds);
    c.rank = rng() % t.ranks, c.bank_group = rng() % t.bank_groups;
    c.bank = rng() % t.banks_per_group, c.row = rng() % 2;
    const uint64_t e = chk.earliest(c);
    if (e == ~0ull) continue;
    if (e > last) {
      DramTimingChecker before = chk;
      c.cycle = e - 1;
      ASSERT_FALSE(before.check(c).empty()) << i;
      ++refused_before;
    }
    c.cycle = e;  // not e + d: the bus gate has holes, later is not always free
    ASSERT_TRUE(chk.check(c).empty()) << i << ": " << chk.violations().front();
    last = c.cycle;
  }
  EXPECT_GT(refused_before, 10000u);
}

}  // namespace
}  // namespace gpusoc::mempart
