#include "models/gigathread/gigathread_config.h"

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"

namespace gpusoc::gigathread {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

const Param<uint32_t> kChannels{"gigathread.channels", 8, "channels",
                                "command channels (ring buffers with their own doorbell); "
                                "streams map onto them",
                                Range{1, 256}};
const Param<double> kPacketNs{"gigathread.packet_ns", 50.0, "ns",
                              "command processor time to decode one fetched packet", Range{0, 1e6}};
const Param<double> kLaunchNs{"gigathread.launch_ns", 1000.0, "ns",
                              "setup of a kernel launch before its first CTA is dispatched",
                              Range{0, 1e9}};
const Param<uint32_t> kFetchBatch{"gigathread.fetch_batch_packets", 16, "packets",
                                  "packets one DMA read of the ring fetches at most",
                                  Range{1, 4096}};
const Param<uint64_t> kMaxModuleBytes{"gigathread.max_module_bytes", 64 * kMiB, "bytes",
                                      "largest PTX text a ModuleLoad packet may name",
                                      Range{1, 1024 * kMiB}};
const Param<uint64_t> kFirmwareHeap{"gpu.firmware_heap_bytes", 16 * kMiB, "bytes",
                                    "top of VRAM reserved for loaded modules' .global and "
                                    ".const variables; the driver allocates below it",
                                    Range{0, kMiB << 20}};

}  // namespace

GigaThreadConfig GigaThreadConfig::from_config(const Config& config) {
  GigaThreadConfig c;
  c.channels = kChannels.get(config);
  c.packet_time = sc_core::sc_time(kPacketNs.get(config), sc_core::SC_NS);
  c.launch_time = sc_core::sc_time(kLaunchNs.get(config), sc_core::SC_NS);
  c.fetch_batch_packets = kFetchBatch.get(config);
  c.max_module_bytes = kMaxModuleBytes.get(config);
  c.firmware_heap_bytes = kFirmwareHeap.get(config);
  return c;
}

void GigaThreadConfig::check() const {
  if (firmware_heap_bytes > vram_bytes) {
    throw ConfigError(
        fmt::format("gpu.firmware_heap_bytes = {} exceeds the VRAM capacity of {} bytes",
                    firmware_heap_bytes, vram_bytes));
  }
  if (channels == 0 || fetch_batch_packets == 0) {
    throw ConfigError("gigathread.channels and gigathread.fetch_batch_packets must be at least 1");
  }
}

}  // namespace gpusoc::gigathread
