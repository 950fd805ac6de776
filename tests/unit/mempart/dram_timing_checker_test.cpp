// The independent DRAM timing checker, against hand computations. The timing below gives every
// field a distinct value, so a rule that reads the wrong field moves its gate and fails. Each
// gate is proven tight: the command at t - 1 is refused with the rule's name, at t accepted, and
// earliest() says t; t is written out from the fields here, not taken from the checker.
#include "models/mempart/dram_timing_checker.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusoc::mempart {
namespace {

using K = DramCommandKind;

DramTiming distinct_timing() {
  DramTiming t;
  t.name = "test";
  t.ranks = 2;
  t.bank_groups = 2;
  t.banks_per_group = 4;
  t.rows = 64;
  t.columns = 32;
  t.burst_length = 8;
  t.beats_per_clock = 2;  // B = 4
  t.CL = 29, t.CWL = 11;
  t.tRCD = 19, t.tRP = 17, t.tRAS = 41, t.tRC = 61;
  t.tCCD_S = 5, t.tCCD_L = 7;
  t.tRRD_S = 3, t.tRRD_L = 13;
  t.tFAW = 37;
  t.tWTR_S = 2, t.tWTR_L = 8;
  t.tRTW_extra = 1;
  t.tWR = 23, t.tRTP = 10;
  t.tRFC = 97, t.tRFCpb = 43, t.tREFI = 1000;
  return t;
}
const DramTiming T = distinct_timing();
const uint64_t B = 4;

DramCommand cmd(K kind, uint64_t cycle, uint32_t rank = 0, uint32_t bg = 0, uint32_t bank = 0,
                uint32_t row = 0) {
  DramCommand c;
  c.kind = kind;
  c.cycle = cycle;
  c.rank = rank;
  c.bank_group = bg;
  c.bank = bank;
  c.row = row;
  return c;
}

bool mentions(const std::vector<std::string>& msgs, const std::string& rule) {
  for (const std::string& m : msgs) {
    if (m.find(": " + rule + ":") != std::string::npos) return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& msgs) {
  std::string s;
  for (const std::string& m : msgs) s += m + "\n";
  return s;
}

// Feeds a legal prefix, then proves `c`'s gate at exactly t under `rule`.
void expect_gate(const std::vector<DramCommand>& prefix, DramCommand c, uint64_t t,
                 const std::string& rule, const DramTiming& timing = T) {
  DramTimingChecker chk(timing);
  for (const DramCommand& p : prefix) chk.check(p);
  ASSERT_TRUE(chk.violations().empty()) << joined(chk.violations());
  EXPECT_EQ(chk.earliest(c), t) << rule;
  DramTimingChecker early = chk;
  c.cycle = t - 1;
  const std::vector<std::string> refused = early.check(c);
  EXPECT_TRUE(mentions(refused, rule)) << rule << " not in:\n" << joined(refused);
  DramTimingChecker on_time = chk;
  c.cycle = t;
  EXPECT_TRUE(on_time.check(c).empty()) << joined(on_time.violations());
}

TEST(DramTimingChecker, MessageNamesRuleBothCommandsAndCycles) {
  DramTimingChecker chk(T);
  chk.check(cmd(K::Activate, 100, 0, 1, 2, 5));
  const auto msgs = chk.check(cmd(K::Read, 118, 0, 1, 2, 5));
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0],
            "RD rank 0 bg 1 bank 2 at cycle 118: tRCD: 18 cycles after ACT at 100 (needs 19)");
  EXPECT_EQ(chk.violations(), msgs);
}

TEST(DramTimingChecker, ActToActSameBankIsTRC) {
  // PRE as early as tRAS allows; tRC = 61 > tRAS + tRP = 58 then gates the ACT.
  expect_gate({cmd(K::Activate, 0), cmd(K::Precharge, T.tRAS)}, cmd(K::Activate, 0, 0, 0, 0, 1),
              0 + T.tRC, "tRC");
}

TEST(DramTimingChecker, PreToActSameBankIsTRP) {
  expect_gate({cmd(K::Activate, 0), cmd(K::Precharge, 50)}, cmd(K::Activate, 0, 0, 0, 0, 1),
              50 + T.tRP, "tRP");
}

