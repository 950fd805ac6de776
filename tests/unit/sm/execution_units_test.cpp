// The functional-unit pipelines: a warp of 32 on n lanes occupies the unit's issue for
// ceil(32 / n) cycles and its result lands `latency` cycles after issue; operand-collector bank
// conflicts cost one cycle per extra distinct register read from the busiest bank.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "models/common/error.h"
#include "models/sm/execution_units.h"
#include "models/sm/register_use.h"

namespace gpusoc::sm {
namespace {

// Lanes and latencies of a Tesla-like block (8 SPs, 2 SFUs), and a 64-lane branch unit.
ExecutionUnitsConfig tesla_like() {
  ExecutionUnitsConfig c;
  c.units[size_t(Unit::Int)] = {16, 4};
  c.units[size_t(Unit::Fp32)] = {8, 10};
  c.units[size_t(Unit::Fp64)] = {32, 12};
  c.units[size_t(Unit::Sfu)] = {2, 20};
  c.units[size_t(Unit::Lsu)] = {32, 1};
  c.units[size_t(Unit::Tex)] = {3, 2};
  c.units[size_t(Unit::Branch)] = {64, 1};
  c.unit_of[size_t(ptx::InstClass::Int)] = Unit::Int;
  c.unit_of[size_t(ptx::InstClass::IntMultiply)] = Unit::Int;
  c.unit_of[size_t(ptx::InstClass::Fp32)] = Unit::Fp32;
  c.unit_of[size_t(ptx::InstClass::Fp64)] = Unit::Fp64;
  c.unit_of[size_t(ptx::InstClass::Sfu)] = Unit::Sfu;
  c.unit_of[size_t(ptx::InstClass::Memory)] = Unit::Lsu;
  return c;
}

TEST(ExecutionUnits, NamesMatchTheConfigurationKeys) {
  const char* expected[kNumUnits] = {"int", "fp32", "fp64", "sfu", "lsu", "tex", "branch"};
  for (size_t u = 0; u < kNumUnits; ++u) EXPECT_STREQ(unit_name(Unit(u)), expected[u]);
}

TEST(ExecutionUnits, IntervalIsTheWarpOverTheLanesRoundedUp) {
  ExecutionUnits eu(tesla_like());
  EXPECT_EQ(eu.interval(Unit::Int), 2u);     // 16 lanes
  EXPECT_EQ(eu.interval(Unit::Fp32), 4u);    // 8 lanes
  EXPECT_EQ(eu.interval(Unit::Fp64), 1u);    // 32 lanes
  EXPECT_EQ(eu.interval(Unit::Sfu), 16u);    // 2 lanes: Tesla's quarter-rate SFU
  EXPECT_EQ(eu.interval(Unit::Tex), 11u);    // 3 lanes: ceil(32 / 3)
  EXPECT_EQ(eu.interval(Unit::Branch), 1u);  // wider than a warp
  EXPECT_EQ(eu.latency(Unit::Sfu), 20u);
  EXPECT_EQ(eu.unit_of(ptx::InstClass::Sfu), Unit::Sfu);
  EXPECT_EQ(eu.unit_of(ptx::InstClass::Memory), Unit::Lsu);
}

TEST(ExecutionUnits, IssueBusiesTheUnitForItsIntervalAndReturnsTheResultCycle) {
  ExecutionUnits eu(tesla_like());
  EXPECT_TRUE(eu.can_issue(Unit::Fp32, 0));
  EXPECT_EQ(eu.issue(ptx::InstClass::Fp32, 100), 110u);
  EXPECT_EQ(eu.free_at(Unit::Fp32), 104u);
  EXPECT_FALSE(eu.can_issue(Unit::Fp32, 103));
  EXPECT_TRUE(eu.can_issue(Unit::Fp32, 104));
  EXPECT_TRUE(eu.can_issue(Unit::Int, 100));  // units are independent
  EXPECT_EQ(eu.issue(ptx::InstClass::Int, 100), 104u);
  EXPECT_EQ(eu.free_at(Unit::Int), 102u);
  EXPECT_EQ(eu.issue(ptx::InstClass::Fp64, 7), 19u);
  EXPECT_EQ(eu.free_at(Unit::Fp64), 8u);
}

TEST(ExecutionUnits, BackToBackSfuInstructionsTakeSixteenCyclesEach) {
  ExecutionUnits eu(tesla_like());
  uint64_t now = 0, last_result = 0;
  for (int i = 0; i < 4; ++i) {
    now = eu.free_at(Unit::Sfu);
    last_result = eu.issue(ptx::InstClass::Sfu, now);
  }
  EXPECT_EQ(now, 48u);
  EXPECT_EQ(last_result, 68u);
  EXPECT_EQ(eu.free_at(Unit::Sfu), 64u);
}

TEST(ExecutionUnits, AClassLatencyOverridesItsUnitsAndSharesTheUnitsIssue) {
  ExecutionUnitsConfig c = tesla_like();
  c.class_latency[size_t(ptx::InstClass::IntMultiply)] = 5;
  ExecutionUnits eu(c);
  EXPECT_EQ(eu.latency(ptx::InstClass::IntMultiply), 5u);
  EXPECT_EQ(eu.latency(ptx::InstClass::Int), 4u);  // the unit's
  EXPECT_EQ(eu.issue(ptx::InstClass::IntMultiply, 100), 105u);
  EXPECT_EQ(eu.free_at(Unit::Int), 102u);  // the int unit's interval, 16 lanes
  EXPECT_EQ(eu.issue(ptx::InstClass::Int, 102), 106u);
}

TEST(ExecutionUnits, ExtraCyclesDelayTheStart) {
  ExecutionUnits eu(tesla_like());
  EXPECT_EQ(eu.issue(ptx::InstClass::Fp32, 200, 3), 213u);
  EXPECT_EQ(eu.free_at(Unit::Fp32), 207u);
}

TEST(ExecutionUnits, OccupyOnlyExtends) {
  ExecutionUnits eu(tesla_like());
  eu.occupy(Unit::Lsu, 50);
  EXPECT_EQ(eu.free_at(Unit::Lsu), 50u);
  eu.occupy(Unit::Lsu, 40);
  EXPECT_EQ(eu.free_at(Unit::Lsu), 50u);
}

TEST(ExecutionUnits, ZeroLanesIsAConfigErrorNamingTheUnit) {
  ExecutionUnitsConfig c = tesla_like();
  c.units[size_t(Unit::Fp64)].lanes = 0;
  try {
    ExecutionUnits eu(c);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("'fp64'"));
  }
}

uint32_t conflicts(std::vector<uint32_t> regs, uint32_t banks) {
  return operand_bank_conflict_cycles(regs.data(), unsigned(regs.size()), banks);
}

TEST(OperandBankConflicts, ZeroBanksSwitchesTheModelOff) {
  EXPECT_EQ(conflicts({0, 2, 4, 6}, 0), 0u);
  EXPECT_EQ(conflicts({}, 2), 0u);
}

TEST(OperandBankConflicts, TwoBanks) {
  EXPECT_EQ(conflicts({1, 2}, 2), 0u);
  EXPECT_EQ(conflicts({1, 3}, 2), 1u);
  EXPECT_EQ(conflicts({0, 2, 4}, 2), 2u);
  EXPECT_EQ(conflicts({0, 2, 1}, 2), 1u);
  EXPECT_EQ(conflicts({4, 4}, 2), 0u);  // one register read once
  EXPECT_EQ(conflicts({4, 4, 6}, 2), 1u);
  EXPECT_EQ(conflicts({4, 0, 4}, 2), 1u);
  EXPECT_EQ(conflicts({1, 4, 0, 4}, 2), 1u);
  EXPECT_EQ(conflicts({2, 1, 2, 3}, 2), 1u);
  EXPECT_EQ(conflicts({5, 3, 5, 1}, 2), 2u);
  EXPECT_EQ(conflicts({0, 2, 0, 2, 4}, 2), 2u);
}

// Sources served by the operand reuse cache read no bank: FFMA R1, R3, R5 with R3 and R5 reused
// reads R1 alone.
TEST(OperandBankConflicts, ReusedSourcesReadNoBank) {
  const std::vector<uint32_t> regs{1, 3, 5};
  EXPECT_EQ(operand_bank_conflict_cycles(regs.data(), 3, 2), 2u);
  EXPECT_EQ(operand_bank_conflict_cycles(regs.data(), 3, 2, 0b110), 0u);
  EXPECT_EQ(operand_bank_conflict_cycles(regs.data(), 3, 2, 0b100), 1u);
}

TEST(OperandBankConflicts, FourBanks) {
  EXPECT_EQ(conflicts({1, 2, 3}, 4), 0u);
  EXPECT_EQ(conflicts({0, 4, 8}, 4), 2u);
  EXPECT_EQ(conflicts({1, 5, 2, 6}, 4), 1u);
  EXPECT_EQ(conflicts({3, 7, 11, 2}, 4), 2u);
  EXPECT_EQ(conflicts({0, 1, 2, 3, 4}, 4), 1u);
  EXPECT_EQ(conflicts({8, 8, 4, 0, 4}, 4), 2u);
  EXPECT_EQ(conflicts({2, 6, 3}, 4), 1u);
}

// RegisterUse of a made-up instruction: sources, then destinations.
RegisterUse uses(std::vector<uint32_t> sources, std::vector<uint32_t> dests) {
  RegisterUse u;
  for (uint32_t r : sources) u.regs[u.num_sources++] = r;
  for (uint32_t r : dests) u.regs[u.num_sources + u.num_dests++] = r;
  return u;
}

// A dependent chain x = fma(x, b, b): b is reused in its slots; x, written by the previous
// instruction, is read again; a register moved to another slot is read again too.
TEST(OperandReuse, ASourceInTheSameSlotNotWrittenSinceIsReused) {
  const RegisterUse fma = uses({1, 3, 3}, {1});
  EXPECT_EQ(reused_operands(fma, fma), 0b110u);
  EXPECT_EQ(reused_operands(uses({3, 1}, {}), uses({1, 3}, {})), 0u);
  EXPECT_EQ(reused_operands(uses({5, 7}, {}), RegisterUse()), 0u);
  EXPECT_EQ(reused_operands(uses({5, 7}, {}), uses({5, 7, 9}, {})), 0b11u);
}

}  // namespace
}  // namespace gpusoc::sm
