// What the command processor hands the CTA work distributor: one kernel launch, already decoded
// and checked against the kernel's own parameters. The distributor checks it against the SMs'
// limits, spreads its CTAs over the SMs, and returns when the last CTA retires (or the grid
// faults). Grids from different channels run concurrently; the caller's channel waits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/gigathread/packets.h"
#include "models/ptx/device.h"
#include "models/ptx/memcheck.h"
#include "models/ptx/program.h"

namespace gpusoc::gigathread {

struct GridRequest {
  std::shared_ptr<const ptx::Program> program;  // keeps the module alive while the grid runs
  const ptx::Function* kernel = nullptr;
  ptx::Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> params;  // the kernel's parameter buffer, laid out
  uint32_t registers_per_thread = 0;
  uint32_t channel = 0;
  /// memcheck: the allocation map every access of the grid is checked against (null: none).
  const ptx::AllocationMap* memcheck = nullptr;
  bool racecheck = false;  // check shared-memory races between warps
};

struct GridResult {
  cmd::ErrorCode error = cmd::ErrorCode::None;
  std::string message;            // for the channel's error log: names kernel, block, thread, line
  cmd::LaunchStatsRecord stats;
};

class GridExecutor : public virtual sc_core::sc_interface {
 public:
  /// Blocks the calling SC_THREAD until the grid completes. Launches that cannot run (a CTA
  /// exceeds an SM's threads, registers or shared memory; bad dimensions) return an error at once
  /// and leave the GPU as it was.
  virtual GridResult run_grid(const GridRequest& request) = 0;
};

}  // namespace gpusoc::gigathread
