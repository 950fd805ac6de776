// DramChannel against the rules of dram_timing_rules.h, each gate proved tight: earliest() is the
// analytic cycle from the timing fields, issue() refuses the command one cycle earlier and takes
// it then. Most cases use a hand-made timing whose values are distinct primes, so that a rule
// reading the wrong field, or adding the wrong terms, gives a different number.
#include <algorithm>
#include <memory>

#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/mempart/dram_channel.h"

namespace gpusoc::mempart {
namespace {

using K = DramCommandKind;

DramTiming prime_timing() {
  DramTiming t;
  t.name = "prime test timing";
  t.tck_ns = 1.0;
  t.ranks = 2;
  t.bank_groups = 2;
  t.banks_per_group = 4;
  t.rows = 1024;
  t.columns = 64;
  t.bus_bits = 32;
  t.burst_length = 8;
  t.beats_per_clock = 2;  // B = 4
  t.CL = 19, t.CWL = 7;
  t.tRCD = 11, t.tRP = 13, t.tRAS = 29, t.tRC = 47;  // tRC > tRAS + tRP = 42
  t.tCCD_S = 5, t.tCCD_L = 17;
  t.tRRD_S = 2, t.tRRD_L = 3;
  t.tFAW = 37;
  t.tWTR_S = 23, t.tWTR_L = 31;
  t.tRTW_extra = 41;
  t.tWR = 43, t.tRTP = 53;
  t.tRFC = 97, t.tRFCpb = 61, t.tREFI = 997;
  return t;
}
constexpr uint64_t B = 4;  // burst cycles of prime_timing()

DramCommand cmd(K kind, uint64_t cycle, uint32_t bank_group = 0, uint32_t bank = 0,
                uint32_t rank = 0) {
  DramCommand c;
  c.kind = kind;
  c.rank = rank;
  c.bank_group = bank_group;
  c.bank = bank;
  c.row = 5;
  c.cycle = cycle;
  return c;
}

uint64_t earliest(const DramChannel& ch, const DramCommand& c, uint64_t now = 0) {
  return ch.earliest(c.kind, c.rank, c.bank_group, c.bank, now);
}

// The gate is tight: earliest() says `expected`, issue() refuses expected - 1 and takes expected.
void expect_tight(DramChannel& ch, DramCommand c, uint64_t expected) {
  ASSERT_GT(expected, 0u);
  EXPECT_EQ(earliest(ch, c), expected) << dram_command_name(c.kind);
  EXPECT_EQ(earliest(ch, c, expected - 1), expected) << dram_command_name(c.kind);
  c.cycle = expected - 1;
  EXPECT_THROW(ch.issue(c), ModelError) << dram_command_name(c.kind) << " at " << c.cycle;
  c.cycle = expected;
  EXPECT_NO_THROW(ch.issue(c)) << dram_command_name(c.kind) << " at " << c.cycle;
}

// Planning's branch-free shortcut agrees with bank_ready() for the command an access needs next:
// ACT when the bank is closed, PRE when another row is open, RD or WR on a hit; through a
// sequence of states with every constraint of the bank moved (a refresh of it included).
TEST(DramChannel, NextCommandReadyIsBankReadyOfTheNeededCommand) {
  DramChannel ch(prime_timing());
  const auto check = [&](const char* when) {
    const DramChannel::Bank& b = ch.bank_at(0);  // rank 0, bank group 0, bank 0
    for (uint32_t row : {5u, 6u}) {
      for (bool write : {false, true}) {
        const K needed = !b.open        ? K::Activate
                         : b.row != row ? K::Precharge
                         : write        ? K::Write
                                        : K::Read;
        EXPECT_EQ(DramChannel::next_command_ready(b, row, write), ch.bank_ready(needed, 0, 0, 0))
            << when << ": row " << row << (write ? " write" : " read");
      }
    }
  };
  check("idle");
  ch.issue(cmd(K::RefreshBank, 0));
  check("after REFpb");
  ch.issue(cmd(K::Activate, ch.earliest(K::Activate, 0, 0, 0, 0)));
  check("row 5 open");
  ch.issue(cmd(K::Write, ch.earliest(K::Write, 0, 0, 0, 0)));
  check("after a write");
  ch.issue(cmd(K::Read, ch.earliest(K::Read, 0, 0, 0, 0)));
  check("after a read");
  ch.issue(cmd(K::Precharge, ch.earliest(K::Precharge, 0, 0, 0, 0)));
  check("closed again");
}

TEST(DramChannel, ActToReadAndToWriteIsTRCD) {
  DramChannel rd(prime_timing()), wr(prime_timing());
  rd.issue(cmd(K::Activate, 100));
  wr.issue(cmd(K::Activate, 100));
  expect_tight(rd, cmd(K::Read, 0), 100 + 11);
  expect_tight(wr, cmd(K::Write, 0), 100 + 11);
  EXPECT_TRUE(rd.is_open(0, 0, 0));
  EXPECT_EQ(rd.open_row(0, 0, 0), 5u);
}

TEST(DramChannel, ActToPrechargeIsTRAS) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  expect_tight(ch, cmd(K::Precharge, 0), 29);
  EXPECT_FALSE(ch.is_open(0, 0, 0));
}

TEST(DramChannel, ActToActSameBankIsTRCNotTRASPlusTRP) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::Precharge, 29));
  expect_tight(ch, cmd(K::Activate, 0), 47);  // tRP alone would allow 42
}

