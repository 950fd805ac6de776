// The DRAM presets. Each number carries its source; ns values are converted to tCK by rounding
// up (ceil(ns / tck_ns)); tREFI, an upper bound on the average interval, is rounded down.
// "estimate" marks a value the cited document does not give, chosen as defensibly as we could.
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/error.h"
#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {
namespace {

// GDDR3 at 900 MHz (1.8 GT/s), the Tesla 8800 GTX's memory clock. One x32 device per channel.
DramTiming gddr3() {
  DramTiming t;
  t.name = "GDDR3-1800 (Qimonda HYB18H512321BF-11, 512 Mbit x32)";
  t.source =
      "Qimonda HYB18H512321BF 512-Mbit GDDR3 Internet Data Sheet Rev. 1.1 (2007-09), "
      "-11 speed grade; row timings from HYB18H512321AF Data Sheet Rev. 1.73 (2005-08)";
  t.tck_ns = 1.0 / 0.9;  // 900 MHz
  t.ranks = 1;
  t.bank_groups = 1;      // GDDR3 has no bank groups
  t.banks_per_group = 8;  // BA[2:0]
  t.rows = 4096;          // 512 Mbit = 8 banks x 4096 rows x 512 columns x 32 bits
  t.columns = 512;
  t.bus_bits = 32;
  t.burst_length = 8;       // BL4 or BL8 by mode register; BL8 gives 32-byte bursts
  t.beats_per_clock = 2;    // DDR on CK
  t.CL = 13;                // estimate: CL 11 at 800 MHz (AF-12) = 13.75 ns -> 13 tCK at 900 MHz
  t.CWL = 5;                // estimate: WL is programmable 1..7 tCK
  t.tRCD = 14;              // estimate: AF-12 tRCDRD 12 tCK = 15 ns -> 14
  t.tRP = 15;               // estimate: AF-12 tRP 13 tCK = 16.25 ns -> 15
  t.tRAS = 24;              // estimate: AF-12 tRAS 21 tCK = 26.25 ns -> 24
  t.tRC = 39;               // AF-12 tRC 32 tCK = 40 ns -> 36, raised to tRAS + tRP
  t.tCCD_S = t.tCCD_L = 2;  // BF-11 tCCD 2 tCK (the burst, B = 4, dominates at BL8)
  t.tRRD_S = t.tRRD_L = 9;  // estimate: AF-12 tRRD 8 tCK = 10 ns -> 9
  t.tFAW = 36;              // GDDR3 has no four-activate window: 4 x tRRD adds no limit
  t.tWTR_S = t.tWTR_L = 6;  // BF-11 tWTR 6 tCK
  t.tRTW_extra = 2;         // BF tRTW(min) = CL + BL/2 + 2 - WL
  t.tWR = 13;               // BF-11 tWR 13 tCK
  t.tRTP = 4;               // estimate: read to precharge one BL8 burst (BL/2)
  t.tRFC = 47;              // AF tRFC 52 ns -> 47
  t.tRFCpb = 0;             // no per-bank refresh
  t.tREFI = 3510;           // tREFI 3.9 us (8192 refreshes / 32 ms)
  return t;
}

// GDDR5 at 6 Gbps/pin: CK 1.5 GHz, WCK 3 GHz, data on both WCK edges. One x32 device.
DramTiming gddr5() {
  DramTiming t;
  t.name = "GDDR5-6000 (SK Hynix H5GQ1H24AFR-R0C, 1 Gbit x32)";
  t.source = "SK Hynix H5GQ1H24AFR GDDR5 SGRAM datasheet (Nov. 2009) and JESD212 (GDDR5)";
  t.tck_ns = 1.0 / 1.5;  // 1.5 GHz CK
  t.ranks = 1;
  t.bank_groups = 4;
  t.banks_per_group = 4;  // 16 banks
  t.rows = 4096;          // 1 Gbit = 16 banks x 4096 rows x 512 columns x 32 bits (2 KB page)
  t.columns = 512;
  t.bus_bits = 32;
  t.burst_length = 8;
  t.beats_per_clock = 4;
  t.CL = 18;                // estimate: 12 ns (as tRCD) -> 18
  t.CWL = 6;                // estimate: WL is programmable 4..7 tCK
  t.tRCD = 18;              // tRCDRD 12 ns -> 18
  t.tRP = 18;               // tRP 12 ns -> 18
  t.tRAS = 42;              // tRAS 28 ns -> 42
  t.tRC = 60;               // tRC 40 ns -> 60 = tRAS + tRP
  t.tCCD_S = 2;             // tCCDS 2 tCK (= the burst)
  t.tCCD_L = 3;             // tCCDL 3 tCK
  t.tRRD_S = t.tRRD_L = 9;  // tRRD 5.5 ns -> 9
  t.tFAW = 35;              // tFAW 23 ns -> 35
  t.tWTR_S = t.tWTR_L = 8;  // estimate: tWTR 5 ns (between tWTRS and tWTRL) -> 8
  t.tRTW_extra = 2;         // estimate: two cycles of bus turnaround
  t.tWR = 18;               // tWR 12 ns -> 18
  t.tRTP = 2;               // tRTP 2 tCK
  t.tRFC = 98;              // tRFC 65 ns -> 98
  t.tRFCpb = 0;             // per-bank refresh not modelled for GDDR5
  t.tREFI = 2929;           // estimate: 16K refreshes / 32 ms = 1.953 us
  return t;
}

// GDDR6 at 14 Gbps/pin: CK 1.75 GHz, 8 data beats per CK (WCK 3.5 GHz QDR, or 7 GHz DDR).
// One 16-bit channel of a two-channel device.
DramTiming gddr6() {
  DramTiming t;
  t.name = "GDDR6-14000 (Micron MT61K256M32JE-14, 8 Gbit, one x16 channel)";
  t.source =
      "Micron 8Gb GDDR6 SGRAM MT61K256M32 brief (gddr6_sgram_8gb_brief Rev. F/I) and "
      "JESD250 (GDDR6, which leaves AC timings to vendors)";
  t.tck_ns = 1.0 / 1.75;  // 1.75 GHz CK
  t.ranks = 1;
  t.bank_groups = 4;
  t.banks_per_group = 4;  // BA[3:0] per channel
  t.rows = 16384;         // R[13:0]
  t.columns = 1024;       // C[5:0] x 16 beats of 16 bits: a 2 KB page
  t.bus_bits = 16;
  t.burst_length = 16;    // 256-bit prefetch on x16
  t.beats_per_clock = 8;  // data rate is 8 x CK (Micron figure 4)
  t.CL = 24;              // estimate: ~13.7 ns
  t.CWL = 6;              // estimate
  t.tRCD = 26;            // estimate: 14.8 ns
  t.tRP = 26;             // estimate: 14.8 ns
  t.tRAS = 53;            // estimate: 30 ns
  t.tRC = 79;             // estimate: 45 ns = tRAS + tRP
  t.tCCD_S = 2;           // the burst: BL16 over 8 beats per CK
  t.tCCD_L = 3;           // estimate
  t.tRRD_S = 5;           // estimate: 2.9 ns
  t.tRRD_L = 6;           // estimate: 3.4 ns
  t.tFAW = 28;            // estimate: 16 ns
  t.tWTR_S = 9;           // estimate: 5 ns
  t.tWTR_L = 11;          // estimate: 6.3 ns
  t.tRTW_extra = 2;       // estimate
  t.tWR = 27;             // estimate: 15 ns -> 27
  t.tRTP = 4;             // estimate
  t.tRFC = 368;           // estimate: tRFCab 210 ns
  t.tRFCpb = 105;         // estimate: tRFCpb 60 ns
  t.tREFI = 3417;         // 16K refreshes / 32 ms (Micron brief) = 1.953 us
  return t;
}

// HBM2 in pseudo-channel mode at a speed bin: 877 MHz (1.75 Gbps/pin, the Volta V100) or 1215 MHz
// (2.43 Gbps/pin, the A100 40 GB). We model one 64-bit pseudo-channel per DramChannel (ranks = 1):
// pseudo-channels share only the command bus, which we do not model. The core timings are the
// standard's nanoseconds, in tCK of the bin.
DramTiming hbm2(const char* name, double mhz) {
  DramTiming t;
  t.name = name;
  t.source = "JEDEC JESD235A High Bandwidth Memory (HBM) DRAM (Nov. 2015), pseudo-channel mode";
  t.tck_ns = 1000.0 / mhz;
  const auto ns = [&](double v) { return uint32_t(std::ceil(v / t.tck_ns - 1e-9)); };
  t.ranks = 1;
  t.bank_groups = 4;
  t.banks_per_group = 4;  // 16 banks per pseudo-channel
  t.rows = 16384;         // 2 Gbit per pseudo-channel: 16 banks x 16384 rows x 1 KB
  t.columns = 128;        // 1 KB page of 64-bit beats
  t.bus_bits = 64;
  t.burst_length = 4;     // BL4 in pseudo-channel mode
  t.beats_per_clock = 2;  // DDR
  t.CL = ns(15.96);       // estimate: RL 14 tCK at 877 MHz, as GPGPU-Sim's JESD235 configuration
  t.CWL = ns(4.56);       // estimate: 4 tCK at 877 MHz
  t.tRCD = ns(14);        // tRCD 14 ns
  t.tRP = ns(14);         // tRP 14 ns
  t.tRAS = ns(33);        // tRAS 33 ns
  t.tRC = t.tRAS + t.tRP; // tRC 47 ns
  t.tCCD_S = 2;           // tCCDS 2 tCK (= the burst)
  t.tCCD_L = mhz > 1000 ? 4 : 3;  // estimate: 3 tCK, 4 at the faster bin
  t.tRRD_S = ns(4);       // estimate: 4 ns
  t.tRRD_L = ns(6);       // estimate: 6 ns
  t.tFAW = ns(16);        // estimate: 16 ns
  t.tWTR_S = ns(3);       // estimate: 3 ns
  t.tWTR_L = ns(4);       // estimate: 4 ns
  t.tRTW_extra = 2;       // estimate
  t.tWR = ns(15);         // estimate: 15 ns
  t.tRTP = ns(4);         // estimate: 4 ns
  t.tRFC = ns(350);       // tRFC 350 ns (8 Gbit)
  t.tRFCpb = ns(160);     // tRFCSB 160 ns
  t.tREFI = uint32_t(3900 / t.tck_ns);  // tREFI 3.9 us, rounded down
  return t;
}

// DDR4-2400R (16-16-16) x64 DIMM channel of x8 devices (1 KB page), one rank.
DramTiming ddr4() {
  DramTiming t;
  t.name = "DDR4-2400R 16-16-16 (JESD79-4, x64 of 8 Gbit x8 devices)";
  t.source = "JEDEC JESD79-4 DDR4 SDRAM standard, DDR4-2400 speed bin and AC timing tables";
  t.tck_ns = 1.0 / 1.2;  // 1.2 GHz
  t.ranks = 1;
  t.bank_groups = 4;
  t.banks_per_group = 4;
  t.rows = 65536;  // 8 Gbit x8: A[15:0]
  t.columns = 1024;
  t.bus_bits = 64;
  t.burst_length = 8;
  t.beats_per_clock = 2;
  t.CL = 16;         // DDR4-2400R CL 16
  t.CWL = 12;        // CWL 12 (1 tCK write preamble)
  t.tRCD = 16;       // 13.32 ns -> 16
  t.tRP = 16;        // 13.32 ns -> 16
  t.tRAS = 39;       // 32 ns -> 39
  t.tRC = 55;        // 45.32 ns -> 55 = tRAS + tRP
  t.tCCD_S = 4;      // 4 nCK
  t.tCCD_L = 6;      // max(5 nCK, 5 ns) -> 6
  t.tRRD_S = 4;      // max(4 nCK, 3.3 ns) -> 4
  t.tRRD_L = 6;      // max(4 nCK, 4.9 ns) -> 6
  t.tFAW = 26;       // 21 ns (1 KB page) -> 26
  t.tWTR_S = 3;      // max(2 nCK, 2.5 ns) -> 3
  t.tWTR_L = 9;      // max(4 nCK, 7.5 ns) -> 9
  t.tRTW_extra = 2;  // RD to WR: RL + BL/2 - WL + 2 tCK
  t.tWR = 18;        // 15 ns -> 18
  t.tRTP = 9;        // max(4 nCK, 7.5 ns) -> 9
  t.tRFC = 420;      // tRFC1 350 ns (8 Gbit) -> 420
  t.tRFCpb = 0;      // DDR4 has no per-bank refresh
  t.tREFI = 9360;    // 7.8 us
  return t;
}

}  // namespace

const std::vector<std::string>& dram_preset_names() {
  static const std::vector<std::string> names{"GDDR3", "GDDR5", "GDDR6", "HBM2", "HBM2-2430",
                                              "DDR4"};
  return names;
}

const DramTiming& dram_preset(const std::string& type) {
  static const DramTiming presets[] = {
      gddr3(),
      gddr5(),
      gddr6(),
      hbm2("HBM2-1754 (JESD235A, one 64-bit pseudo-channel, 8 Gbit dies)", 877),
      hbm2("HBM2-2430 (JESD235A, one 64-bit pseudo-channel, 8 Gbit dies)", 1215),
      ddr4()};
  const auto& names = dram_preset_names();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == type) return presets[i];
  }
  throw ConfigError(
      fmt::format("unknown DRAM type '{}' (known: {})", type, fmt::join(names, ", ")));
}

}  // namespace gpusoc::mempart
