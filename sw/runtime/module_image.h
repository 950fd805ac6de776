// What a ModuleLoad tells the host (models/gigathread/packets.h, ModuleLoadResult): the module's
// id, its kernels with their parameter layouts, its globals, and load diagnostics. Parsed from
// the result buffer the command processor wrote into pinned memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/gigathread/packets.h"

namespace gpusoc::rt {

struct KernelInfo {
  std::string name;
  uint64_t handle = 0;
  std::vector<cmd::ParamEntry> params;  // offset and size of each parameter, in order
  uint32_t param_buffer_bytes = 0;
  uint32_t static_shared_bytes = 0;
  uint32_t registers_per_thread = 0;
  uint32_t local_bytes_per_thread = 0;
  uint32_t max_threads_per_cta = 0;  // what the kernel and the SMs allow; 0: not reported
  cmd::RegisterSource register_source = cmd::RegisterSource::Estimate;
};

struct GlobalInfo {
  std::string name;
  uint64_t address = 0;  // device address (in the firmware heap, above VRAM_SIZE)
  uint64_t bytes = 0;
};

struct ModuleLoadReport {
  cmd::ErrorCode status = cmd::ErrorCode::None;
  uint32_t module_id = 0;
  uint64_t required_bytes = 0;
  std::vector<KernelInfo> kernels;
  std::vector<GlobalInfo> globals;
  std::string diagnostics;  // load errors, one per line
};

/// A result buffer size that fits the module's kernels, globals, parameters and names (counted
/// from the PTX's directives) plus room for diagnostics, so that a retry is rarely needed.
uint64_t estimate_module_result_bytes(std::string_view ptx);

/// Parses `bytes` of result buffer. A failed load whose required_bytes exceed the buffer (the
/// buffer was too small) yields the header only. A result that is inconsistent with itself or
/// larger than the buffer is an Error(DeviceError) saying what is wrong.
ModuleLoadReport parse_module_load_result(const uint8_t* data, uint64_t bytes);

}  // namespace gpusoc::rt