TEST(DramChannel, PrechargeToActIsTRP) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::Precharge, 40));
  expect_tight(ch, cmd(K::Activate, 0), 40 + 13);
}

TEST(DramChannel, ActToActOtherBankIsTRRDShortAcrossGroupsLongWithin) {
  DramChannel other_group(prime_timing()), same_group(prime_timing());
  other_group.issue(cmd(K::Activate, 100));
  same_group.issue(cmd(K::Activate, 100));
  expect_tight(other_group, cmd(K::Activate, 0, 1, 0), 100 + 2);
  expect_tight(same_group, cmd(K::Activate, 0, 0, 1), 100 + 3);
}

TEST(DramChannel, WithOneBankGroupTheLongValuesApply) {
  DramTiming t = prime_timing();
  t.bank_groups = 1;
  t.banks_per_group = 8;
  DramChannel ch(t);
  ch.issue(cmd(K::Activate, 0, 0, 0));
  expect_tight(ch, cmd(K::Activate, 0, 0, 7), 3);
  ch.issue(cmd(K::Read, 11, 0, 0));
  expect_tight(ch, cmd(K::Read, 0, 0, 7), 11 + 17);
}

TEST(DramChannel, FifthActInARankWaitsForTFAW) {
  DramChannel ch(prime_timing());
  // Four ACTs as close as tRRD_S allows, alternating bank groups.
  ch.issue(cmd(K::Activate, 0, 0, 0));
  ch.issue(cmd(K::Activate, 2, 1, 0));
  ch.issue(cmd(K::Activate, 4, 0, 1));
  ch.issue(cmd(K::Activate, 6, 1, 1));
  // tRRD_S alone would allow 8; the window counts from the first of the four.
  expect_tight(ch, cmd(K::Activate, 0, 0, 2), 0 + 37);
  // The window is per rank: the other rank activates at once.
  EXPECT_EQ(earliest(ch, cmd(K::Activate, 0, 0, 0, 1), 7), 7u);
}

TEST(DramChannel, ReadToReadIsTCCDShortAcrossGroupsLongWithin) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0, 0, 0));
  ch.issue(cmd(K::Activate, 2, 1, 0));
  ch.issue(cmd(K::Activate, 5, 0, 1));
  ch.issue(cmd(K::Read, 20, 0, 0));
  EXPECT_EQ(earliest(ch, cmd(K::Read, 0, 1, 0)), 20u + 5);  // B = 4 < tCCD_S
  expect_tight(ch, cmd(K::Read, 0, 0, 1), 20 + 17);
}

