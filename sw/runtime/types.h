// Plain types of the runtime's API: device pointers, dimensions, launch configuration, device
// properties and the runtime's own options.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "models/common/kernel_launch.h"
#include "models/gigathread/packets.h"
#include "models/tex/texture_objects.h"

namespace gpusoc::rt {

/// A device (GPU) address; VRAM starts at DeviceProperties::vram_base.
using DevicePtr = uint64_t;

// The launch types every device shares (models/common/kernel_launch.h). A launch's
// LaunchConfig::stats is filled when the stream it was queued on has been synchronized (any
// call that waits for it: Stream/Event/Device::synchronize, the synchronous copies).
using gpusoc::Dim3;
using gpusoc::KernelArgs;
using gpusoc::LaunchConfig;
using gpusoc::LaunchStats;

struct DeviceProperties {
  std::string name;
  // PCI identity (configuration space).
  uint16_t vendor_id = 0;
  uint16_t device_id = 0;
  uint8_t revision = 0;
  uint32_t class_code = 0;
  // PCI Express link (0 when the function has no PCI Express capability).
  uint32_t pcie_generation = 0;  // 1 = 2.5 GT/s, 2 = 5 GT/s, 3 = 8 GT/s, ...
  uint32_t pcie_lanes = 0;
  uint32_t pcie_max_generation = 0;
  uint32_t pcie_max_lanes = 0;
  // Where enumeration put the BARs in the host's MMIO window.
  uint64_t bar0_address = 0;
  uint64_t bar0_bytes = 0;
  uint64_t bar1_address = 0;  // the VRAM aperture; 0 when the function has no second BAR
  uint64_t bar1_bytes = 0;
  // From BAR0.
  uint32_t register_map_version = 0;  // VERSION: major << 16 | minor
  DevicePtr vram_base = 0;
  uint64_t vram_bytes = 0;  // what cudaMalloc-style allocation may use (firmware heap excluded)
  uint32_t channels = 0;
  uint32_t copy_engines = 0;
  /// The largest texture objects (BAR0 TEX_MAX_*; an sm_80 GPU's on register maps before 2.3).
  tex::Limits texture_limits;
};

/// How the runtime uses the host. Defaults suit the configurations in configs/.
struct RuntimeOptions {
  /// The runtime's pinned region within host memory: from memory_base + pinned_offset,
  /// pinned_bytes long (0: to the end of host memory).
  uint64_t pinned_offset = 0;
  uint64_t pinned_bytes = 0;
  /// Per channel: ring size (a power of two, 128 B to 16 MiB) and error log buffer.
  uint32_t ring_bytes = 64 * 1024;
  uint32_t error_log_bytes = 4096;
  /// Channels to use (0: all the GPU has).
  uint32_t max_channels = 0;
  /// Synchronous copies from pageable memory go through two pinned staging buffers this big.
  uint64_t staging_chunk_bytes = 1 << 20;
  /// CPU memcpy bandwidth charged (HostBus::compute) when the runtime copies host data itself:
  /// staging, packets, descriptors and parameters. 8 GB/s: one core of a desktop CPU.
  double host_copy_gbytes_per_s = 8.0;
  /// How long a wait for the GPU may take, in simulated time, before Error(Timeout).
  sc_core::sc_time sync_timeout{10, sc_core::SC_SEC};
  /// Sleep between checks of conditions no interrupt announces (ring space).
  sc_core::sc_time poll_interval{2, sc_core::SC_US};
  /// Polling interval the GPU uses for SemAcquire (stream waits on events); 0: the GPU's default.
  uint64_t semaphore_poll_ns = 0;
  /// First size of a ModuleLoad result buffer; 0: estimated from the PTX (grown on demand).
  uint64_t module_result_bytes = 0;
  /// memcheck, in the spirit of compute-sanitizer: the GPU checks every global and constant
  /// access of every kernel against the live allocations and module variables (docs/memcheck.md).
  /// Out-of-bounds accesses (naming the nearest allocation and the offset), uses after free,
  /// misaligned accesses and writes to .const variables fail the launch with LaunchFailed before
  /// the access lands; the device stays usable. On in debug(); costs kernel speed.
  bool memcheck = false;
  /// memcheck: unallocated bytes after every allocation, so that an overrun hits no neighbour.
  uint64_t memcheck_red_zone_bytes = 4096;
  /// memcheck: freed allocations stay poisoned, held back from reuse, up to this many bytes.
  uint64_t memcheck_quarantine_bytes = 64ull << 20;
  /// racecheck: shared-memory loads and stores of different warps of a CTA with no barrier
  /// between them fail the launch with LaunchFailed, naming both threads and lines.
  bool racecheck = false;

  /// The debug configuration: the defaults with memcheck on.
  static RuntimeOptions debug() {
    RuntimeOptions o;
    o.memcheck = true;
    return o;
  }

  bool operator==(const RuntimeOptions& o) const {
    return pinned_offset == o.pinned_offset && pinned_bytes == o.pinned_bytes &&
           ring_bytes == o.ring_bytes && error_log_bytes == o.error_log_bytes &&
           max_channels == o.max_channels && staging_chunk_bytes == o.staging_chunk_bytes &&
           host_copy_gbytes_per_s == o.host_copy_gbytes_per_s && sync_timeout == o.sync_timeout &&
           poll_interval == o.poll_interval && semaphore_poll_ns == o.semaphore_poll_ns &&
           module_result_bytes == o.module_result_bytes && memcheck == o.memcheck &&
           memcheck_red_zone_bytes == o.memcheck_red_zone_bytes &&
           memcheck_quarantine_bytes == o.memcheck_quarantine_bytes && racecheck == o.racecheck;
  }
};

}  // namespace gpusoc::rt
