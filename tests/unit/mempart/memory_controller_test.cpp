// The memory controller's policies, each on a hand-built request pattern with exact outcomes:
// event-driven timing, bank preparation, FR-FCFS against FCFS, the starvation cap, write
// draining between watermarks, page policies, refresh, and configuration errors. The checker
// observes every command of every test.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/common/error.h"
#include "tests/unit/mempart/controller_harness.h"

namespace gpusoc::mempart {
namespace {

using K = DramCommandKind;

struct Cmd {
  K kind;
  uint32_t bank_group, bank;
  uint64_t cycle;
  bool operator==(const Cmd& o) const {
    return kind == o.kind && bank_group == o.bank_group && bank == o.bank && cycle == o.cycle;
  }
};
std::ostream& operator<<(std::ostream& os, const Cmd& c) {
  return os << dram_command_name(c.kind) << " bg" << c.bank_group << " b" << c.bank << " @"
            << c.cycle;
}
std::vector<Cmd> cmds(const ControllerHarness& h) {
  std::vector<Cmd> v;
  for (const DramCommand& c : h.commands) v.push_back(Cmd{c.kind, c.bank_group, c.bank, c.cycle});
  return v;
}
std::vector<uint64_t> completion_ids(const ControllerHarness& h) {
  std::vector<uint64_t> ids;
  for (const MemCompletion& c : h.done) ids.push_back(c.id);
  return ids;
}

TEST(MemoryController, IdleReadTakesTrcdClBurstAndEachEventIsOneStep) {
  for (const std::string& preset : dram_preset_names()) {
    SCOPED_TRACE(preset);
    const DramTiming& t = dram_preset(preset);
    ControllerHarness h(t, ControllerConfig{});
    h.enqueue(h.request(false, 0, 0, 3));
    const uint64_t data = t.tRCD + t.CL + t.burst_cycles();
    // ACT, RD, the data, then the first refresh closes the open row (PREA) and refreshes after
    // tRP; the second finds every bank closed. Nothing in between costs a step.
    const std::vector<uint64_t> events{0, t.tRCD, data, t.tREFI, t.tREFI + t.tRP, 2 * t.tREFI};
    for (uint64_t e : events) {
      EXPECT_EQ(h.mc.next_event(), e);
      ASSERT_TRUE(h.step());
    }
    ASSERT_EQ(h.done.size(), 1u);
    EXPECT_EQ(h.done[0].cycle, data);
    EXPECT_EQ(h.mc.stats().read_latency_cycles.value(), data);
    const std::vector<Cmd> want{{K::Activate, 0, 0, 0},
                                {K::Read, 0, 0, t.tRCD},
                                {K::PrechargeAll, 0, 0, t.tREFI},
                                {K::Refresh, 0, 0, t.tREFI + t.tRP},
                                {K::Refresh, 0, 0, 2 * t.tREFI}};
    EXPECT_EQ(cmds(h), want);
    EXPECT_EQ(h.mc.stats().refreshes.value(), 2u);
    h.expect_no_violations();
  }
}

TEST(MemoryController, PreparesAnotherBankWhileTheFirstWaitsForTrcd) {
  const DramTiming& t = dram_preset("GDDR5");  // bank groups 0 and 1: tRRD_S, tCCD_S
  ControllerHarness h(t, ControllerConfig{});
  h.enqueue(h.request(false, 0, 0, 1));
  h.enqueue(h.request(false, 1, 0, 2));
  h.run_until_done(2);
  const uint64_t rd1 = std::max<uint64_t>(t.tRRD_S + t.tRCD, t.tRCD + t.tCCD_S);
  const std::vector<Cmd> want{{K::Activate, 0, 0, 0},
                              {K::Activate, 1, 0, t.tRRD_S},
                              {K::Read, 0, 0, t.tRCD},
                              {K::Read, 1, 0, rd1}};
  EXPECT_EQ(cmds(h), want);
  h.expect_no_violations();
}

// Two rows of one bank, interleaved: A0 B0 A1 B1 ... (16 each), all queued at cycle 0.
ControllerHarness& interleave_two_rows(ControllerHarness& h) {
  for (uint32_t i = 0; i < 16; ++i) {
    h.enqueue(h.request(false, 0, 0, 10));
    h.enqueue(h.request(false, 0, 0, 20));
  }
  h.run_until_done(32);
  h.expect_no_violations();
  return h;
}

TEST(MemoryController, FrFcfsServesRowHitsFirstFcfsServesInOrder) {
  ControllerConfig config;
  config.scheduler = "fcfs";
  ControllerHarness fcfs(dram_preset("GDDR5"), config);
  interleave_two_rows(fcfs);
  EXPECT_EQ(fcfs.mc.stats().row_hits.value(), 0u);
  EXPECT_EQ(fcfs.mc.stats().row_misses.value(), 1u);  // the first ACT
  EXPECT_EQ(fcfs.mc.stats().row_conflicts.value(), 31u);
  std::vector<uint64_t> in_order(32);
  for (uint64_t i = 0; i < 32; ++i) in_order[i] = i;
  EXPECT_EQ(completion_ids(fcfs), in_order);

  config.scheduler = "frfcfs";  // cap 16: B0 is passed over 15 times only
  ControllerHarness fr(dram_preset("GDDR5"), config);
  interleave_two_rows(fr);
  EXPECT_EQ(fr.mc.stats().row_hits.value(), 30u);
  EXPECT_EQ(fr.mc.stats().row_misses.value(), 1u);
  EXPECT_EQ(fr.mc.stats().row_conflicts.value(), 1u);
  std::vector<uint64_t> rows_in_turn;
  for (uint64_t i = 0; i < 32; i += 2) rows_in_turn.push_back(i);  // row 10: even ids
  for (uint64_t i = 1; i < 32; i += 2) rows_in_turn.push_back(i);
  EXPECT_EQ(completion_ids(fr), rows_in_turn);
}

TEST(MemoryController, StarvationCapServesAnOldRowMissAfterExactlyCapBypasses) {
  // A0 (id 0), then B0 (id 1, another row of the bank), then A1..A10 (ids 2..11).
  for (uint32_t cap : {4u, 16u}) {
    SCOPED_TRACE(cap);
    ControllerConfig config;
    config.scheduler.settings.set("memory.controller.starvation_cap", cap);
    ControllerHarness h(dram_preset("HBM2"), config);
    h.enqueue(h.request(false, 0, 0, 10));
    h.enqueue(h.request(false, 0, 0, 20));
    for (int i = 0; i < 10; ++i) h.enqueue(h.request(false, 0, 0, 10));
    h.run_until_done(12);
    h.expect_no_violations();
    // A0 is a miss and bypasses nothing; each of A1.. passes B0 once.
    std::vector<uint64_t> want{0};
    for (uint64_t id = 2; id < 12; ++id) {
      if (id - 2 == cap) want.push_back(1);
      want.push_back(id);
    }
    if (cap >= 10) want.push_back(1);
    EXPECT_EQ(completion_ids(h), want);
    EXPECT_EQ(h.mc.stats().row_conflicts.value(), cap >= 10 ? 1u : 2u);  // B0, and A5 after it
  }
}

// BLISS (Subramanian et al., ICCD 2014): requester A streams row hits, requester B waits with
// one row miss to the same bank. Under frfcfs B waits for every hit (fewer than the starvation
// cap); under bliss A is blacklisted once served more than `threshold` requests in a row, and B
// goes next.
TEST(MemoryController, BlissBlacklistsARequesterServedManyInARow) {
  for (const uint32_t threshold : {0u, 2u, 4u}) {  // 0: frfcfs
    SCOPED_TRACE(threshold);
    ControllerConfig config;
    if (threshold != 0) {
      config.scheduler = "bliss";
      config.scheduler.settings.set("memory.controller.bliss.threshold", threshold);
    }
    ControllerHarness h(dram_preset("HBM2"), config);
    MemRequest a0 = h.request(false, 0, 0, 10), b = h.request(false, 0, 0, 20);
    a0.source = 1, b.source = 2;
    h.enqueue(a0);
    h.enqueue(b);
    for (int i = 0; i < 10; ++i) {
      MemRequest a = h.request(false, 0, 0, 10);
      a.source = 1;
      h.enqueue(a);
    }
    h.run_until_done(12);
    h.expect_no_violations();
    // A0, then A1.. (ids 2..11) in order; B (id 1) after threshold + 1 of A's, or last.
    std::vector<uint64_t> want{0};
    for (uint64_t id = 2; id < 12; ++id) {
      if (threshold != 0 && id - 1 == threshold + 1) want.push_back(1);
      want.push_back(id);
    }
    if (threshold == 0) want.push_back(1);
    EXPECT_EQ(completion_ids(h), want);
  }
}

// With a single requester, bliss blacklists it after `threshold` requests, but then all of its
// requests share the blacklisted classes, which keep row hits first: the order of frfcfs (whose
// starvation cap six requests per bank never reach).
TEST(MemoryController, BlissWithOneRequesterServesRowHitsFirstAsFrfcfsDoes) {
  std::vector<uint64_t> orders[2];
  for (int i = 0; i < 2; ++i) {
    ControllerConfig config;
    config.scheduler = i == 0 ? "frfcfs" : "bliss";
    ControllerHarness h(dram_preset("HBM2"), config);
    for (uint32_t k = 0; k < 24; ++k) h.enqueue(h.request(false, 0, k % 4, 10 + k % 3));
    h.run_until_done(24);
    h.expect_no_violations();
    orders[i] = completion_ids(h);
  }
  EXPECT_EQ(orders[1], orders[0]);
  EXPECT_NE(orders[0],
            (std::vector<uint64_t>{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                   13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}));  // not plain fcfs
}

// `reads` reads and `writes` writes queued at cycle 0 over eight banks; the column commands in
// order, as a run-length string ("6W 12R 2W").
std::string drain_pattern(uint32_t reads, uint32_t writes) {
  ControllerConfig config;
  config.write_high = 8, config.write_low = 2;
  ControllerHarness h(dram_preset("GDDR5"), config);
  for (uint32_t i = 0; i < reads; ++i) h.enqueue(h.request(false, i % 4, i / 4 % 2, 1));
  for (uint32_t i = 0; i < writes; ++i) h.enqueue(h.request(true, i % 4, 2 + i / 4 % 2, 1));
  h.run_until_done(reads + writes);
  h.expect_no_violations();
  std::string runs;
  int n = 0;
  char last = 0;
  for (K k : h.column_kinds()) {
    const char c = k == K::Read ? 'R' : 'W';
    if (c != last && n) runs += (runs.empty() ? "" : " ") + std::to_string(n) + last, n = 0;
    last = c, ++n;
  }
  runs += (runs.empty() ? "" : " ") + std::to_string(n) + last;
  EXPECT_EQ(h.mc.stats().read_write_turnarounds.value(),
            uint64_t(std::count(runs.begin(), runs.end(), ' ')));
  return runs;
}

TEST(MemoryController, WritesBelowHighWaitForReadsAndADrainStopsAtLow) {
  EXPECT_EQ(drain_pattern(12, 7), "12R 7W");     // below write_high: reads first, all of them
  EXPECT_EQ(drain_pattern(12, 8), "6W 12R 2W");  // at write_high: drain down to write_low
  EXPECT_EQ(drain_pattern(0, 3), "3W");          // no reads: writes go
}

TEST(MemoryController, ClosedPageAutoPrechargesAfterTheLastQueuedHitOpenPageKeepsRows) {
  for (const char* page : {"closed", "open"}) {
    SCOPED_TRACE(page);
    const bool closed = std::string(page) == "closed";
    ControllerConfig config;
    config.page_policy = page;
    ControllerHarness h(dram_preset("DDR4"), config);
    for (int i = 0; i < 3; ++i) h.enqueue(h.request(false, 0, 0, 5, 8 * i));
    h.enqueue(h.request(false, 1, 0, 7));
    h.enqueue(h.request(true, 0, 1, 2));
    h.run_until_done(5);
    h.expect_no_violations();
    // Per bank, the column commands in order (the banks interleave).
    std::map<std::pair<uint32_t, uint32_t>, std::vector<K>> columns;
    for (const Cmd& c : cmds(h)) {
      if (c.kind != K::Activate) columns[{c.bank_group, c.bank}].push_back(c.kind);
    }
    const K rda = closed ? K::ReadPrecharge : K::Read, wra = closed ? K::WritePrecharge : K::Write;
    EXPECT_EQ(columns[std::pair(0u, 0u)], (std::vector<K>{K::Read, K::Read, rda}));
    EXPECT_EQ(columns[std::pair(1u, 0u)], std::vector<K>{rda});
    EXPECT_EQ(columns[std::pair(0u, 1u)], std::vector<K>{wra});
    for (auto [bg, bank] : {std::pair{0u, 0u}, {1u, 0u}, {0u, 1u}}) {
      EXPECT_EQ(h.mc.channel().is_open(0, bg, bank), !closed) << bg << "/" << bank;
    }
    EXPECT_EQ(h.mc.stats().precharges.value(), closed ? 3u : 0u);
  }
}

TEST(MemoryController, PerBankRefreshGoesRoundRobinEveryTrefiOverBanks) {
  const DramTiming& t = dram_preset("HBM2");
  ControllerConfig config;
  config.refresh = "per_bank";
  ControllerHarness h(t, config);
  const uint64_t interval = t.tREFI / t.banks();
  for (uint32_t k = 1; k <= 2 * t.banks(); ++k) ASSERT_TRUE(h.step());
  ASSERT_EQ(h.commands.size(), 2 * t.banks());
  for (uint32_t k = 0; k < 2 * t.banks(); ++k) {
    const uint32_t bank = k % t.banks();
    EXPECT_EQ(cmds(h)[k], (Cmd{K::RefreshBank, bank / t.banks_per_group, bank % t.banks_per_group,
                               (k + 1) * interval}));
  }
  h.expect_no_violations();
}

TEST(MemoryController, ProblemsNameTheKey) {
  const auto problem = [](auto edit) {
    ControllerConfig c;
    edit(c);
    return c.problem("mc");
  };
  EXPECT_EQ(problem([](ControllerConfig&) {}), "");
  EXPECT_EQ(problem([](ControllerConfig& c) { c.scheduler = "lifo"; }),
            "mc.scheduler: unknown scheduler 'lifo' (known: fcfs, frfcfs, bliss)");
  EXPECT_EQ(problem([](ControllerConfig& c) { c.page_policy = "lazy"; }),
            "mc.page_policy: unknown page policy 'lazy' (known: open, closed)");
  EXPECT_EQ(problem([](ControllerConfig& c) { c.write_high = 40; }),
            "mc.write_high must be in 1..mc.write_queue (32) (it is 40)");
  EXPECT_EQ(problem([](ControllerConfig& c) { c.write_low = 24; }),
            "mc.write_low must be below mc.write_high (24) (it is 24)");
  EXPECT_EQ(problem([](ControllerConfig& c) { c.read_queue = 0; }),
            "mc.read_queue must be at least 1");
  EXPECT_THROW(ControllerConfig().scheduler.settings.set("memory.controller.starvation_cap", 0),
               ConfigError);
  ControllerConfig pb;
  pb.refresh = "per_bank";
  try {
    StatGroup stats;
    MemoryController mc(dram_preset("GDDR5"), pb, stats, "mc", "memory.mc");
    FAIL() << "GDDR5 has no per-bank refresh";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "memory.mc.refresh = per_bank: " + dram_preset("GDDR5").name +
                                         " has no per-bank refresh (tRFCpb 0)");
  }
  ControllerConfig bad;
  bad.scheduler = "x";
  StatGroup stats;
  EXPECT_THROW(MemoryController(dram_preset("GDDR5"), bad, stats, "mc"), ConfigError);
  EXPECT_THROW(dram_schedulers().make("x"), ConfigError);
  EXPECT_STREQ(dram_schedulers().make("fcfs")->name(), "fcfs");
  EXPECT_EQ(page_policies().names(), (std::vector<std::string>{"open", "closed"}));
  EXPECT_TRUE(page_policies().make("closed")->closes_idle_rows());
  EXPECT_FALSE(page_policies().make("open")->closes_idle_rows());
  // Planning packs a bank's index into its candidates' keys: at most 65536 banks per channel.
  DramTiming huge = dram_preset("DDR4");
  huge.ranks = 64;
  huge.bank_groups = 64;
  huge.banks_per_group = 32;
  ASSERT_EQ(huge.problem(), "");
  try {
    MemoryController mc(huge, ControllerConfig{}, stats, "mc", "memory.mc");
    FAIL() << "131072 banks accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "memory.mc: " + huge.name +
                                         " has 131072 banks per channel, more than the 65536 a "
                                         "controller serves");
  }
}

TEST(MemoryController, RejectsRequestsOutsideTheDeviceAndBeyondTheQueue) {
  ControllerConfig config;
  config.read_queue = 1;
  ControllerHarness h(dram_preset("GDDR3"), config);
  EXPECT_THROW(h.mc.enqueue(h.request(false, 1, 0, 0)), ModelError);  // GDDR3: one bank group
  h.mc.enqueue(h.request(false, 0, 0, 0));
  EXPECT_FALSE(h.mc.can_accept(false));
  EXPECT_THROW(h.mc.enqueue(h.request(false, 0, 0, 0)), ModelError);
}

}  // namespace
}  // namespace gpusoc::mempart