TEST(DramTimingChecker, ActToActSameBankGroupIsTRRDL) {
  expect_gate({cmd(K::Activate, 0, 0, 0, 0)}, cmd(K::Activate, 0, 0, 0, 1), T.tRRD_L, "tRRD_L");
}

TEST(DramTimingChecker, ActToActOtherBankGroupIsTRRDS) {
  expect_gate({cmd(K::Activate, 0, 0, 0, 0)}, cmd(K::Activate, 0, 0, 1, 0), T.tRRD_S, "tRRD_S");
}

TEST(DramTimingChecker, TRRDIsBetweenDifferentBanksOnly) {
  // tRRD is ACT to ACT of another bank. With tRRD_L = tRC (the most a timing may have), reopening
  // bank 0 too early breaks tRC from its own ACT at 70 and is reported once, as tRC: the bank
  // group's rule leaves the very bank to the stricter bank rule.
  DramTiming t = T;
  t.tRRD_L = t.tRC;
  t.tFAW = t.tRC;  // at least tRRD_L
  ASSERT_EQ(t.problem(), "");
  const std::vector<DramCommand> prefix = {cmd(K::Activate, 0, 0, 0, 1),
                                           cmd(K::Activate, 70, 0, 0, 0),
                                           cmd(K::Precharge, 70 + t.tRAS, 0, 0, 0)};
  expect_gate(prefix, cmd(K::Activate, 0, 0, 0, 0, 1), 70 + t.tRC, "tRC", t);
  DramTimingChecker chk(t);
  for (const DramCommand& p : prefix) chk.check(p);
  EXPECT_EQ(chk.check(cmd(K::Activate, 70 + t.tRC - 1, 0, 0, 0, 1)),
            std::vector<std::string>{"ACT rank 0 bg 0 bank 0 at cycle 130: tRC: 60 cycles after "
                                     "ACT at 70 (needs 61)"});
}

TEST(DramTimingChecker, OneBankGroupUsesLongValues) {
  DramTiming one = T;
  one.bank_groups = 1;
  one.banks_per_group = 8;
  expect_gate({cmd(K::Activate, 0, 0, 0, 0)}, cmd(K::Activate, 0, 0, 0, 5), one.tRRD_L, "tRRD_L",
              one);
}

TEST(DramTimingChecker, FifthActInRankWaitsTFAW) {
  // Alternating groups: 0, +tRRD_S, then tRRD_L from the same group's previous ACT.
  const uint64_t a1 = T.tRRD_S, a2 = 0 + T.tRRD_L, a3 = a1 + T.tRRD_L;
  const uint64_t a4 = 0 + T.tFAW;  // > a3 + tRRD_S = 19 and > a2 + tRRD_L = 26
  ASSERT_GT(a4, a3 + T.tRRD_S);
  ASSERT_GT(a4, a2 + T.tRRD_L);
  expect_gate({cmd(K::Activate, 0, 0, 0, 0), cmd(K::Activate, a1, 0, 1, 0),
               cmd(K::Activate, a2, 0, 0, 1), cmd(K::Activate, a3, 0, 1, 1)},
              cmd(K::Activate, 0, 0, 0, 2), a4, "tFAW");
}

TEST(DramTimingChecker, FifthActToARepeatedBankWaitsTFAW) {
  // Five ACTs over four banks: bank 0 is closed and reopened; with tRC and tRP short, tFAW
  // (counting the first ACT to bank 0) is the gate.
  DramTiming t = T;
  t.tRC = 1 + t.tRAS + t.tRP, t.tFAW = 71;
  const std::vector<DramCommand> prefix = {
      cmd(K::Activate, 0, 0, 0, 0), cmd(K::Activate, 3, 0, 1, 0), cmd(K::Activate, 13, 0, 0, 1),
      cmd(K::Activate, 16, 0, 1, 1), cmd(K::Precharge, t.tRAS, 0, 0, 0)};
  // tRC allows 59, tRP 58, tRRD_L from bank 1 at 13: 26; tFAW from the ACT at 0: 71.
  expect_gate(prefix, cmd(K::Activate, 0, 0, 0, 0, 1), 0 + t.tFAW, "tFAW", t);
}

