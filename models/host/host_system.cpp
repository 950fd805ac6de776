#include "models/host/host_system.h"

namespace gpusoc::host {
namespace {

MemoryTargetConfig dram_config(const HostConfig& config) {
  MemoryTargetConfig dram;
  dram.base = config.map.memory_base;
  dram.size = config.map.memory_bytes;
  dram.latency = config.memory_latency;
  dram.bytes_per_ns = config.memory_bytes_per_ns;
  return dram;
}

}  // namespace

HostSystem::HostSystem(sc_core::sc_module_name name, const HostConfig& config,
                       StatGroup& stats_parent, bool check_protocol)
    : sc_module(name),
      config_(config),
      stats_(stats_parent, basename()),
      bindings_(check_protocol),
      cpu("cpu", config_, stats_),
      router("router"),
      dram("dram", dram_config(config_), stats_),
      msi("msi", stats_),
      root_port("root_port", stats_),
      config_initiator(root_port.config_initiator),
      mem_initiator(root_port.mem_initiator),
      upstream_target(root_port.upstream_target) {
  const HostAddressMap& map = config_.map;
  bindings_.connect(cpu.initiator, router.target, "cpu");
  bindings_.connect(root_port.host_initiator, router.target, "root_port_upstream");
  cpu.msi_in.bind(msi.cpu_export);

  // Bind order gives the router's port numbers (RouterPort).
  bindings_.connect(router.initiator, dram.target, "dram");
  bindings_.connect(router.initiator, root_port.ecam_target, "ecam");
  bindings_.connect(router.initiator, root_port.mmio_target, "mmio");
  bindings_.connect(router.initiator, msi.target, "msi");
  router.map(kMemoryPort, map.memory_base, map.memory_bytes, map.memory_base, "host DRAM");
  router.map(kEcamPort, map.ecam_base, map.ecam_bytes, 0, "ECAM");
  router.map(kMmioPort, map.mmio_base, map.mmio_bytes, map.mmio_base, "PCIe MMIO");
  router.map(kMsiPort, map.msi_address, kMsiWindowBytes, 0, "MSI");
}

}  // namespace gpusoc::host
