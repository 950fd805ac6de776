// --mem-trace FILE on `run` and `launch`: the requests the cycle-level SMs offer the memory
// system, written in memtrace's trace format for `gpusoc memtrace --trace`
// (docs/observability.md).
#pragma once

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/memsys/request_trace.h"
#include "platform/command.h"
#include "platform/gpu_soc.h"

namespace gpusoc::platform {

inline OptionSpec mem_trace_option() {
  return {"mem-trace", "FILE",
          "write the requests the SMs offer the memory system (after their L1s) to FILE in "
          "memtrace's trace format, for gpusoc memtrace --trace (cycle-level SMs)"};
}

/// Starts recording into the file --mem-trace names (null without the option).
inline std::unique_ptr<memsys::RequestTraceWriter> start_mem_trace(const CommandContext& ctx,
                                                                   GpuSoc& gpu) {
  const auto file = ctx.options.get("mem-trace");
  if (!file) return nullptr;
  if (sm_model(ctx.config) != "cycle")
    throw UsageError(
        "--mem-trace records the memory requests of cycle-level SMs: add --set "
        "sm.model=cycle (loosely timed SMs reach memory directly)");
  if (!gpu.memory_system())
    throw UsageError(
        "--mem-trace records the requests to the memory hierarchy, which "
        "memory.model = flat does not have");
  auto writer = std::make_unique<memsys::RequestTraceWriter>(*file);
  gpu.memory_system()->set_request_trace(writer.get());
  return writer;
}

/// Stops recording, writes the rest of the trace and says where it went.
inline void finish_mem_trace(GpuSoc& gpu, memsys::RequestTraceWriter* writer) {
  if (!writer) return;
  gpu.memory_system()->set_request_trace(nullptr);
  writer->finish();
  std::cout << fmt::format("  trace    {} requests written to {} (gpusoc memtrace --trace)\n",
                           writer->requests(), writer->path());
}

}  // namespace gpusoc::platform