TEST(DramTimingChecker, RanksAreIndependentForActivates) {
  DramTimingChecker chk(T);
  for (uint32_t i = 0; i < 4; ++i) {
    for (uint32_t r = 0; r < 2; ++r) chk.check(cmd(K::Activate, 13 * i + r, r, 0, i));
  }
  EXPECT_TRUE(chk.violations().empty()) << joined(chk.violations());
}

TEST(DramTimingChecker, ActToColumnIsTRCD) {
  expect_gate({cmd(K::Activate, 100)}, cmd(K::Read, 0), 100 + T.tRCD, "tRCD");
  expect_gate({cmd(K::Activate, 100)}, cmd(K::WritePrecharge, 0), 100 + T.tRCD, "tRCD");
}

TEST(DramTimingChecker, ActToPreIsTRAS) {
  expect_gate({cmd(K::Activate, 0)}, cmd(K::Precharge, 0), T.tRAS, "tRAS");
}

TEST(DramTimingChecker, ReadToPreIsTRTP) {
  expect_gate({cmd(K::Activate, 0), cmd(K::Read, 40)}, cmd(K::Precharge, 0), 40 + T.tRTP, "tRTP");
}

TEST(DramTimingChecker, WriteToPreIsWriteRecoveryFromEndOfData) {
  const uint64_t w = T.tRCD;
  expect_gate({cmd(K::Activate, 0), cmd(K::Write, w)}, cmd(K::Precharge, 0), w + T.CWL + B + T.tWR,
              "tWR");
}

TEST(DramTimingChecker, PrechargeAllChecksEveryOpenBank) {
  // bg 1 bank 2 opened at 3 is the last to reach tRAS.
  DramTimingChecker chk(T);
  chk.check(cmd(K::Activate, 0, 0, 0, 0));
  chk.check(cmd(K::Activate, 3, 0, 1, 2));
  EXPECT_EQ(chk.earliest(cmd(K::PrechargeAll, 0)), 3 + T.tRAS);
  DramTimingChecker early = chk;
  const auto msgs = early.check(cmd(K::PrechargeAll, 3 + T.tRAS - 1));
  ASSERT_EQ(msgs.size(), 1u) << joined(msgs);
  EXPECT_EQ(msgs[0],
            "PREA rank 0 at cycle 43: tRAS: 40 cycles after ACT bg 1 bank 2 at 3 (needs 41)");
  EXPECT_TRUE(chk.check(cmd(K::PrechargeAll, 3 + T.tRAS)).empty());
  // A PREA's precharge gates the next ACT by tRP.
  expect_gate({cmd(K::Activate, 0, 0, 0, 0), cmd(K::PrechargeAll, 50)},
              cmd(K::Activate, 0, 0, 0, 0), 50 + T.tRP, "tRP");
}

TEST(DramTimingChecker, ReadToReadSameGroupIsTCCDL) {
  expect_gate({cmd(K::Activate, 0, 0, 0, 0), cmd(K::Activate, 13, 0, 0, 1), cmd(K::Read, 32)},
              cmd(K::Read, 0, 0, 0, 1), 32 + T.tCCD_L, "tCCD_L");
}

TEST(DramTimingChecker, ReadToReadOtherGroupIsTCCDS) {
  expect_gate({cmd(K::Activate, 0, 0, 0, 0), cmd(K::Activate, 3, 0, 1, 0), cmd(K::Read, 22)},
              cmd(K::Read, 0, 0, 1, 0), 22 + T.tCCD_S, "tCCD_S");
}

TEST(DramTimingChecker, WriteToWriteSameGroupIsTCCDL) {
  expect_gate({cmd(K::Activate, 0), cmd(K::Write, 19)}, cmd(K::Write, 0), 19 + T.tCCD_L, "tCCD_L");
}

TEST(DramTimingChecker, ColumnCommandsNeverCloserThanTheBurst) {
  DramTiming t = T;
  t.tCCD_S = 3;  // < B: the burst length gates
  expect_gate({cmd(K::Activate, 0, 0, 0, 0), cmd(K::Activate, 3, 0, 1, 0), cmd(K::Read, 22)},
              cmd(K::Read, 0, 0, 1, 0), 22 + B, "tCCD_S", t);
}

