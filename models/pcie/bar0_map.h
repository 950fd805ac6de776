// The GPU's BAR0 register map: the hardware/software contract the runtime (sw/runtime), a
// customer's own driver, and the units behind BAR0 share. docs/registers.md describes the same
// map from the units' RegisterSpec tables; a test keeps the two in step.
//
// Every register is 32 bits; accesses must be 4 bytes and 4-byte aligned.
#pragma once

#include <cstdint>

namespace gpusoc::bar0 {

constexpr uint64_t kSize = 1u << 20;  // BAR0 is 1 MiB, 64-bit, non-prefetchable

// ---- 0x0000: host interface (models/pcie/pcie_endpoint) ------------------------------------
constexpr uint32_t kHostInterfaceBase = 0x0000;
constexpr uint32_t ID = 0x0000;            // RO 0x50554753 ("GPUS" little endian)
constexpr uint32_t VERSION = 0x0004;       // RO major << 16 | minor of this register map
constexpr uint32_t VRAM_BASE_LO = 0x0008;  // RO device address where VRAM starts
constexpr uint32_t VRAM_BASE_HI = 0x000C;
constexpr uint32_t VRAM_SIZE_LO = 0x0010;      // RO bytes of VRAM the driver may allocate
constexpr uint32_t VRAM_SIZE_HI = 0x0014;      //    (the firmware heap above it is excluded)
constexpr uint32_t NUM_CHANNELS = 0x0018;      // RO command channels
constexpr uint32_t NUM_COPY_ENGINES = 0x001C;  // RO
constexpr uint32_t BAR1_WINDOW_LO = 0x0020;    // RW VRAM offset the BAR1 aperture starts at
constexpr uint32_t BAR1_WINDOW_HI = 0x0024;    //    (a multiple of the BAR1 size)
// RO the largest texture objects (tex::Limits): 1D array width, linear texels, 2D width and
// height, pitched 2D side, 3D side, layered side and layers, cubemap side and layers
constexpr uint32_t TEX_MAX_1D = 0x0030;
constexpr uint32_t TEX_MAX_LINEAR = 0x0034;
constexpr uint32_t TEX_MAX_2D_WIDTH = 0x0038;
constexpr uint32_t TEX_MAX_2D_HEIGHT = 0x003C;
constexpr uint32_t TEX_MAX_2D_LINEAR = 0x0040;
constexpr uint32_t TEX_MAX_3D = 0x0044;
constexpr uint32_t TEX_MAX_LAYERED = 0x0048;
constexpr uint32_t TEX_MAX_LAYERS = 0x004C;
constexpr uint32_t TEX_MAX_CUBE = 0x0050;
constexpr uint32_t TEX_MAX_CUBE_LAYERS = 0x0054;
constexpr uint32_t INTR_STATUS = 0x0100;       // RO latched interrupt causes (kIntr*)
constexpr uint32_t INTR_MASK = 0x0104;         // RW 1 enables a cause; reset 0
constexpr uint32_t INTR_CLEAR = 0x0108;        // WO write 1s to clear causes
constexpr uint32_t ERROR_STATUS = 0x0110;      // RO latched errors (kError*)
constexpr uint32_t ERROR_CLEAR = 0x0114;       // WO write 1s to clear errors
constexpr uint32_t ERROR_OFFSET = 0x0118;      // RO BAR0 offset of the last refused MMIO access

constexpr uint32_t kId = 0x50554753;
// 2.2: the memory checker's registers (MC_*); 2.3: the texture limits (TEX_MAX_*)
constexpr uint32_t kVersion = 0x00020003;

// INTR_STATUS / INTR_MASK / INTR_CLEAR bits
constexpr uint32_t kIntrFence = 1u << 0;  // a packet with kFlagInterrupt completed
constexpr uint32_t kIntrError = 1u << 1;  // ERROR_STATUS became non-zero
constexpr uint32_t kIntrCopy = 1u << 2;   // a copy engine finished a copy (with kFlagInterrupt)

// ERROR_STATUS / ERROR_CLEAR bits
constexpr uint32_t kErrorReadOnlyWrite = 1u << 0;  // MMIO write to a read-only register
constexpr uint32_t kErrorBadAccess = 1u << 1;      // MMIO access not 4 bytes / misaligned
constexpr uint32_t kErrorUnmapped = 1u << 2;       // MMIO access to an offset with no register
constexpr uint32_t kErrorChannel = 1u << 3;        // a channel recorded an error (CH_ERROR)
constexpr uint32_t kErrorDma = 1u << 4;            // a DMA to host memory got an error response

// ---- 0x1000: copy engines (models/pcie/copy_engine), 0x100 apart ---------------------------
constexpr uint32_t kCopyEngineBase = 0x1000;
constexpr uint32_t kCopyEngineStride = 0x100;
constexpr uint32_t CE_STATUS = 0x00;    // RO bit 0: busy
constexpr uint32_t CE_COPIES = 0x04;    // RO copies completed
constexpr uint32_t CE_BYTES_LO = 0x08;  // RO bytes copied
constexpr uint32_t CE_BYTES_HI = 0x0C;
constexpr uint32_t CE_BUSY_NS_LO = 0x10;  // RO simulated nanoseconds spent copying
constexpr uint32_t CE_BUSY_NS_HI = 0x14;

// ---- 0x2000: memory checker (models/gigathread/memcheck_unit) ---------------------------------
// The driver announces its allocations here so that kernels' accesses can be checked (memcheck):
// write MC_ADDRESS and MC_BYTES, then a command to MC_COMMAND, and read MC_STATUS.
constexpr uint32_t kMemcheckBase = 0x2000;
constexpr uint32_t MC_CONTROL = 0x00;     // RW kMemcheckEnable, kRacecheckEnable
constexpr uint32_t MC_ADDRESS_LO = 0x04;  // RW device address of the command's region
constexpr uint32_t MC_ADDRESS_HI = 0x08;
constexpr uint32_t MC_BYTES_LO = 0x0C;  // RW its size in bytes
constexpr uint32_t MC_BYTES_HI = 0x10;
constexpr uint32_t MC_COMMAND = 0x14;       // WO kMemcheck* command
constexpr uint32_t MC_STATUS = 0x18;        // RO 0: the last command was taken; 1: refused
constexpr uint32_t MC_LIVE_REGIONS = 0x1C;  // RO live allocations and module variables

constexpr uint32_t kMemcheckEnable = 1u << 0;   // MC_CONTROL: check kernels' global accesses
constexpr uint32_t kRacecheckEnable = 1u << 1;  // MC_CONTROL: check shared-memory races
// MC_COMMAND values
constexpr uint32_t kMemcheckAllocated = 1;  // [MC_ADDRESS, +MC_BYTES) is a live allocation
constexpr uint32_t kMemcheckFreed = 2;      // the allocation at MC_ADDRESS was freed: poisoned
constexpr uint32_t kMemcheckClear = 3;      // forget every allocation, live or freed

// ---- 0x10000: command channels (models/gigathread/command_processor), 0x100 apart ----------
constexpr uint32_t kChannelBase = 0x10000;
constexpr uint32_t kChannelStride = 0x100;
constexpr uint32_t CH_RING_BASE_LO = 0x00;  // RW host address of the ring, 64-byte aligned
constexpr uint32_t CH_RING_BASE_HI = 0x04;
constexpr uint32_t CH_RING_SIZE = 0x08;       // RW bytes; a power of two, 64 B to 16 MiB
constexpr uint32_t CH_PUT = 0x0C;             // RW byte offset where the host writes next
constexpr uint32_t CH_GET = 0x10;             // RO byte offset of the next packet the CP reads
constexpr uint32_t CH_DOORBELL = 0x14;        // WO any write: fetch packets from GET up to PUT
constexpr uint32_t CH_STATUS = 0x18;          // RO kChannel* bits
constexpr uint32_t CH_ERROR = 0x1C;           // RO first ErrorCode (packets.h) since ERROR_CLEAR
constexpr uint32_t CH_ERROR_GET = 0x20;       // RO ring offset of the packet that failed
constexpr uint32_t CH_ERROR_CLEAR = 0x24;     // WO write 1: clear CH_ERROR and the error bit
constexpr uint32_t CH_ERROR_LOG_LO = 0x28;    // RW host address of a buffer for error text
constexpr uint32_t CH_ERROR_LOG_HI = 0x2C;    //    (NUL-terminated; 0: no text)
constexpr uint32_t CH_ERROR_LOG_SIZE = 0x30;  // RW its size in bytes
constexpr uint32_t CH_CONTROL = 0x34;         // RW bit 0: enable (the ring registers are read
                                              //    when the channel is enabled)

constexpr uint32_t kChannelBusy = 1u << 0;   // packets pending or executing
constexpr uint32_t kChannelError = 1u << 1;  // CH_ERROR is non-zero
constexpr uint32_t kChannelEnabled = 1u << 2;

constexpr uint32_t channel_offset(uint32_t ch, uint32_t reg) {
  return kChannelBase + ch * kChannelStride + reg;
}
constexpr uint32_t copy_engine_offset(uint32_t ce, uint32_t reg) {
  return kCopyEngineBase + ce * kCopyEngineStride + reg;
}

}  // namespace gpusoc::bar0
