#include "models/memsys/hierarchy_params.h"

#include <cmath>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/l2/l2_params.h"
#include "models/mempart/controller_params.h"
#include "models/mempart/dram_params.h"
#include "models/mempart/mapping_params.h"
#include "models/xbar/xbar_params.h"

namespace gpusoc::memsys {
namespace {

const Param<double> kL2Clock{"l2.clock_mhz", 0.0, "MHz",
                             "clock of the crossbar and the L2 slices; 0: the core clock "
                             "(clock.core_mhz)",
                             Range{0, 1e5}};

const Param<double> kFixedLatency{"memory.fixed_latency_ns", 0.0, "ns",
                                  "latency of the pipelines between the SMs and the L2 not timed "
                                  "stage by stage (SM memory interface, crossbar stages), both "
                                  "ways: added to every reply, L2 hits included; it never limits "
                                  "bandwidth",
                                  Range{0, 1e6}};
const Param<double> kPartitionLatency{"memory.partition_latency_ns", 0.0, "ns",
                                      "latency of the frame-buffer pipeline an L2 miss crosses "
                                      "beyond DRAM timing (controller front end, PHY, the way "
                                      "back): added to every partition reply through the L2 "
                                      "(memtrace --into partitions leaves it out); it never "
                                      "limits bandwidth",
                                      Range{0, 1e6}};

const Param<std::string> kMemoryModel{
    "memory.model", "hierarchy", "",
    "what the SMs' accesses go through: hierarchy (crossbar, L2 slices, memory partitions with "
    "DRAM timing, stepped together: the fast path), tlm (the same parts as SystemC modules bound "
    "by TLM-2.0 sockets, docs/memory.md) or flat (one latency and bandwidth, devmem.*)",
    OneOf{"hierarchy", "tlm", "flat"}};
const Param<bool> kExternalMemory{
    "memory.tlm.external_memory", false, "",
    "memory.model = tlm only: leave each L2 slice's memory socket unbound, for the platform to "
    "bind a memory model of its own in place of our partitions (GpuSoc::memory_socket)"};

const Param<bool> kExternalSlices{
    "memory.tlm.external_slices", false, "",
    "memory.model = tlm only: leave the crossbar's slice socket unbound, for the platform to "
    "bind an L2 of its own (a target per partition, in partition order) in place of our slices "
    "and partitions (GpuSoc::slice_socket)"};

const Param<uint32_t> kPortQueue{"memory.port_queue", 16, "requests",
                                 "requests an SM's memory interface holds before the crossbar "
                                 "takes them; more wait for END_REQ",
                                 Range{1, 4096}};

}  // namespace

HierarchyConfig hierarchy_config_from(const Config& config, const MemoryDescription& memory) {
  HierarchyConfig h;
  h.dram = mempart::dram_timing_from(config);
  const mempart::DramTiming& d = h.dram;
  if (memory.partition_bus_bits % d.bus_bits != 0) {
    throw ConfigError(fmt::format(
        "{}: memory.bus_width_bits = {} per partition is not a whole number of {} channels "
        "({} bits each)",
        config.origin("memory.bus_width_bits"), memory.partition_bus_bits, d.name, d.bus_bits));
  }
  h.ports = memory.ports;
  const double l2_mhz = kL2Clock.get(config);
  h.l2_clock_mhz = l2_mhz > 0 ? l2_mhz : memory.core_mhz;
  h.mapping = mempart::mapping_from_config(config, d, memory.partitions,
                                           memory.partition_bus_bits / d.bus_bits, memory.base);
  h.controller = mempart::controller_config_from(config);
  h.xbar = xbar::crossbar_config_from(config);
  h.l2 = l2::l2_config_from(config);
  h.rop = l2::rop_config_from(config);
  h.fixed_latency_ns = kFixedLatency.get(config);
  h.partition_latency_ns = kPartitionLatency.get(config);
  h.port_queue = kPortQueue.get(config);
  h.modules = memory_model(config) == "tlm";
  h.external_memory = kExternalMemory.get(config);
  h.external_slices = kExternalSlices.get(config);
  for (const char* key : {"memory.tlm.external_memory", "memory.tlm.external_slices"}) {
    if (config.value(key).get<bool>() && !h.modules) {
      throw ConfigError(fmt::format("{}: {} needs memory.model = tlm (it is {})",
                                    config.origin(key), key, memory_model(config)));
    }
  }
  if (h.external_memory && h.external_slices) {
    throw ConfigError(
        fmt::format("{}: memory.tlm.external_memory and external_slices: with an L2 "
                    "of yours there are no slices of ours to put your memory behind",
                    config.origin("memory.tlm.external_slices")));
  }
  return h;
}

std::string memory_model(const Config& config) {
  return kMemoryModel.get(config);
}

double peak_gbytes_per_s(const HierarchyConfig& config) {
  return config.dram.peak_gbytes_per_s() * config.mapping.partitions * config.mapping.channels;
}

}  // namespace gpusoc::memsys
