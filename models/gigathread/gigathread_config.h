// The command processor's resolved configuration: what the parameter files say (gigathread.*,
// gpu.firmware_heap_bytes), validated, plus the facts about the GPU that the platform knows
// from its own specification (where VRAM is, the SM limits kernels are reported against).
#pragma once

#include <cstdint>

#include <systemc>

#include "models/common/config.h"

namespace gpusoc::gigathread {

struct GigaThreadConfig {
  uint32_t channels = 8;                               // command channels (rings)
  sc_core::sc_time packet_time{50, sc_core::SC_NS};    // fetch and decode of one packet
  sc_core::sc_time launch_time{1000, sc_core::SC_NS};  // a launch's setup before its grid runs
  uint32_t fetch_batch_packets = 16;                   // packets fetched by one DMA read at most
  uint64_t max_module_bytes = 64ull << 20;             // PTX text a ModuleLoad accepts
  uint64_t firmware_heap_bytes = 16ull << 20;  // top of VRAM, for module .global/.const data

  // Set by the platform from its GPU specification (not parameters of this block).
  uint64_t vram_base = 0x2'0000'0000;  // device address of VRAM (ptx::kGlobalBase)
  uint64_t vram_bytes = 768ull << 20;  // memory.capacity_bytes
  uint32_t max_threads_per_cta = 512;  // sm.max_threads_per_cta
  uint32_t registers_per_sm = 8192;    // sm.registers; 0: not a limit on threads per CTA
  uint32_t max_threads_per_sm = 768;   // sm.max_threads, for the register estimate
  uint32_t address_bits = 64;          // sm.address_bits, for the register estimate
  uint32_t register_allocation_unit = 256;  // sm.register_allocation_unit
  bool register_allocation_per_cta = false;  // sm.register_allocation_granularity = cta

  /// The parameters of this block from `config`; the platform fills the fields above after.
  static GigaThreadConfig from_config(const Config& config);

  /// Device address where the firmware heap starts (the end of what the driver may allocate).
  uint64_t heap_base() const { return vram_base + vram_bytes - firmware_heap_bytes; }
  /// Throws ConfigError when the platform facts and the parameters do not fit together.
  void check() const;
};

}  // namespace gpusoc::gigathread
