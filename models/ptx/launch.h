// What every warp of a launch shares: the kernel, its dimensions and parameters, device memory,
// and the device's limits. Built once per launch by whoever runs the grid.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/sparse_memory.h"
#include "models/ptx/device.h"
#include "models/ptx/program.h"

namespace gpusoc::ptx {

struct LaunchContext {
  const Program* program = nullptr;
  const Function* kernel = nullptr;
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
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
  uint64_t watchdog_warp_instructions = 0;  // 0: no limit
  std::function<void(const std::string&)> printf_sink;
};

/// One CTA's place in the grid and its shared memory.
struct CtaContext {
  Dim3 ctaid;
  uint32_t sm_id = 0;
  uint32_t num_threads = 0;
  uint32_t num_warps = 0;
  uint32_t dynamic_shared_base = 0;  // static shared bytes, aligned: where extern .shared starts
  std::vector<uint8_t> shared;       // static + dynamic
};

}  // namespace gpusoc::ptx