TEST(DramTimingChecker, WriteToReadSameGroupIsTWTRLFromEndOfData) {
  expect_gate({cmd(K::Activate, 0, 0, 0, 0), cmd(K::Activate, 13, 0, 0, 1), cmd(K::Write, 19)},
              cmd(K::Read, 0, 0, 0, 1), 19 + T.CWL + B + T.tWTR_L, "tWTR_L");
}

TEST(DramTimingChecker, WriteToReadOtherGroupIsTWTRSFromEndOfData) {
  expect_gate({cmd(K::Activate, 0, 0, 0, 0), cmd(K::Activate, 3, 0, 1, 0), cmd(K::Write, 19)},
              cmd(K::Read, 0, 0, 1, 0), 19 + T.CWL + B + T.tWTR_S, "tWTR_S");
}

TEST(DramTimingChecker, ReadToWriteIsBusTurnaround) {
  // Read data leaves the bus at 19 + CL + B; write data may arrive tRTW_extra later.
  expect_gate({cmd(K::Activate, 0), cmd(K::Read, 19)}, cmd(K::Write, 0),
              19 + T.CL + B + T.tRTW_extra - T.CWL, "tRTW");
}

TEST(DramTimingChecker, BurstsTakeTheDataBusInIssueOrderAcrossRanks) {
  // RD rank 0 at 19: data [48, 52). A WR of rank 1 issued after it (data at +11) may not slip its
  // data in before the read's: its data starts at 52 or later, so the WR at 41 or later.
  DramTimingChecker chk(T);
  chk.check(cmd(K::Activate, 0, 0));
  chk.check(cmd(K::Activate, 1, 1));
  chk.check(cmd(K::Read, 19, 0));
  for (uint64_t w : {20u, 33u, 40u}) {
    DramTimingChecker c2 = chk;
    EXPECT_TRUE(mentions(c2.check(cmd(K::Write, w, 1)), "data bus")) << w;
  }
  DramTimingChecker c2 = chk;
  EXPECT_EQ(c2.check(cmd(K::Write, 19 + T.CL + B - T.CWL, 1)), std::vector<std::string>{});
  EXPECT_EQ(chk.check(cmd(K::Write, 33, 1)),
            std::vector<std::string>{"WR rank 1 bg 0 bank 0 at cycle 33: data bus: 14 cycles "
                                     "after RD rank 0 bg 0 bank 0 at 19 (needs 22)"});
  // Reads of both ranks have the same latency: one burst apart.
  expect_gate({cmd(K::Activate, 0, 0), cmd(K::Activate, 1, 1), cmd(K::Read, 19, 0)},
              cmd(K::Read, 0, 1), 19 + B, "data bus");
  expect_gate({cmd(K::Activate, 0, 0), cmd(K::Activate, 15, 1), cmd(K::Read, 19, 0)},
              cmd(K::Write, 0, 1), 19 + T.CL + B - T.CWL, "data bus");
  // A read after a write of another rank: its data (at +29) follows the write's (at +11) at
  // any cycle after it, so only its own bank's tRCD gates it.
  expect_gate({cmd(K::Activate, 0, 0), cmd(K::Activate, 1, 1), cmd(K::Write, 19, 0)},
              cmd(K::Read, 0, 1), 1 + T.tRCD, "tRCD");
}

