// Command packets: what host software writes into a channel's ring buffer in host memory for the
// command processor to fetch by DMA (see docs/commands.md). Every packet is 64 bytes, little
// endian; the ring is an array of them, GET and PUT are byte offsets that wrap at its size.
//
// Addresses: "host" addresses are host physical addresses (the DMA path through the PCIe link);
// "device" addresses are GPU addresses, VRAM starting at VRAM_BASE (bar0_map.h).
#pragma once

#include <cstdint>

namespace gpusoc::cmd {

enum class Opcode : uint32_t {
  Nop = 0,
  Launch = 1,        // a0: host address of a LaunchDescriptor
  Copy = 2,          // a0: source, a1: destination, a2: bytes, a3: CopyDirection
  Memset = 3,        // a0: device destination, a1: bytes, a2: value, a3: element size 1, 2 or 4
  SemAcquire = 4,    // a0: host address of a 64-bit semaphore, a1: value; waits until
                     //     *semaphore >= value (unsigned), polling at a2 ns (0: 1000 ns)
  SemRelease = 5,    // a0: host address of a SemaphoreRecord, a1: value; writes it once every
                     //     earlier packet of the channel has completed
  Fence = 6,         // a0: host address of a 64-bit word, a1: value; like SemRelease without
                     //     the timestamp, usually with kFlagInterrupt so the host can sleep
  ModuleLoad = 7,    // a0: device address of PTX text, a1: its bytes, a2: host address of a
                     //     ModuleLoadResult buffer, a3: the buffer's bytes, a4: device address
                     //     of a ptxas report for the module (0: none), a5: its bytes, a6:
                     //     device address of the module's name for messages (0: none)
  ModuleUnload = 8,  // a0: module id
};

/// The longest module name a ModuleLoad reads at a6, its NUL included.
constexpr uint64_t kMaxModuleNameBytes = 256;

/// Packet flags.
constexpr uint32_t kFlagInterrupt = 1u << 0;  // raise INTR_FENCE when the packet completes

struct Packet {
  Opcode opcode = Opcode::Nop;
  uint32_t flags = 0;
  uint64_t a[7] = {};
};
static_assert(sizeof(Packet) == 64, "packets are 64 bytes");

enum class CopyDirection : uint64_t {
  HostToDevice = 0,  // source: host address, destination: device address
  DeviceToHost = 1,
  DeviceToDevice = 2,
};

/// Kernel launch, in host memory; the parameter buffer holds the arguments at the offsets the
/// kernel's .param declarations give (ModuleLoadResult lists each parameter's offset and size).
struct LaunchDescriptor {
  uint64_t kernel = 0;  // handle from ModuleLoadResult
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_shared_bytes = 0;
  uint32_t param_bytes = 0;    // must equal the kernel's parameter buffer size
  uint64_t param_address = 0;  // host address of the parameter buffer
  uint64_t stats_address = 0;  // host address of a LaunchStatsRecord, or 0
};
static_assert(sizeof(LaunchDescriptor) == 56, "layout is part of the ABI");

/// Written by a launch when LaunchDescriptor::stats_address is set.
struct LaunchStatsRecord {
  uint64_t start_ps = 0;  // simulated time the first CTA started
  uint64_t end_ps = 0;    // and the last one finished
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t ctas = 0;
  uint64_t warps = 0;
  uint64_t occupancy_warp_ps = 0;   // integral of resident warps over time, in warp x ps
  uint64_t max_resident_warps = 0;  // what the SMs could hold at once for this kernel
};

/// Written by SemRelease: the value, then the simulated time it was written.
struct SemaphoreRecord {
  uint64_t value = 0;
  uint64_t timestamp_ps = 0;
};

/// Error codes of CH_ERROR (bar0_map.h).
enum class ErrorCode : uint32_t {
  None = 0,
  InvalidPacket = 1,         // unknown opcode or bad packet field
  InvalidKernel = 2,         // the kernel handle names no loaded kernel
  InvalidLaunchConfig = 3,   // zero or too-large dimensions
  LaunchOutOfResources = 4,  // a CTA does not fit an SM (threads, registers, shared memory)
  InvalidLaunchParams = 5,   // param_bytes differs from the kernel's
  LaunchFailed = 6,          // a kernel faulted while running (illegal address, trap, ...)
  HostAccessFault = 7,       // a DMA to or from host memory was refused
  DeviceAccessFault = 8,     // a copy or memset outside VRAM
  ModuleLoadFailed = 9,      // the PTX did not load; the result buffer lists why
  InvalidModule = 10,        // ModuleUnload of an unknown module id
};

/// "InvalidKernel", "HostAccessFault", ... as docs/commands.md names them; "unknown" for a value
/// outside the enumeration. For the command processor's logs and the runtime's messages alike.
constexpr const char* error_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::None:
      return "None";
    case ErrorCode::InvalidPacket:
      return "InvalidPacket";
    case ErrorCode::InvalidKernel:
      return "InvalidKernel";
    case ErrorCode::InvalidLaunchConfig:
      return "InvalidLaunchConfig";
    case ErrorCode::LaunchOutOfResources:
      return "LaunchOutOfResources";
    case ErrorCode::InvalidLaunchParams:
      return "InvalidLaunchParams";
    case ErrorCode::LaunchFailed:
      return "LaunchFailed";
    case ErrorCode::HostAccessFault:
      return "HostAccessFault";
    case ErrorCode::DeviceAccessFault:
      return "DeviceAccessFault";
    case ErrorCode::ModuleLoadFailed:
      return "ModuleLoadFailed";
    case ErrorCode::InvalidModule:
      return "InvalidModule";
  }
  return "unknown";
}

