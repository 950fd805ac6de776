// DRAM timing: command names, DramTiming::problem() and the presets, checked against the parts'
// published data rates and the ns values of their documents (hand arithmetic, not the code's).
#include <cmath>

#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/mempart/dram_command.h"
#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {
namespace {

TEST(DramCommand, NamesAreTheJedecMnemonics) {
  EXPECT_STREQ(dram_command_name(DramCommandKind::Activate), "ACT");
  EXPECT_STREQ(dram_command_name(DramCommandKind::Precharge), "PRE");
  EXPECT_STREQ(dram_command_name(DramCommandKind::PrechargeAll), "PREA");
  EXPECT_STREQ(dram_command_name(DramCommandKind::Read), "RD");
  EXPECT_STREQ(dram_command_name(DramCommandKind::Write), "WR");
  EXPECT_STREQ(dram_command_name(DramCommandKind::ReadPrecharge), "RDA");
  EXPECT_STREQ(dram_command_name(DramCommandKind::WritePrecharge), "WRA");
  EXPECT_STREQ(dram_command_name(DramCommandKind::Refresh), "REF");
  EXPECT_STREQ(dram_command_name(DramCommandKind::RefreshBank), "REFpb");
}

TEST(DramPresets, EveryPresetIsConsistentAndNamesItsSource) {
  ASSERT_EQ(dram_preset_names(),
            (std::vector<std::string>{"GDDR3", "GDDR5", "GDDR6", "HBM2", "HBM2-2430", "DDR4"}));
  for (const std::string& type : dram_preset_names()) {
    const DramTiming& t = dram_preset(type);
    EXPECT_EQ(t.problem(), "") << type;
    EXPECT_NE(t.name.find(type), std::string::npos) << t.name;
    EXPECT_FALSE(t.source.empty()) << type;
  }
}

// Published data rate (GT/s per pin) x width (bytes): the peak each preset must report.
TEST(DramPresets, PeakBandwidthIsTheDataRateTimesTheWidth) {
  const struct {
    const char* type;
    double gbytes_per_s;
  } expected[] = {
      {"GDDR3", 1.8 * 4},       // 900 MHz DDR, x32: the 8800 GTX's 1.8 GT/s
      {"GDDR5", 6.0 * 4},       // 6 Gbps/pin, x32
      {"GDDR6", 14.0 * 2},      // 14 Gbps/pin, one x16 channel
      {"HBM2", 1.754 * 8},      // 877 MHz DDR, one 64-bit pseudo-channel
      {"HBM2-2430", 2.43 * 8},  // 1215 MHz DDR, one 64-bit pseudo-channel
      {"DDR4", 2.4 * 8},        // DDR4-2400, x64
  };
  for (const auto& e : expected) {
    EXPECT_NEAR(dram_preset(e.type).peak_gbytes_per_s(), e.gbytes_per_s, 1e-9) << e.type;
  }
  // The V100: 4 stacks x 8 channels x 2 pseudo-channels, about 900 GB/s.
  EXPECT_NEAR(dram_preset("HBM2").peak_gbytes_per_s() * 64, 898.048, 1e-9);
  // The A100 40 GB: 5 stacks x 8 channels x 2 pseudo-channels, 1555 GB/s (whitepaper).
  EXPECT_NEAR(dram_preset("HBM2-2430").peak_gbytes_per_s() * 80, 1555.2, 1e-9);
}

// The faster HBM2 bin keeps the standard's nanoseconds: the same core timings in more clocks,
// and the 877 MHz bin's clock counts exactly as they were.
TEST(DramPresets, HbmBinsShareTheStandardsNanoseconds) {
  const DramTiming &slow = dram_preset("HBM2"), &fast = dram_preset("HBM2-2430");
  EXPECT_EQ(slow.tRCD, 13u);
  EXPECT_EQ(slow.tRC, 42u);
  EXPECT_EQ(slow.tRFC, 307u);
  EXPECT_EQ(slow.tREFI, 3420u);
  EXPECT_EQ(fast.tRCD, 18u);   // 14 ns at 0.823 ns
  EXPECT_EQ(fast.tRAS, 41u);   // 33 ns
  EXPECT_EQ(fast.tRFC, 426u);  // 350 ns
  for (const DramTiming* t : {&slow, &fast}) {
    EXPECT_GE(t->tRCD * t->tck_ns, 14.0);
    EXPECT_LT((t->tRCD - 1) * t->tck_ns, 14.0);
  }
}

TEST(DramPresets, BurstsAre32BytesOnGpuMemoryAnd64OnTheDimm) {
  EXPECT_EQ(dram_preset("GDDR3").burst_bytes(), 32u);  // BL8 x 4 bytes
  EXPECT_EQ(dram_preset("GDDR5").burst_bytes(), 32u);  // BL8 x 4 bytes
  EXPECT_EQ(dram_preset("GDDR6").burst_bytes(), 32u);  // BL16 x 2 bytes
  EXPECT_EQ(dram_preset("HBM2").burst_bytes(), 32u);   // BL4 x 8 bytes
  EXPECT_EQ(dram_preset("DDR4").burst_bytes(), 64u);   // BL8 x 8 bytes
  EXPECT_EQ(dram_preset("GDDR6").burst_cycles(), 2u);  // 16 beats at 8 per CK
  EXPECT_EQ(dram_preset("GDDR5").burst_cycles(), 2u);  // 8 beats at 4 per CK
}

// Document values in ns, converted by hand rounding up: a wrong clock or a slip shows here.
TEST(DramPresets, NanosecondValuesBecomeCyclesRoundedUp) {
  const DramTiming& ddr4 = dram_preset("DDR4");    // tCK 0.833 ns
  EXPECT_EQ(ddr4.tRCD, 16u);                       // 13.32 / 0.8333 = 15.98
  EXPECT_EQ(ddr4.tRAS, 39u);                       // 32 / 0.8333 = 38.4
  EXPECT_EQ(ddr4.tFAW, 26u);                       // 21 / 0.8333 = 25.2
  EXPECT_EQ(ddr4.tRFC, 420u);                      // 350 / 0.8333 = 420
  EXPECT_EQ(ddr4.tREFI, 9360u);                    // 7800 / 0.8333 = 9360
  const DramTiming& gddr5 = dram_preset("GDDR5");  // tCK 0.667 ns
  EXPECT_EQ(gddr5.tRRD_S, 9u);                     // 5.5 / 0.6667 = 8.25
  EXPECT_EQ(gddr5.tFAW, 35u);                      // 23 / 0.6667 = 34.5
  EXPECT_EQ(gddr5.tRFC, 98u);                      // 65 / 0.6667 = 97.5
  const DramTiming& hbm2 = dram_preset("HBM2");    // tCK 1.140 ns
  EXPECT_EQ(hbm2.tRCD, 13u);                       // 14 / 1.140 = 12.3
  EXPECT_EQ(hbm2.tRAS, 29u);                       // 33 / 1.140 = 28.9
  EXPECT_EQ(hbm2.tRFCpb, 141u);                    // 160 / 1.140 = 140.3
  const DramTiming& gddr3 = dram_preset("GDDR3");  // tCK 1.111 ns
  EXPECT_EQ(gddr3.tRFC, 47u);                      // 52 / 1.111 = 46.8
  EXPECT_EQ(gddr3.tREFI, 3510u);                   // 3900 / 1.111 = 3510
}

TEST(DramPresets, AnUnknownTypeIsAConfigErrorListingTheKnownOnes) {
  try {
    dram_preset("GDDR7");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'GDDR7'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("GDDR3, GDDR5, GDDR6, HBM2, HBM2-2430, DDR4"),
              std::string::npos)
        << e.what();
  }
}