TEST(DramChannel, WriteToWriteIsTCCDShortAcrossGroupsLongWithin) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0, 0, 0));
  ch.issue(cmd(K::Activate, 2, 1, 0));
  ch.issue(cmd(K::Activate, 5, 0, 1));
  ch.issue(cmd(K::Write, 20, 0, 0));
  EXPECT_EQ(earliest(ch, cmd(K::Write, 0, 1, 0)), 20u + 5);
  expect_tight(ch, cmd(K::Write, 0, 0, 1), 20 + 17);
}

// GDDR3's tCCD of 2 is shorter than its BL8 burst (4 cycles): bursts never come closer.
TEST(DramChannel, ColumnCommandsNeverComeCloserThanTheBurst) {
  const DramTiming& t = dram_preset("GDDR3");
  ASSERT_LT(t.tCCD_L, t.burst_length / t.beats_per_clock);
  DramChannel ch(t);
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::Read, t.tRCD));
  expect_tight(ch, cmd(K::Read, 0), t.tRCD + t.burst_length / t.beats_per_clock);
}

TEST(DramChannel, WriteToReadCountsTWTRFromTheEndOfTheWriteData) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0, 0, 0));
  ch.issue(cmd(K::Activate, 2, 1, 0));
  ch.issue(cmd(K::Write, 20, 0, 0));                 // data ends at 20 + CWL + B = 31
  expect_tight(ch, cmd(K::Read, 0, 1, 0), 31 + 23);  // other group: tWTR_S
  expect_tight(ch, cmd(K::Read, 0, 0, 0), 31 + 31);  // same group: tWTR_L
}

TEST(DramChannel, ReadToWriteWaitsForTheReadDataToLeaveTheBus) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0, 0, 0));
  ch.issue(cmd(K::Activate, 2, 1, 0));
  ch.issue(cmd(K::Read, 20, 0, 0));
  const uint64_t turnaround = 19 + B + 41 - 7;                       // CL + B + tRTW_extra - CWL
  EXPECT_EQ(earliest(ch, cmd(K::Write, 0, 1, 0)), 20 + turnaround);  // a rank rule
  expect_tight(ch, cmd(K::Write, 0, 0, 0), 20 + turnaround);
}

TEST(DramChannel, AcrossRanksOnlyTheDataBusConstrains) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0, 0, 0, 0));
  EXPECT_EQ(earliest(ch, cmd(K::Activate, 0, 0, 0, 1), 1), 1u);  // no tRRD across ranks
  ch.issue(cmd(K::Activate, 1, 0, 0, 1));
  ch.issue(cmd(K::Read, 20, 0, 0, 0));                           // data on the bus [39, 43)
  EXPECT_EQ(earliest(ch, cmd(K::Read, 0, 0, 0, 1)), 20 + B);     // not tCCD_S
  expect_tight(ch, cmd(K::Write, 0, 0, 0, 1), 20 + 19 + B - 7);  // not tRTW_extra
}

TEST(DramChannel, ReadToPrechargeIsTRTP) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::Read, 11));
  expect_tight(ch, cmd(K::Precharge, 0), 11 + 53);
}

TEST(DramChannel, WriteToPrechargeIsWriteRecoveryFromTheEndOfTheData) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::Write, 11));
  expect_tight(ch, cmd(K::Precharge, 0), 11 + 7 + B + 43);
}

TEST(DramChannel, ReadWithAutoPrechargeClosesTheBankAndActWaitsForItsPrecharge) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::ReadPrecharge, 11));  // precharges itself at 11 + tRTP = 64
  EXPECT_FALSE(ch.is_open(0, 0, 0));
  EXPECT_EQ(earliest(ch, cmd(K::Read, 0)), DramChannel::kNever);
  expect_tight(ch, cmd(K::Activate, 0), 64 + 13);
}

TEST(DramChannel, WriteWithAutoPrechargeWaitsForWriteRecovery) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::WritePrecharge, 11));  // precharges itself at 11 + CWL + B + tWR = 65
  EXPECT_FALSE(ch.is_open(0, 0, 0));
  expect_tight(ch, cmd(K::Activate, 0), 65 + 13);
}