TEST(DramTimingChecker, AutoPrechargeHappensWhenPreWouldBeAllowed) {
  // RDA at 40: PRE would be allowed at max(0 + tRAS, 40 + tRTP) = 50; ACT at 50 + tRP (> tRC).
  const uint64_t rda_pre = std::max<uint64_t>(T.tRAS, 40 + T.tRTP);
  expect_gate({cmd(K::Activate, 0), cmd(K::ReadPrecharge, 40)}, cmd(K::Activate, 0, 0, 0, 0, 1),
              rda_pre + T.tRP, "tRP");
  // WRA at 19: PRE at max(tRAS, 19 + CWL + B + tWR) = 57.
  const uint64_t wra_pre = std::max<uint64_t>(T.tRAS, 19 + T.CWL + B + T.tWR);
  expect_gate({cmd(K::Activate, 0), cmd(K::WritePrecharge, 19)}, cmd(K::Activate, 0, 0, 0, 0, 1),
              wra_pre + T.tRP, "tRP");
  // An RDA early in the row waits for tRAS: PRE at 41, and tRC (61) then gates the ACT.
  expect_gate({cmd(K::Activate, 0), cmd(K::ReadPrecharge, 19)}, cmd(K::Activate, 0, 0, 0, 0, 1),
              T.tRC, "tRC");
  DramTimingChecker msg(T);
  msg.check(cmd(K::Activate, 0));
  msg.check(cmd(K::ReadPrecharge, 40));
  EXPECT_EQ(msg.check(cmd(K::Activate, 66, 0, 0, 0, 1)),
            std::vector<std::string>{"ACT rank 0 bg 0 bank 0 at cycle 66: tRP: 16 cycles after "
                                     "auto-precharge at 50 (RDA at 40) (needs 17)"});
  // The bank is closed for column commands; PRE to it is a no-op.
  DramTimingChecker chk(T);
  chk.check(cmd(K::Activate, 0));
  chk.check(cmd(K::ReadPrecharge, 40));
  EXPECT_TRUE(chk.check(cmd(K::Precharge, 41)).empty());
  EXPECT_EQ(chk.earliest(cmd(K::Read, 0)), ~0ull);
  EXPECT_FALSE(chk.check(cmd(K::Read, 60)).empty());
}

TEST(DramTimingChecker, RefreshNeedsBanksPrechargedAndTRCSinceTheirActivate) {
  // T.tRC (61) exceeds T.tRAS + T.tRP (60): a PRE at tRAS leaves tRC the later gate; a later PRE
  // leaves tRP. (JEDEC: tRC is ACT to ACT or REF.)
  ASSERT_GT(T.tRC, T.tRAS + T.tRP);
  expect_gate({cmd(K::Activate, 0), cmd(K::Precharge, T.tRAS)}, cmd(K::Refresh, 0), T.tRC, "tRC");
  expect_gate({cmd(K::Activate, 0), cmd(K::Precharge, T.tRAS + 10)}, cmd(K::Refresh, 0),
              T.tRAS + 10 + T.tRP, "tRP");
  expect_gate({cmd(K::Activate, 0), cmd(K::ReadPrecharge, 40)}, cmd(K::Refresh, 0), 50 + T.tRP,
              "tRP");
  expect_gate({cmd(K::Activate, 0, 0, 1, 3), cmd(K::Precharge, T.tRAS, 0, 1, 3)},
              cmd(K::RefreshBank, 0, 0, 1, 3), T.tRC, "tRC");
  expect_gate({cmd(K::Activate, 0, 0, 1, 3), cmd(K::Precharge, T.tRAS + 10, 0, 1, 3)},
              cmd(K::RefreshBank, 0, 0, 1, 3), T.tRAS + 10 + T.tRP, "tRP");
}

TEST(DramTimingChecker, RefreshToActIsTRFC) {
  expect_gate({cmd(K::Refresh, 10)}, cmd(K::Activate, 0, 0, 1, 3), 10 + T.tRFC, "tRFC");
  // The other rank is not refreshing.
  DramTimingChecker chk(T);
  chk.check(cmd(K::Refresh, 10, 0));
  EXPECT_TRUE(chk.check(cmd(K::Activate, 11, 1)).empty());
}

TEST(DramTimingChecker, PerBankRefreshToActIsTRFCpb) {
  expect_gate({cmd(K::RefreshBank, 10, 0, 1, 3)}, cmd(K::Activate, 0, 0, 1, 3), 10 + T.tRFCpb,
              "tRFCpb");
  DramTimingChecker chk(T);
  chk.check(cmd(K::RefreshBank, 10, 0, 1, 3));
  EXPECT_TRUE(chk.check(cmd(K::Activate, 11, 0, 1, 2)).empty()) << "other banks keep working";
}