/// The buffer a ModuleLoad fills: this header, then `num_kernels` KernelEntry, then
/// `num_globals` GlobalEntry, then `num_params` ParamEntry (all kernels' parameters in order),
/// then `strings_bytes` of names (each NUL-terminated), then `diagnostics_bytes` of text (load
/// errors, one per line) — each part 8-byte aligned (module_load_result_layout).
struct ModuleLoadResult {
  uint32_t status = 0;  // ErrorCode: None, ModuleLoadFailed or DeviceAccessFault (the
                        // same code CH_ERROR gets). A buffer too small for the result:
                        // ModuleLoadFailed, nothing loaded, required_bytes > its size
  uint32_t module_id = 0;
  uint32_t num_kernels = 0;
  uint32_t num_globals = 0;
  uint32_t num_params = 0;
  uint32_t strings_bytes = 0;
  uint32_t diagnostics_bytes = 0;
  uint32_t reserved = 0;
  uint64_t required_bytes = 0;  // the whole result's size; the result is complete exactly
                                // when this is at most the buffer's size
};
static_assert(sizeof(ModuleLoadResult) == 40, "layout is part of the ABI");

/// Where a kernel's register count came from (KernelEntry::register_source).
enum class RegisterSource : uint32_t {
  Estimate = 0,      // estimated from the PTX
  LaunchBounds = 1,  // the estimate, capped by the kernel's launch bounds
  MaxNReg = 2,       // the estimate, capped by .maxnreg
  PtxasReport = 3,   // exact, from the ptxas report the ModuleLoad named
};

struct KernelEntry {
  uint32_t name_offset = 0;  // mangled name: offset in the string table
  uint32_t name_bytes = 0;   // and length, without its NUL
  uint64_t handle = 0;       // for LaunchDescriptor::kernel
  uint32_t first_param = 0;  // index into the ParamEntry array
  uint32_t num_params = 0;
  uint32_t param_buffer_bytes = 0;
  uint32_t static_shared_bytes = 0;
  uint32_t registers_per_thread = 0;  // as ptxas reports them, before the SM's allocation unit
  uint32_t local_bytes_per_thread = 0;
  uint32_t max_threads_per_cta = 0;  // what the kernel and the SM allow (reqntid/maxntid)
  uint32_t register_source = 0;      // RegisterSource
};
static_assert(sizeof(KernelEntry) == 48, "layout is part of the ABI");

struct GlobalEntry {
  uint32_t name_offset = 0;  // in the string table
  uint32_t name_bytes = 0;
  uint64_t address = 0;  // device address
  uint64_t bytes = 0;
};
static_assert(sizeof(GlobalEntry) == 24, "layout is part of the ABI");

struct ParamEntry {
  uint32_t offset = 0;
  uint32_t bytes = 0;
};

/// Offsets of a ModuleLoadResult's parts from the start of the buffer; each is 8-byte aligned.
struct ModuleLoadResultLayout {
  uint64_t kernels = 0;      // KernelEntry[num_kernels]
  uint64_t globals = 0;      // GlobalEntry[num_globals]
  uint64_t params = 0;       // ParamEntry[num_params]
  uint64_t strings = 0;      // strings_bytes of names
  uint64_t diagnostics = 0;  // diagnostics_bytes of text, NUL included
  uint64_t total = 0;        // required_bytes
};
constexpr ModuleLoadResultLayout module_load_result_layout(uint64_t num_kernels,
                                                           uint64_t num_globals,
                                                           uint64_t num_params,
                                                           uint64_t strings_bytes,
                                                           uint64_t diagnostics_bytes) {
  auto align8 = [](uint64_t v) { return (v + 7) & ~uint64_t{7}; };
  ModuleLoadResultLayout l;
  l.kernels = align8(sizeof(ModuleLoadResult));
  l.globals = align8(l.kernels + num_kernels * sizeof(KernelEntry));
  l.params = align8(l.globals + num_globals * sizeof(GlobalEntry));
  l.strings = align8(l.params + num_params * sizeof(ParamEntry));
  l.diagnostics = align8(l.strings + strings_bytes);
  l.total = align8(l.diagnostics + diagnostics_bytes);
  return l;
}

}  // namespace gpusoc::cmd
