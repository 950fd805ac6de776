#include "models/host/host_config.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"

namespace gpusoc::host {
namespace {

using U64 = std::uint64_t;
constexpr U64 kMiB = U64{1} << 20;
constexpr U64 kGiB = U64{1} << 30;
constexpr U64 kTopOfSpace = U64{1} << 52;  // a 52-bit physical address space, as on x86-64

// Host DRAM starts at 4 GiB so that the legacy windows below 4 GiB (ECAM, MSI) stay free.
const Param<U64> kMemoryBase{"host.memory_base", 4 * kGiB, "bytes",
                             "host physical address where host DRAM starts", Range{0, kTopOfSpace}};
const Param<U64> kMemoryBytes{"host.memory_bytes", 4 * kGiB, "bytes",
                              "host DRAM size (committed lazily: untouched memory costs nothing)",
                              Range{kMiB, kTopOfSpace}};
const Param<double> kMemoryLatency{"host.memory_latency_ns", 80.0, "ns",
                                   "host DRAM access latency, added to every timed access",
                                   Range{0, 1e6}};
const Param<double> kMemoryBandwidth{"host.memory_bandwidth_gbps", 25.6, "GB/s",
                                     "host DRAM port bandwidth in gigabytes per second "
                                     "(1 GB/s = 1 byte/ns); 0: unlimited",
                                     Range{0, 1e6}};
const Param<double> kQuantum{"host.quantum_ns", 1000.0, "ns",
                             "how far the host CPU may run ahead of SystemC time before it "
                             "synchronizes (temporal decoupling quantum)",
                             Range{0.001, 1e9}};
const Param<U64> kEcamBase{"host.ecam_base", 0xE000'0000, "bytes",
                           "host physical address of PCIe configuration space (ECAM), 1 MiB "
                           "aligned",
                           Range{0, kTopOfSpace}};
const Param<U64> kEcamBytes{"host.ecam_bytes", kMiB, "bytes",
                            "size of the ECAM window: 1 MiB per bus (4 KiB per function)",
                            Range{4096, 256 * kMiB}};
const Param<U64> kMmioBase{"host.mmio_base", 0x40'0000'0000, "bytes",
                           "host physical address of the window PCIe BARs are assigned in",
                           Range{0, kTopOfSpace}};
const Param<U64> kMmioBytes{"host.mmio_bytes", 0x40'0000'0000, "bytes", "size of the BAR window",
                            Range{kMiB, kTopOfSpace}};
const Param<U64> kMsiAddress{"host.msi_address", 0xFEE0'0000, "bytes",
                             "address MSI writes go to (the CPU's interrupt controller, a 4 KiB "
                             "window), 4 KiB aligned",
                             Range{0, kTopOfSpace}};
const Param<std::uint32_t> kMsiData{"host.msi_data", 0x41, "",
                                    "MSI data (interrupt vector) the GPU is programmed to write"};

struct Window {
  std::string key;
  U64 base, bytes;
};

}  // namespace

HostConfig HostConfig::from_config(const Config& config) {
  HostConfig c;
  c.map.memory_base = kMemoryBase.get(config);
  c.map.memory_bytes = kMemoryBytes.get(config);
  c.map.ecam_base = kEcamBase.get(config);
  c.map.ecam_bytes = kEcamBytes.get(config);
  c.map.mmio_base = kMmioBase.get(config);
  c.map.mmio_bytes = kMmioBytes.get(config);
  c.map.msi_address = kMsiAddress.get(config);
  c.map.msi_data = kMsiData.get(config);
  c.memory_latency = sc_core::sc_time(kMemoryLatency.get(config), sc_core::SC_NS);
  c.memory_bytes_per_ns = kMemoryBandwidth.get(config);  // GB/s = bytes/ns
  c.quantum = sc_core::sc_time(kQuantum.get(config), sc_core::SC_NS);

  const auto misaligned = [&](const Param<U64>& key, U64 alignment) {
    if (key.get(config) % alignment != 0) {
      throw ConfigError(fmt::format("{}: {} = {:#x} is not a multiple of {:#x}",
                                    config.origin(key.name()), key.name(), key.get(config),
                                    alignment));
    }
  };
  misaligned(kEcamBase, kMiB);
  misaligned(kEcamBytes, 4096);
  misaligned(kMsiAddress, kMsiWindowBytes);

  const std::vector<Window> windows{{kMemoryBase.name(), c.map.memory_base, c.map.memory_bytes},
                                    {kEcamBase.name(), c.map.ecam_base, c.map.ecam_bytes},
                                    {kMmioBase.name(), c.map.mmio_base, c.map.mmio_bytes},
                                    {kMsiAddress.name(), c.map.msi_address, kMsiWindowBytes}};
  for (size_t i = 0; i < windows.size(); ++i) {
    const Window& a = windows[i];
    if (a.base + a.bytes > kTopOfSpace) {
      throw ConfigError(fmt::format("{}: {} = {:#x} with {:#x} bytes ends beyond {:#x}",
                                    config.origin(a.key), a.key, a.base, a.bytes, kTopOfSpace));
    }
    for (size_t j = i + 1; j < windows.size(); ++j) {
      const Window& b = windows[j];
      if (a.base < b.base + b.bytes && b.base < a.base + a.bytes) {
        throw ConfigError(
            fmt::format("{}: host window {} [{:#x}, {:#x}) overlaps {} [{:#x}, {:#x}) (from {})",
                        config.origin(a.key), a.key, a.base, a.base + a.bytes, b.key, b.base,
                        b.base + b.bytes, config.origin(b.key)));
      }
    }
  }
  return c;
}

}  // namespace gpusoc::host