TEST(DramTimingChecker, AnyCommandToARefreshingBankIsRefused) {
  const std::vector<DramCommand> during_ref = {cmd(K::Precharge, 50), cmd(K::PrechargeAll, 50),
                                               cmd(K::Refresh, 50),   cmd(K::RefreshBank, 50),
                                               cmd(K::Read, 50),      cmd(K::Write, 50)};
  for (const DramCommand& c : during_ref) {
    DramTimingChecker chk(T);
    chk.check(cmd(K::Refresh, 10));
    EXPECT_TRUE(mentions(chk.check(c), "tRFC")) << dram_command_name(c.kind);
  }
  for (const DramCommand& c : during_ref) {
    DramTimingChecker chk(T);
    chk.check(cmd(K::RefreshBank, 10));
    EXPECT_TRUE(mentions(chk.check(c), "tRFCpb")) << dram_command_name(c.kind);
  }
  expect_gate({cmd(K::Refresh, 10)}, cmd(K::Refresh, 0), 10 + T.tRFC, "tRFC");
  expect_gate({cmd(K::RefreshBank, 10)}, cmd(K::Precharge, 0), 10 + T.tRFCpb, "tRFCpb");
}

TEST(DramTimingChecker, StateErrorsAreReportedAndNeverAccepted) {
  struct Case {
    std::vector<DramCommand> prefix;
    DramCommand c;
    const char* text;
  };
  const std::vector<Case> cases = {
      {{cmd(K::Activate, 0, 0, 0, 0, 4)}, cmd(K::Activate, 500, 0, 0, 0, 4), "ACT to an open bank"},
      {{}, cmd(K::Read, 500), "RD to a closed bank"},
      {{}, cmd(K::WritePrecharge, 500), "WRA to a closed bank"},
      {{cmd(K::Activate, 0, 0, 0, 0, 4)},
       cmd(K::Read, 500, 0, 0, 0, 5),
       "RD to row 5 but row 4 is open"},
      {{cmd(K::Activate, 0, 0, 0, 0, 4)},
       cmd(K::Write, 500, 0, 0, 0, 5),
       "WR to row 5 but row 4 is open"},
      {{cmd(K::Activate, 0, 0, 1, 2, 4)}, cmd(K::Refresh, 500), "REF with bg 1 bank 2 open"},
      {{cmd(K::Activate, 0, 0, 1, 2, 4)},
       cmd(K::RefreshBank, 500, 0, 1, 2),
       "REFpb to an open bank"},
  };
  for (const Case& k : cases) {
    DramTimingChecker chk(T);
    for (const DramCommand& p : k.prefix) chk.check(p);
    EXPECT_EQ(chk.earliest(k.c), ~0ull) << k.text;
    const auto msgs = chk.check(k.c);
    ASSERT_EQ(msgs.size(), 1u) << joined(msgs);
    EXPECT_NE(msgs[0].find(k.text), std::string::npos) << msgs[0];
  }
  // A device without per-bank refresh (tRFCpb 0) takes no REFpb at all.
  DramTiming no_refpb = T;
  no_refpb.tRFCpb = 0;
  DramTimingChecker chk(no_refpb);
  EXPECT_EQ(chk.earliest(cmd(K::RefreshBank, 500, 0, 1, 2)), ~0ull);
  EXPECT_EQ(chk.check(cmd(K::RefreshBank, 500, 0, 1, 2)),
            std::vector<std::string>{"REFpb rank 0 bg 1 bank 2 at cycle 500: REFpb, but the "
                                     "device has no per-bank refresh (tRFCpb 0)"});
}

TEST(DramTimingChecker, PrechargeOfAClosedBankIsANoOp) {
  DramTimingChecker chk(T);
  EXPECT_TRUE(chk.check(cmd(K::Precharge, 0)).empty());
  EXPECT_TRUE(chk.check(cmd(K::PrechargeAll, 1)).empty());
  EXPECT_TRUE(chk.check(cmd(K::Activate, 2)).empty()) << "a no-op PRE starts no tRP";
}

TEST(DramTimingChecker, CommandsOutOfCycleOrderAreReported) {
  DramTimingChecker chk(T);
  chk.check(cmd(K::Activate, 100, 0, 0, 0));
  const auto msgs = chk.check(cmd(K::Activate, 99, 1, 0, 0));
  ASSERT_EQ(msgs.size(), 1u) << joined(msgs);
  EXPECT_EQ(msgs[0],
            "ACT rank 1 bg 0 bank 0 at cycle 99: cycle order: issued after ACT rank 0 at 100");
  EXPECT_EQ(chk.earliest(cmd(K::Precharge, 0, 1, 1, 0)), 100u);
}

