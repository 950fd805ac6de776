// The GPU's structure, SM limits, clocks and memory system: the resolved parameters
// the platform builds the model from, and the peak figures they imply.
#pragma once

#include <cstdint>
#include <string>

#include "models/common/config.h"

namespace gpusoc::platform {

struct GpuSpec {
  struct Structure {
    std::uint32_t gpcs;
    std::uint32_t tpcs_per_gpc;
    std::uint32_t sms_per_tpc;
  };
  struct Sm {
    std::uint32_t sp_cores;  // FP32 lanes
    std::uint32_t sfus;
    std::uint32_t fp64_units;  // FP64 lanes (0: no double precision hardware)
    std::uint32_t warp_size;
    std::uint32_t max_threads;
    std::uint32_t max_ctas;
    std::uint32_t registers;
    std::uint32_t register_allocation_unit;  // registers per warp are a multiple of it
    std::uint32_t shared_memory_bytes;
    std::uint32_t max_threads_per_cta;
    std::uint32_t max_shared_per_cta;
    std::uint32_t reserved_shared_per_cta;  // by the system, beyond max_shared_per_cta
    std::uint32_t stack_bytes_per_thread;
    std::uint32_t address_bits;        // 32 or 64: what the register estimate assumes
    bool register_allocation_per_cta;  // the unit rounds a CTA's registers, not a warp's
  };
  struct Clocks {
    double shader_mhz;
    double core_mhz;
    double memory_mhz;  // the DRAM standard's command clock (memory.type)
  };
  struct Memory {
    std::uint32_t partitions;
    std::uint32_t bus_width_bits;  // per partition
    std::uint32_t data_rate;       // transfers per memory clock: the DRAM standard's
    std::string type;  // memory.type: a built-in DRAM standard's name ("GDDR3", ...) or a file
    std::uint64_t capacity_bytes;
  };

  Structure gpu;
  Sm sm;
  Clocks clock;
  Memory memory;

  // Reads and cross-checks the parameters (a CTA must fit in an SM, ...); throws
  // ConfigError naming the keys and where their values came from.
  static GpuSpec from_config(const Config& config);

  std::uint32_t total_sms() const { return gpu.gpcs * gpu.tpcs_per_gpc * gpu.sms_per_tpc; }
  std::uint32_t total_sp_cores() const { return total_sms() * sm.sp_cores; }

  // One fused multiply-add (2 flops) per SP core per shader clock.
  double peak_fp32_gflops() const { return total_sp_cores() * 2.0 * clock.shader_mhz / 1e3; }

  double peak_fp64_gflops() const {
    return total_sms() * sm.fp64_units * 2.0 * clock.shader_mhz / 1e3;
  }

  // Every partition's bus busy: bytes per transfer x transfers per second, in 10^9 B/s.
  double peak_dram_gbytes_per_s() const {
    return memory.partitions * (memory.bus_width_bits / 8.0) * clock.memory_mhz * memory.data_rate /
           1e3;
  }
};

}  // namespace gpusoc::platform
