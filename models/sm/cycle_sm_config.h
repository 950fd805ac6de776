// The cycle-level SM's structure and timing, resolved from sm.* parameters (cycle_sm_config.cpp
// declares them; defaults describe the Tesla SM of the 8800 GTX). The platform fills in what it
// owns: the shader clock and the warp slots (sm.max_threads / warp size).
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "models/common/config.h"
#include "models/sm/execution_units.h"
#include "models/sm/sectored_cache.h"
#include "models/sm/shared_memory_banks.h"
#include "models/sm/warp_scheduler.h"

namespace gpusoc::sm {

struct CycleSmConfig {
  uint32_t processing_blocks = 1;  // sub-cores, each with its scheduler and pipelines
  uint32_t warp_slots = 24;        // per SM, spread over the blocks (slot % blocks)
  PolicyChoice scheduler = "gto";
  ExecutionUnitsConfig units;   // per processing block
  uint32_t register_banks = 0;  // per block; 0: no operand-collector conflicts
  bool operand_reuse = false;   // sources reused from the warp's previous instruction read no bank
  SharedMemoryBanks shared;
  uint32_t shared_latency = 36;       // cycles from a conflict-free shared access to its data
  uint32_t shared_replay_cycles = 1;  // cycles each further pass of a bank-conflicted access takes
  SectoredCacheConfig l1;             // size 0: no L1 data cache (Tesla): global accesses go out
  SectoredCacheConfig constant;       // the constant cache (sector size = line size)
  uint32_t param_latency = 4;         // kernel parameters: constant bank 0, always resident
  uint32_t lsu_queue = 128;           // lines waiting for the L1 or the memory port, per SM
  uint32_t mio_queue = 0;             // per block, for the SM's one LSU pipe; 0: an LSU per block
  uint32_t max_in_flight = 64;        // memory requests outstanding, per SM
  uint32_t barrier_cycles = 2;        // from the last arrival to the waiting warps' next issue
  uint32_t cta_launch_cycles = 0;
  uint32_t cta_retire_cycles = 0;
  double clock_mhz = 1350;   // the SM's (shader) clock, from clock.shader_mhz
  sc_core::sc_time quantum;  // how far an SM may run ahead (0: decoupling_quantum's)
  /// A memory request without a reply for this many cycles is lost (a memory target that never
  /// answers): the CTAs waiting on it fail with a report of their warps. 0: wait forever.
  uint64_t watchdog_reply_cycles = 10'000'000;

  uint64_t cycle_ps() const { return uint64_t(1e6 / clock_mhz + 0.5); }
  /// Reads the sm.* parameters; throws ConfigError naming the key.
  static CycleSmConfig from_config(const Config& config);
};

}  // namespace gpusoc::sm
