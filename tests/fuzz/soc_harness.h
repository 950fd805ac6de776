// The GPU SoC for the fuzz targets that drive it as a driver would (command_packets, mmio).
//
// SystemC elaborates once per process, so there is one SocPlatform per process, built on first
// use from configs/small.json (with TLM protocol checkers on every binding and a launch
// watchdog) and never destroyed; each input runs as one host program on it
// (SocPlatform::run). The GPU is enumerated at fixed BAR addresses before every input (an input
// may have rewritten configuration space). Around each input the harness keeps inputs apart:
//  - before: the resident module (two tiny kernels, kResidentKernel*) is loaded again, and the
//    modules the previous input loaded are unloaded with the previous copy; every channel's
//    registers, the interrupt and error status, BAR1_WINDOW and the input's host memory are
//    cleared;
//  - after: every channel is disabled, and the GPU must go idle within 200 ms of simulated
//    time (docs/commands.md: disabling lets the packet in execution finish, and a waiting
//    SemAcquire stops waiting); ID and VERSION must still read as documented.
// A GPU that stays busy, a broken protocol rule, or an exception out of the models is a finding.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <systemc>

#include "models/host/host_bus.h"

namespace gpusoc::fuzz {

/// What an input's host program gets: the host bus and where things are.
struct SocView {
  host::HostBus& bus;
  uint64_t bar0 = 0;  // host address of BAR0
  uint64_t bar1 = 0;  // host address of BAR1 (the VRAM aperture)
  uint64_t bar1_bytes = 0;
  uint64_t ecam = 0;       // host address of the GPU's configuration space (4 KiB)
  uint64_t vram_base = 0;  // device address of VRAM
  uint32_t channels = 0;
  uint32_t copy_engines = 0;
  uint64_t scratch = 0;          // host DRAM for the input, kScratchBytes, zeroed, 64 KiB aligned
  uint32_t resident_module = 0;  // the resident module's id for this input

  uint32_t reg(uint32_t offset) { return bus.read32(bar0 + offset); }
  void set_reg(uint32_t offset, uint32_t value) { bus.write32(bar0 + offset, value); }
};

/// Lets simulated time pass on the host CPU (compute, then sync) until `done()` or `limit` has
/// passed; returns whether `done()` became true.
bool poll_until(host::HostBus& bus, const sc_core::sc_time& limit,
                const std::function<bool()>& done);
/// Lets `duration` of simulated time pass on the host CPU (compute, then sync).
void pause(host::HostBus& bus, const sc_core::sc_time& duration);

class SocHarness {
 public:
  static constexpr uint64_t kScratchBytes = 2ull << 20;
  /// The resident module's kernels: store_ids(u32* out, u32 n) stores each thread's global
  /// index below n; spin(u32 n) loops n times. Parameter buffers: 12 and 4 bytes.
  static constexpr uint32_t kResidentKernelStoreIds = 0;
  static constexpr uint32_t kResidentKernelSpin = 1;
  static const char* const kResidentPtx;

  /// Built on first call.
  static SocHarness& instance();

  /// Runs `program` on the host CPU between the harness's preparation and settling (above);
  /// `target` names the fuzz target in findings.
  void run(const char* target, const std::function<void(SocView&)>& program);

 private:
  SocHarness();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusoc::fuzz
