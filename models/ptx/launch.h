// What every warp of a launch shares: the kernel, its dimensions and parameters, device memory,
// and the device's limits. Built once per launch by whoever runs the grid.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/sparse_memory.h"
#include "models/ptx/device.h"
#include "models/ptx/inst.h"
#include "models/ptx/memcheck.h"
#include "models/ptx/program.h"
#include "models/ptx/racecheck.h"

namespace gpusoc::ptx {

/// Where a CTA's reserved shared memory region starts: after the kernel's static and dynamic
/// shared memory, 16-byte aligned when there is such a region.
inline uint32_t reserved_shared_begin(const Function& k, uint32_t dynamic_shared_bytes,
                                      uint32_t reserved_shared_bytes) {
  const uint32_t used = uint32_t(cta_shared_bytes(k, dynamic_shared_bytes));
  return reserved_shared_bytes ? (used + 15) / 16 * 16 : used;
}

struct LaunchContext {
  const Program* program = nullptr;
  const Function* kernel = nullptr;
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  /// Shared memory the system reserves in every CTA (sm.reserved_shared_per_cta), after the
  /// kernel's static and dynamic shared memory; %reserved_smem_offset_* point into it.
  uint32_t reserved_shared_bytes = 0;
  uint32_t reserved_shared_begin() const {
    return ptx::reserved_shared_begin(*kernel, dynamic_shared_bytes, reserved_shared_bytes);
  }
  /// A CTA's whole shared memory: static, dynamic, then the reserved region.
  uint32_t cta_shared_bytes() const { return reserved_shared_begin() + reserved_shared_bytes; }
  std::vector<uint8_t> params;     // the kernel's parameter buffer
  SparseMemory* global = nullptr;  // device memory
  uint32_t num_sms = 1;
  uint32_t stack_bytes_per_thread = 1024;  // the configured stack: .local depots and call overhead
  /// Local memory per thread as laid out: the stack plus room for .param slots of calls, which
  /// hardware passes in registers and so do not count against the stack.
  uint32_t local_bytes_per_thread() const { return stack_bytes_per_thread + kParamReserveBytes; }
  static constexpr uint32_t kParamReserveBytes = 4096;
  /// Stack charged per call, for the return address and saved registers.
  static constexpr uint32_t kCallOverheadBytes = 16;
  uint32_t grid_id = 0;
  LaunchWatchdog watchdog;
  /// How warps run divergent paths (simt_model.h); a deadlock it reports is an ExecutionError
  /// naming the kernel, block, warp, PC and PTX line.
  std::shared_ptr<const SimtModel> simt_model = default_simt_model();
  /// memcheck: every global and constant access is checked against this map first, and a bad
  /// one ends the launch with an ExecutionError saying what it hit (null: no checking).
  const AllocationMap* memcheck = nullptr;
  /// racecheck: shared-memory loads and stores of different warps with no barrier between them
  /// end the launch with an ExecutionError naming both threads and lines (racecheck.h).
  bool racecheck = false;
  /// Warp instructions every CTA of the launch has run so far, for the watchdog.
  mutable uint64_t executed_warp_instructions = 0;
  std::function<void(const std::string&)> printf_sink;
};

/// What is wrong with a launch's grid and block for kernel `k` (zero or too-large dimensions,
/// more threads than `max_threads_per_cta`, a block other than the kernel's .reqntid); empty when
/// nothing is. Every launcher (the functional device, the CTA dispatcher) checks with these.
std::string dimension_problem(const Function& k, Dim3 grid, Dim3 block,
                              uint32_t max_threads_per_cta);
/// What kernel `k` needs beyond the limits: shared memory (static + `dynamic_shared_bytes`) and
/// local memory per thread; empty when it fits.
std::string resource_problem(const Function& k, uint32_t dynamic_shared_bytes,
                             uint32_t max_shared_bytes_per_cta, uint32_t stack_bytes_per_thread);

enum class GlobalAccess : uint8_t { Load, Store, Atomic };

/// What a texture or surface instruction read or wrote, for the timed SMs and the texture unit:
/// the device address of every texel a fetch filtered (repeats included) or surface element it
/// touched. Queries (txq, suq) touch none.
struct TextureFootprint {
  GlobalAccess kind = GlobalAccess::Load;  // Store: sust; Atomic: sured
  LaneMask lanes = 0;
  unsigned bytes = 0;               // per address: the texel, or the surface access
  std::vector<uint64_t> addresses;  // in lane order
};

/// Told about every warp instruction that touches global memory, before it executes, so that a
/// timed SM can charge the access (the data moves functionally either way).
class GlobalAccessObserver {
 public:
  virtual ~GlobalAccessObserver() = default;
  /// `addresses[lane]` for each lane in `lanes` (generic addresses already resolved to global;
  /// lanes that went to shared or local memory are left out); `bytes` per lane.
  virtual void global_access(GlobalAccess kind, const uint64_t* addresses, LaneMask lanes,
                             unsigned bytes) = 0;
  /// The same for shared, constant, parameter and local memory (`space` says which; addresses
  /// are offsets in that space; local addresses are per-thread offsets). Only called when the
  /// CTA's `observe_on_chip` is set, so that observers that do not care pay nothing.
  virtual void on_chip_access(StateSpace space, GlobalAccess kind, const uint64_t* addresses,
                              LaneMask lanes, unsigned bytes) {
    (void)space, (void)kind, (void)addresses, (void)lanes, (void)bytes;
  }
  /// A texture or surface instruction, after it executed (its addresses are known only then).
  virtual void texture_access(const TextureFootprint& footprint) { (void)footprint; }
};

/// One CTA's place in the grid and its shared memory.
struct CtaContext {
  Dim3 ctaid;
  uint32_t sm_id = 0;
  uint32_t num_threads = 0;
  uint32_t num_warps = 0;
  uint32_t dynamic_shared_base = 0;  // static shared bytes, aligned: where extern .shared starts
  std::vector<uint8_t> shared;       // static + dynamic
  SparseMemory* global = nullptr;    // device memory as this CTA's SM sees it
  GlobalAccessObserver* observer = nullptr;  // optional
  bool observe_on_chip = false;  // also tell `observer` about shared/const/param/local accesses
  SharedRaceCheck* racecheck = nullptr;  // the CTA runner's, when the launch checks races
  /// The SM's cycle counter, which %clock and %clock64 read on a timed SM (null: the functional
  /// core's stand-in, the warp's instruction count), and its period, which turns it into the
  /// nanoseconds of %globaltimer.
  const uint64_t* clock = nullptr;
  uint64_t clock_period_ps = 0;
};

}  // namespace gpusoc::ptx
