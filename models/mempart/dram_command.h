// DRAM commands as a memory controller issues them to one channel, and where they go. Times are
// in DRAM command-clock cycles (tCK) from the start of the simulation. Shared by the channel's
// timing state (dram_channel.h) and the independent checker (dram_timing_checker.h).
#pragma once

#include <cstdint>

namespace gpusoc::mempart {

enum class DramCommandKind : uint8_t {
  Activate,        // ACT: open `row` in the bank
  Precharge,       // PRE: close the bank's row
  PrechargeAll,    // PREA: close every bank of the rank
  Read,            // RD: a burst from the open row at `column`
  Write,           // WR
  ReadPrecharge,   // RDA: read with auto-precharge
  WritePrecharge,  // WRA
  Refresh,         // REF: all-bank refresh (every bank precharged)
  RefreshBank,     // REFpb: per-bank refresh (HBM2, GDDR6, LPDDR)
};
constexpr unsigned kNumDramCommandKinds = unsigned(DramCommandKind::RefreshBank) + 1;
const char* dram_command_name(DramCommandKind k);  // "ACT", "PRE", ...

struct DramCommand {
  DramCommandKind kind = DramCommandKind::Activate;
  uint32_t rank = 0;  // or pseudo-channel, for HBM2
  uint32_t bank_group = 0;
  uint32_t bank = 0;  // within its bank group
  uint32_t row = 0;
  uint32_t column = 0;
  uint64_t cycle = 0;  // when it is issued
};

}  // namespace gpusoc::mempart