// Each inconsistency is reported, naming the field.
TEST(DramTimingProblem, NamesTheInconsistentField) {
  const DramTiming good = dram_preset("DDR4");
  ASSERT_EQ(good.problem(), "");
  auto problem_with = [&](auto change) {
    DramTiming t = good;
    change(t);
    return t.problem();
  };
  const struct {
    std::string field;
    std::string problem;
  } cases[] = {
      {"tck_ns", problem_with([](DramTiming& t) { t.tck_ns = 0; })},
      {"tck_ns", problem_with([](DramTiming& t) { t.tck_ns = NAN; })},
      {"ranks", problem_with([](DramTiming& t) { t.ranks = 0; })},
      {"banks_per_group", problem_with([](DramTiming& t) { t.banks_per_group = 6; })},
      {"rows", problem_with([](DramTiming& t) { t.rows = 1000; })},
      {"bus_bits", problem_with([](DramTiming& t) { t.bus_bits = 4; })},
      {"burst_length", problem_with([](DramTiming& t) { t.beats_per_clock = 16; })},
      {"columns", problem_with([](DramTiming& t) { t.columns = 4; })},
      {"CL", problem_with([](DramTiming& t) { t.CL = 0; })},
      {"tRC", problem_with([](DramTiming& t) { t.tRC = t.tRAS + t.tRP - 1; })},
      {"tCCD_L", problem_with([](DramTiming& t) { t.tCCD_L = t.tCCD_S - 1; })},
      {"tRRD_L", problem_with([](DramTiming& t) { t.tRRD_L = t.tRRD_S - 1; })},
      {"tWTR_L", problem_with([](DramTiming& t) { t.tWTR_L = t.tWTR_S - 1; })},
      {"tRRD_L", problem_with([](DramTiming& t) { t.tRRD_L = t.tRC + 1; })},
      {"tFAW", problem_with([](DramTiming& t) { t.tFAW = t.tRRD_L - 1; })},
      {"tRFCpb", problem_with([](DramTiming& t) { t.tRFCpb = t.tRFC + 1; })},
      {"tREFI", problem_with([](DramTiming& t) { t.tREFI = t.tRFC; })},
  };
  for (const auto& c : cases) {
    EXPECT_NE(c.problem.find(c.field), std::string::npos) << c.field << ": " << c.problem;
    EXPECT_NE(c.problem.find(good.name), std::string::npos) << c.problem;
  }
}

}  // namespace
}  // namespace gpusoc::mempart
