// The channel model and the independent checker, two implementations of the rule table of
// dram_timing_rules.h (forward and backward), against each other: random traffic that the channel
// schedules (every command at the earliest cycle it allows) must pass the checker with no
// violation, for every preset, and the checker must agree that no command could have gone a cycle
// sooner.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "models/mempart/dram_channel.h"
#include "models/mempart/dram_timing_checker.h"

namespace gpusoc::mempart {
namespace {

using K = DramCommandKind;

struct Agreement {
  uint64_t commands = 0;
  uint64_t checker_earlier = 0;  // commands the checker would have allowed sooner
};

// `n` commands to random banks: column commands to open rows, precharges, activates, and every
// so often a refresh of the whole rank (after closing it) or, where the device has per-bank
// refresh, of one bank.
Agreement run_random_traffic(const DramTiming& t, uint32_t seed, int n) {
  DramChannel channel(t);
  DramTimingChecker checker(t);
  std::mt19937 rng(seed);
  Agreement a;
  uint64_t now = 0;
  auto issue = [&](DramCommand c) {
    const uint64_t at = channel.earliest(c.kind, c.rank, c.bank_group, c.bank, now);
    if (at == DramChannel::kNever) return;
    c.cycle = at;
    const uint64_t checker_at = checker.earliest(c);
    EXPECT_LE(checker_at, at) << dram_command_name(c.kind) << " at " << at;
    a.checker_earlier += checker_at < at;
    const auto problems = checker.check(c);
    EXPECT_TRUE(problems.empty()) << t.name << ": " << problems.front();
    channel.issue(c);
    now = at;
    ++a.commands;
  };
  for (int i = 0; i < n; ++i) {
    DramCommand c;
    c.rank = rng() % t.ranks;
    c.bank_group = rng() % t.bank_groups;
    c.bank = rng() % t.banks_per_group;
    const uint32_t dice = rng() % 100;
    if (dice == 0) {  // refresh: close the rank, then REF
      c.kind = K::PrechargeAll;
      issue(c);
      c.kind = K::Refresh;
      issue(c);
      continue;
    }
    if (dice == 1 && t.tRFCpb > 0) {  // per-bank refresh: close the bank, then REFpb
      c.kind = K::Precharge;
      issue(c);
      c.kind = K::RefreshBank;
      issue(c);
      continue;
    }
    if (channel.is_open(c.rank, c.bank_group, c.bank)) {
      c.row = channel.open_row(c.rank, c.bank_group, c.bank);
      c.column = rng() % t.columns;
      static constexpr K kColumn[] = {K::Read,  K::Read,          K::Read,           K::Write,
                                      K::Write, K::ReadPrecharge, K::WritePrecharge, K::Precharge};
      c.kind = kColumn[rng() % 8];
    } else {
      c.kind = K::Activate;
      c.row = rng() % t.rows;
    }
    issue(c);
  }
  EXPECT_TRUE(checker.violations().empty());
  return a;
}

TEST(DramAgreement, ChannelScheduledTrafficPassesTheIndependentCheckerForEveryPreset) {
  for (const std::string& name : dram_preset_names()) {
    const Agreement a = run_random_traffic(dram_preset(name), 7, 50000);
    EXPECT_GT(a.commands, 40000u) << name;
    // One table: the two must agree to the cycle, several ranks included.
    EXPECT_EQ(a.checker_earlier, 0u) << name;
  }
}

}  // namespace
}  // namespace gpusoc::mempart