TEST(DramChannel, AutoPrechargeHappensNoEarlierThanTRAS) {
  DramTiming t = prime_timing();
  t.tRTP = 2;
  t.tRC = t.tRAS + t.tRP;  // 42
  DramChannel early(t), late(t);
  early.issue(cmd(K::Activate, 0));
  early.issue(cmd(K::ReadPrecharge, 11));  // 11 + 2 < tRAS: precharge at 29
  expect_tight(early, cmd(K::Activate, 0), 29 + 13);
  late.issue(cmd(K::Activate, 0));
  late.issue(cmd(K::ReadPrecharge, 28));  // precharge at 28 + 2 = 30
  expect_tight(late, cmd(K::Activate, 0), 30 + 13);
}

TEST(DramChannel, StateRulesRefuseOutright) {
  DramChannel ch(prime_timing());
  for (K k : {K::Read, K::Write, K::ReadPrecharge, K::WritePrecharge})
    EXPECT_EQ(earliest(ch, cmd(k, 0)), DramChannel::kNever) << dram_command_name(k);
  EXPECT_EQ(earliest(ch, cmd(K::Precharge, 0), 9), 9u);  // a no-op on a closed bank
  ch.issue(cmd(K::Activate, 0));
  EXPECT_EQ(earliest(ch, cmd(K::Activate, 0), 500), DramChannel::kNever);
  EXPECT_EQ(earliest(ch, cmd(K::Refresh, 0), 500), DramChannel::kNever);
  EXPECT_EQ(earliest(ch, cmd(K::RefreshBank, 0), 500), DramChannel::kNever);
  try {
    ch.issue(cmd(K::Activate, 500));
    FAIL() << "ACT to an open bank was taken";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("ACT to rank 0 bank group 0 bank 0 at cycle 500"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("never"), std::string::npos) << e.what();
  }
}

TEST(DramChannel, PrechargeAllWaitsForEveryOpenBank) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0, 0, 0));  // may precharge at 29
  ch.issue(cmd(K::Activate, 2, 1, 0));
  ch.issue(cmd(K::Read, 13, 1, 0));  // may precharge at 13 + tRTP = 66
  expect_tight(ch, cmd(K::PrechargeAll, 0), 66);
  EXPECT_FALSE(ch.is_open(0, 0, 0));
  EXPECT_FALSE(ch.is_open(0, 1, 0));
  EXPECT_EQ(earliest(ch, cmd(K::Activate, 0, 1, 0)), 66u + 13);
  expect_tight(ch, cmd(K::Activate, 0, 0, 0), 66 + 13);
}

TEST(DramChannel, RefreshNeedsEveryBankIdleThenHoldsTheRankForTRFC) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  ch.issue(cmd(K::Precharge, 29));
  // The bank is idle at max(PRE + tRP, ACT + tRC) = max(42, 47).
  expect_tight(ch, cmd(K::Refresh, 0), 47);
  expect_tight(ch, cmd(K::Activate, 0, 1, 3), 47 + 97);
  EXPECT_EQ(earliest(ch, cmd(K::Activate, 0, 0, 0, 1), 48), 48u);  // the other rank goes on
}

TEST(DramChannel, RefreshToRefreshIsTRFC) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Refresh, 10));
  expect_tight(ch, cmd(K::Refresh, 0), 10 + 97);
  expect_tight(ch, cmd(K::RefreshBank, 0), 10 + 97 + 97);
}

TEST(DramChannel, PerBankRefreshHoldsOnlyItsBankForTRFCpb) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::RefreshBank, 10, 1, 2));
  EXPECT_EQ(earliest(ch, cmd(K::Activate, 0, 1, 1), 11), 11u);
  expect_tight(ch, cmd(K::Activate, 0, 1, 2), 10 + 61);
}