TEST(DramTimingChecker, AddressesOutsideTheChannelAreReported) {
  DramTimingChecker chk(T);
  EXPECT_EQ(chk.check(cmd(K::Activate, 0, 2))[0],
            "ACT rank 2 bg 0 bank 0 at cycle 0: no rank 2 (the channel has 2)");
  EXPECT_NE(chk.check(cmd(K::Activate, 0, 0, 2))[0].find("no bank group 2"), std::string::npos);
  EXPECT_NE(chk.check(cmd(K::Activate, 0, 0, 0, 4))[0].find("no bank 4"), std::string::npos);
  EXPECT_NE(chk.check(cmd(K::Activate, 0, 0, 0, 0, 64))[0].find("no row 64"), std::string::npos);
  EXPECT_EQ(chk.earliest(cmd(K::Activate, 0, 0, 0, 0, 64)), ~0ull);
}

TEST(DramTimingChecker, RefreshObligationAllowsEightPostponed) {
  // No REF at all: a command at 9 * tREFI passes, one a cycle later is reported, once.
  DramTimingChecker chk(T);
  EXPECT_TRUE(chk.check(cmd(K::Precharge, 9 * T.tREFI)).empty());
  const auto msgs = chk.check(cmd(K::Precharge, 9 * T.tREFI + 1));
  ASSERT_EQ(msgs.size(), 2u) << joined(msgs);  // both ranks
  EXPECT_EQ(msgs[0],
            "PRE rank 0 bg 0 bank 0 at cycle 9001: tREFI: rank 0 bg 0 bank 0 has 9 "
            "refreshes postponed (at most 8, tREFI 1000); never refreshed");
  EXPECT_TRUE(mentions(msgs, "tREFI"));
  EXPECT_TRUE(chk.check(cmd(K::Precharge, 9 * T.tREFI + 2)).empty()) << "reported once";

  // REF every 9 tREFI is one in 9, not one per tREFI on average: the second one is late.
  DramTimingChecker sparse(T);
  sparse.check(cmd(K::Refresh, 9 * T.tREFI, 0));
  sparse.check(cmd(K::Refresh, 9 * T.tREFI, 1));
  EXPECT_TRUE(sparse.check(cmd(K::Precharge, 10 * T.tREFI)).empty());
  EXPECT_TRUE(mentions(sparse.check(cmd(K::Precharge, 10 * T.tREFI + 1)), "tREFI"));
}

TEST(DramTimingChecker, RefreshesPulledInCountAtMostEight) {
  DramTiming one_rank = T;
  one_rank.ranks = 1;
  DramTimingChecker chk(one_rank);
  for (uint64_t i = 0; i < 10; ++i) chk.check(cmd(K::Refresh, i * T.tRFC));
  ASSERT_TRUE(chk.violations().empty()) << joined(chk.violations());
  // Credit 8 (not 10) in the first interval: the next is due by (8 + 9) * tREFI.
  EXPECT_TRUE(chk.check(cmd(K::Precharge, 17 * T.tREFI)).empty());
  EXPECT_TRUE(mentions(chk.check(cmd(K::Precharge, 17 * T.tREFI + 1)), "tREFI"));
}

TEST(DramTimingChecker, PerBankRefreshMustCoverEveryBank) {
  DramTiming one_rank = T;
  one_rank.ranks = 1;
  // Round-robin REFpb over the 8 banks, each bank once per tREFI: no violation.
  DramTimingChecker fair(one_rank);
  for (uint64_t i = 0; i < 8 * 40; ++i) {
    fair.check(cmd(K::RefreshBank, (i + 1) * T.tREFI / 8, 0, (i / 4) % 2, i % 4));
  }
  EXPECT_TRUE(fair.violations().empty()) << joined(fair.violations());
  // Always the same bank: the others starve.
  DramTimingChecker unfair(one_rank);
  for (uint64_t i = 1; i <= 9; ++i) unfair.check(cmd(K::RefreshBank, i * T.tREFI));
  EXPECT_TRUE(unfair.violations().empty());
  const auto msgs = unfair.check(cmd(K::RefreshBank, 9 * T.tREFI + 100));
  ASSERT_EQ(msgs.size(), 1u) << joined(msgs);
  EXPECT_NE(msgs[0].find("tREFI: rank 0 bg 0 bank 1"), std::string::npos) << msgs[0];
}

}  // namespace
}  // namespace gpusoc::mempart
