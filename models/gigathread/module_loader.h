// ModuleLoad and ModuleUnload: PTX text in VRAM becomes a decoded program whose kernels the
// channels can launch. The loader reads the text through the command processor's VRAM port,
// parses and decodes it with the PTX core, places module .global/.const variables in the
// firmware heap and writes their initial values to VRAM, and reports what it loaded (or every
// problem it found) as a ModuleLoadResult.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/gigathread/firmware_heap.h"
#include "models/gigathread/gigathread_config.h"
#include "models/gigathread/memory_port.h"
#include "models/gigathread/module_load_result.h"
#include "models/gigathread/module_table.h"
#include "models/gigathread/packets.h"
#include "models/ptx/memcheck.h"

namespace gpusoc::gigathread {

/// A ModuleLoad packet's arguments.
struct ModuleLoadRequest {
  uint64_t text_address = 0, text_bytes = 0;      // the PTX, in VRAM
  uint64_t report_address = 0, report_bytes = 0;  // its ptxas report, in VRAM; 0 bytes: none
  uint64_t name_address = 0;  // its name (NUL-terminated, in VRAM) for messages; 0: none
  uint64_t buffer_bytes = 0;  // the result buffer's size
};

struct ModuleLoadOutcome {
  cmd::ErrorCode error = cmd::ErrorCode::None;
  std::string message;          // for the channel's error log when the load failed
  std::vector<uint8_t> result;  // the ModuleLoadResult bytes, at most the buffer's size
  uint32_t module_id = 0;       // 0 unless loaded
};

class ModuleLoader {
 public:
  /// Loaded modules' variables are added to `checked` (the memory checker's map), and freed in it
  /// when their module unloads.
  ModuleLoader(const GigaThreadConfig& config, MemoryPort& vram, ptx::AllocationMap& checked);

  /// Loads the PTX text (which may end in a NUL), with the exact register counts of its ptxas
  /// report when the request names one, for a result buffer of `buffer_bytes` (at least a
  /// ModuleLoadResult header; the caller checks). Waits for the VRAM accesses (call from an
  /// SC_THREAD).
  ModuleLoadOutcome load(const ModuleLoadRequest& request);
  /// InvalidModule (with `why`) when `id` names no loaded module.
  cmd::ErrorCode unload(uint32_t id, std::string& why);
  /// Unloads every module (a reset). Ids keep counting, so that a kernel handle from before
  /// never names a kernel loaded after.
  void unload_all();

  const ModuleTable& modules() const { return table_; }
  const FirmwareHeap& heap() const { return *heap_; }

 private:
  ModuleLoadOutcome failure(cmd::ErrorCode code, const ModuleLoadRequest& request,
                            const std::string& problems, uint64_t required = 0) const;
  /// Reads `bytes` of text at `address` (cut at a NUL) into `text`; a problem (too long,
  /// outside VRAM, a refused read) is returned with its error code, naming `file` and `what`.
  cmd::ErrorCode read_text(uint64_t address, uint64_t bytes, const char* what,
                           const std::string& file, std::string& text, std::string& problem);
  /// The kernel, global and parameter entries of a decoded program.
  ModuleLoadReport describe(const ptx::Program& program, uint32_t module_id,
                            LoadedModule& module) const;
  uint32_t max_threads_per_cta(const ptx::Function& kernel, uint32_t registers) const;

  const GigaThreadConfig& config_;
  MemoryPort& vram_;
  ptx::AllocationMap& checked_;
  std::shared_ptr<FirmwareHeap> heap_;  // shared with loaded programs, which free into it
  ModuleTable table_;
};

}  // namespace gpusoc::gigathread
