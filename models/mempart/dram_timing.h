// The timing of a DRAM device, in command-clock cycles (tCK), and its organization, as a DRAM
// standard (configs/dram/*.json, dram_standard.h) gives them. The rules they make, shared by the
// channel model and the independent checker, are the table of dram_timing_rules.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpusoc::mempart {

struct DramTiming {
  std::string name;     // "GDDR5-6000 (Hynix H5GQ2H24AFR datasheet)" and the like
  std::string source;   // the document the numbers come from
  double tck_ns = 1.0;  // command clock period
  // Organization of one channel.
  uint32_t ranks = 1;  // ranks, or pseudo-channels for HBM2
  uint32_t bank_groups = 1;
  uint32_t banks_per_group = 8;
  uint32_t rows = 16384;
  uint32_t columns = 1024;       // column addresses per row
  uint32_t bus_bits = 32;        // data bus width of the channel
  uint32_t burst_length = 8;     // BL: beats per burst
  uint32_t beats_per_clock = 2;  // data beats per tCK: 2 for DDR (DDR4, GDDR3, HBM2), 4 for
                                 // GDDR5 (both edges of a WCK at twice CK), 8 for GDDR6 (data
                                 // rate 8 x CK: WCK at 2 x CK QDR or 4 x CK DDR)
  // Timing, in tCK.
  uint32_t CL = 0, CWL = 0;
  uint32_t tRCD = 0, tRP = 0, tRAS = 0, tRC = 0;
  uint32_t tCCD_S = 0, tCCD_L = 0;
  uint32_t tRRD_S = 0, tRRD_L = 0;
  uint32_t tFAW = 0;
  uint32_t tWTR_S = 0, tWTR_L = 0;
  uint32_t tRTW_extra = 0;  // extra read-to-write turnaround on the bus
  uint32_t tWR = 0, tRTP = 0;
  uint32_t tRFC = 0, tRFCpb = 0, tREFI = 0;

  uint32_t burst_cycles() const { return burst_length / beats_per_clock; }
  uint32_t burst_bytes() const { return bus_bits / 8 * burst_length; }
  uint32_t banks() const { return bank_groups * banks_per_group; }
  /// Peak data rate of the channel, GB/s: bus_bits/8 bytes, beats_per_clock times per tCK.
  double peak_gbytes_per_s() const { return bus_bits / 8.0 * beats_per_clock / tck_ns; }
  /// What is inconsistent (tRC < tRAS + tRP, a zero clock, BL odd, ...), naming the field;
  /// empty when nothing is.
  std::string problem() const;
};

/// The presets, by the names memory.type spells them: dram_preset_names().
const DramTiming& dram_preset(const std::string& type);
const std::vector<std::string>& dram_preset_names();

}  // namespace gpusoc::mempart