TEST(DramChannel, PrechargesWaitForTheRefreshOfTheirBanks) {
  DramChannel ref(prime_timing()), refpb(prime_timing());
  ref.issue(cmd(K::Refresh, 10));
  expect_tight(ref, cmd(K::Precharge, 0, 1, 1), 10 + 97);
  refpb.issue(cmd(K::RefreshBank, 10, 1, 2));
  EXPECT_EQ(earliest(refpb, cmd(K::Precharge, 0, 1, 1), 11), 11u);  // another bank: a no-op
  expect_tight(refpb, cmd(K::PrechargeAll, 0), 10 + 61);
}

TEST(DramChannel, PerBankRefreshIsRefusedWhereTheDeviceHasNone) {
  DramChannel ch(dram_preset("DDR4"));
  EXPECT_EQ(earliest(ch, cmd(K::RefreshBank, 0)), DramChannel::kNever);
}

TEST(DramChannel, IssueReturnsTheEndOfTheBurstOnTheBus) {
  DramChannel ch(prime_timing());
  ch.issue(cmd(K::Activate, 0));
  EXPECT_EQ(ch.issue(cmd(K::Read, 11)), 11 + 19 + B);
  EXPECT_EQ(ch.issue(cmd(K::Write, 200)), 200 + 7 + B);
  EXPECT_EQ(ch.issue(cmd(K::Precharge, 300)), 0u);
}

TEST(DramChannel, AnAddressOutsideTheChannelIsAModelError) {
  DramChannel ch(prime_timing());
  EXPECT_THROW(earliest(ch, cmd(K::Activate, 0, 0, 4)), ModelError);
  EXPECT_THROW(earliest(ch, cmd(K::Activate, 0, 2, 0)), ModelError);
  EXPECT_THROW(ch.issue(cmd(K::Activate, 0, 0, 0, 2)), ModelError);
}

TEST(DramChannel, AnInconsistentTimingIsAConfigError) {
  DramTiming t = prime_timing();
  t.tRC = 41;
  EXPECT_THROW(DramChannel{t}, ConfigError);
  EXPECT_THROW(DramChannel{std::shared_ptr<const DramTiming>()}, ModelError);
}

// Channels built from one shared timing read that one copy (it stays in the host's cache), and
// keep it alive; a channel built from a plain timing keeps its own copy.
TEST(DramChannel, ChannelsShareTheTimingTheyAreGiven) {
  auto t = std::make_shared<const DramTiming>(prime_timing());
  DramChannel a(t), b(t);
  EXPECT_EQ(&a.timing(), t.get());
  EXPECT_EQ(&b.timing(), t.get());
  t.reset();
  EXPECT_EQ(a.timing().tRC, prime_timing().tRC);
  const DramTiming own = prime_timing();
  EXPECT_NE(&DramChannel(own).timing(), &own);
}

// On every preset: ACT, RD, WR, RD, PRE, ACT to one bank, each at its analytic earliest.
TEST(DramChannel, EveryPresetRunsABankCycleAtItsAnalyticCycles) {
  for (const std::string& type : dram_preset_names()) {
    SCOPED_TRACE(type);
    const DramTiming& t = dram_preset(type);
    const uint64_t b = t.burst_length / t.beats_per_clock;
    DramChannel ch(t);
    ch.issue(cmd(K::Activate, 0));
    const uint64_t rd1 = t.tRCD;
    expect_tight(ch, cmd(K::Read, 0), rd1);
    const uint64_t wr = rd1 + t.CL + b + t.tRTW_extra - t.CWL;
    expect_tight(ch, cmd(K::Write, 0), wr);
    const uint64_t rd2 = std::max(wr + t.CWL + b + t.tWTR_L, rd1 + std::max<uint64_t>(t.tCCD_L, b));
    expect_tight(ch, cmd(K::Read, 0), rd2);
    const uint64_t pre = std::max({uint64_t(t.tRAS), rd2 + t.tRTP, wr + t.CWL + b + t.tWR});
    expect_tight(ch, cmd(K::Precharge, 0), pre);
    expect_tight(ch, cmd(K::Activate, 0), std::max(pre + t.tRP, uint64_t(t.tRC)));
  }
}

}  // namespace
}  // namespace gpusoc::mempart
