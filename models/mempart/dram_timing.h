// The timing of a DRAM device, in command-clock cycles (tCK), and its organization. Presets name
// their source (a datasheet or JEDEC standard). What each constraint means, for the channel model
// (dram_channel.h) and the independent checker (dram_timing_checker.h), both of which must
// enforce exactly these (S: different bank group, L: same bank group; with one bank group per
// rank the _L values apply):
//   ACT->ACT or REF same bank  tRC    ACT->ACT other bank     tRRD_S / tRRD_L
//   any 5th ACT in a rank    >= 4th-previous ACT + tFAW
//   ACT->RD/WR same bank     tRCD     ACT->PRE same bank      tRAS
//   PRE->ACT same bank       tRP      RD->PRE same bank       tRTP
//   WR->PRE same bank        CWL + B + tWR   (write recovery from the end of the data)
//   RD->RD, WR->WR           tCCD_S / tCCD_L  (and never closer than the burst: B)
//   WR->RD same rank         CWL + B + tWTR_S / tWTR_L   (from the end of the write data)
//   RD->WR same rank         CL + B + tRTW_extra - CWL   (bus turnaround: read data must
//                            leave the bus before write data arrives; tRTW_extra >= 0 cycles)
//   where B = burst_cycles() = BL / beats_per_clock: the cycles a burst occupies the data bus
//   RDA/WRA: as RD/WR, then the bank precharges itself when PRE would first be allowed;
//            the next ACT to it needs that time + tRP
//   REF (all banks precharged) -> any ACT in the rank: tRFC; REFpb -> ACT same bank: tRFCpb
//   Refresh obligation: one REF every tREFI on average (the controller's business, checked as
//                       "at most 8 REFs postponed", JEDEC's allowance).
//   Data bus: a RD's data occupies the bus [t + CL, t + CL + B), a WR's [t + CWL, t + CWL + B);
//             no two bursts may overlap.
// What the table leaves open, decided so that the channel and the checker agree:
//   - RD includes RDA and WR includes WRA in every rule. Rank rules (tRRD, tFAW, tCCD, tWTR,
//     RD->WR) hold within a rank; across ranks only the data bus constrains.
//   - REF needs every bank of the rank precharged (kNever otherwise) and each able to take an
//     ACT: its PRE + tRP (auto-precharges included), its ACT + tRC, any refresh of it over.
//     REF->REF in a rank: tRFC. tRRD and tFAW do not apply to REF or REFpb.
//   - REFpb needs its bank precharged and able to take an ACT, and no REF running; tRFCpb == 0
//     means the device has no per-bank refresh (REFpb is refused outright).
//   - Bursts take the data bus in issue order: a burst starts no earlier than the end of every
//     burst issued before it (with CWL <= CL and one rank this is the same as no overlap).
//   - PRE and PREA wait for refreshes of their banks to end (REF: tRFC, REFpb: tRFCpb); beyond
//     that, PRE to a precharged bank is a no-op (constrains nothing), and PREA closes the open
//     banks of a rank, each no earlier than its own PRE would be allowed.
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
