#include "models/gigathread/memcheck_unit.h"

#include <fmt/format.h>

#include "models/common/logging.h"
#include "models/pcie/bar0_map.h"

namespace gpusoc::gigathread {

MemcheckUnit::MemcheckUnit(uint64_t vram_base, uint64_t vram_bytes)
    : vram_base_(vram_base),
      vram_bytes_(vram_bytes),
      registers_("Memory checker", register_specs()) {
  registers_.on_write(bar0::MC_COMMAND, [this](uint32_t value) { command(value); });
  registers_.on_read(bar0::MC_LIVE_REGIONS, [this] { return uint32_t(map_.live_regions()); });
}

void MemcheckUnit::reset() {
  registers_.reset();
  map_.clear_allocations();
  last_problem_.clear();
}

const std::vector<RegisterSpec>& MemcheckUnit::register_specs() {
  using A = RegisterAccess;
  static const std::vector<RegisterSpec> specs = {
      {bar0::MC_CONTROL, "MC_CONTROL", A::ReadWrite, 0,
       "Bit 0: check every global and constant access of the kernels launched from now on "
       "against the live allocations and module variables (memcheck). Bit 1: check their "
       "shared-memory accesses for races between warps (racecheck). A bad access fails the "
       "launch with LaunchFailed and a report in the channel's error log."},
      {bar0::MC_ADDRESS_LO, "MC_ADDRESS_LO", A::ReadWrite, 0,
       "Device address of the region MC_COMMAND acts on, bits 31:0."},
      {bar0::MC_ADDRESS_HI, "MC_ADDRESS_HI", A::ReadWrite, 0, "The region's address, bits 63:32."},
      {bar0::MC_BYTES_LO, "MC_BYTES_LO", A::ReadWrite, 0,
       "Size of the region in bytes (ALLOCATED only), bits 31:0."},
      {bar0::MC_BYTES_HI, "MC_BYTES_HI", A::ReadWrite, 0, "The region's size, bits 63:32."},
      {bar0::MC_COMMAND, "MC_COMMAND", A::WriteOnly, 0,
       "1 ALLOCATED: [MC_ADDRESS, +MC_BYTES) is a live allocation (freed regions it overlaps are "
       "forgotten); 2 FREED: the allocation starting at MC_ADDRESS was freed and stays poisoned "
       "until allocated again; 3 CLEAR: forget every allocation, live or freed (module variables "
       "stay). Sets MC_STATUS."},
      {bar0::MC_STATUS, "MC_STATUS", A::ReadOnly, 0,
       "0 when the last command was taken; 1 when it was refused: an unknown command, 0 bytes, a "
       "region outside VRAM or overlapping a live one, FREED of an address where no live "
       "allocation starts."},
      {bar0::MC_LIVE_REGIONS, "MC_LIVE_REGIONS", A::ReadOnly, 0,
       "Live allocations and module variables the checker knows of."},
  };
  return specs;
}

const ptx::AllocationMap* MemcheckUnit::active() const {
  return registers_.read(bar0::MC_CONTROL) & bar0::kMemcheckEnable ? &map_ : nullptr;
}

bool MemcheckUnit::racecheck() const {
  return registers_.read(bar0::MC_CONTROL) & bar0::kRacecheckEnable;
}

void MemcheckUnit::command(uint32_t value) {
  const auto pair = [this](uint32_t lo, uint32_t hi) {
    return uint64_t(registers_.read(hi)) << 32 | registers_.read(lo);
  };
  last_problem_ = run(value, pair(bar0::MC_ADDRESS_LO, bar0::MC_ADDRESS_HI),
                      pair(bar0::MC_BYTES_LO, bar0::MC_BYTES_HI));
  registers_.set(bar0::MC_STATUS, last_problem_.empty() ? 0 : 1);
  if (!last_problem_.empty()) logger("memcheck")->warn("MC_COMMAND refused: {}", last_problem_);
}

std::string MemcheckUnit::run(uint32_t value, uint64_t address, uint64_t bytes) {
  switch (value) {
    case bar0::kMemcheckAllocated:
      if (address < vram_base_ || address - vram_base_ > vram_bytes_ ||
          bytes > vram_bytes_ - (address - vram_base_)) {
        return fmt::format("ALLOCATED [{:#x}, +{}) is outside VRAM [{:#x}, +{})", address, bytes,
                           vram_base_, vram_bytes_);
      }
      if (std::string problem = map_.add(address, bytes, ptx::RegionKind::Allocation);
          !problem.empty())
        return "ALLOCATED " + problem;
      return {};
    case bar0::kMemcheckFreed:
      if (!map_.release(address, ptx::RegionKind::Allocation))
        return fmt::format("FREED {:#x}: no live allocation starts there", address);
      return {};
    case bar0::kMemcheckClear:
      map_.clear_allocations();
      return {};
    default:
      return fmt::format("unknown command {}", value);
  }
}

}  // namespace gpusoc::gigathread
