#include "tests/unit/pcie/pcie_bench.h"

#include "models/common/stat.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpusoc::pcie::testing {
namespace {

MemoryTargetConfig memory(uint64_t base, uint64_t size, sc_core::sc_time latency,
                          double bytes_per_ns) {
  MemoryTargetConfig c;
  c.base = base;
  c.size = size;
  c.latency = latency;
  c.bytes_per_ns = bytes_per_ns;
  return c;
}

DeviceInfo device_info() {
  DeviceInfo d;
  d.vram_base = kVramBase;
  d.vram_bytes = kVramBytes;
  d.vram_allocatable_bytes = kVramBytes - 4 * kMiB;
  d.channels = 4;
  return d;
}

}  // namespace

void prepare(tlm::tlm_generic_payload& tx, tlm::tlm_command command, uint64_t address, void* data,
             unsigned bytes) {
  tx.set_command(command);
  tx.set_address(address);
  tx.set_data_ptr(static_cast<unsigned char*>(data));
  tx.set_data_length(bytes);
  tx.set_streaming_width(bytes);
  tx.set_byte_enable_ptr(nullptr);
  tx.set_dmi_allowed(false);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

double ns(const sc_core::sc_time& t) {
  return t.to_seconds() * 1e9;
}

MsiCatcher::MsiCatcher(sc_core::sc_module_name name) : sc_module(name) {
  socket.register_b_transport(this, &MsiCatcher::b_transport);
}

void MsiCatcher::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  uint32_t data = 0;
  std::memcpy(&data, tx.get_data_ptr(), std::min(4u, tx.get_data_length()));
  received.push_back({tx.get_address(), data, sc_core::sc_time_stamp() + delay});
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

PcieBench::PcieBench(const BenchOptions& options, sc_core::sc_module_name name)
    : sc_module(name),
      config(options.config),
      device(device_info()),
      endpoint("gpu_pcie", config, device, stats),
      host_bus("host_bus"),
      host_memory("host_memory", memory(0, kHostMemoryBytes, options.host_latency, 0), stats),
      msi("msi"),
      bar0_bus("bar0_bus"),
      vram("vram", memory(kVramBase, kVramBytes, options.vram_latency, options.vram_bytes_per_ns),
           stats) {
  cfg_port.bind(check_cfg.target);
  check_cfg.initiator.bind(endpoint.config_target);
  mem_port.bind(check_mem.target);
  check_mem.initiator.bind(endpoint.mem_target);
  bar0_port.bind(check_bar0.target);
  check_bar0.initiator.bind(endpoint.bar0_target);
  bar1_port.bind(check_bar1.target);
  check_bar1.initiator.bind(endpoint.bar1_target);
  mem_port.register_invalidate_direct_mem_ptr(this, &PcieBench::mem_invalidated);
  bar1_port.register_invalidate_direct_mem_ptr(this, &PcieBench::bar1_invalidated);
  unit_port.bind(endpoint.upstream_target);
  endpoint.dma_initiator.bind(check_dma.target);
  check_dma.initiator.bind(host_bus.target);
  host_bus.initiator.bind(host_memory.target);
  host_bus.initiator.bind(msi.socket);
  host_bus.map(0, 0, kHostMemoryBytes, 0, "host memory");
  host_bus.map(1, kMsiAddress, 0x1000, kMsiAddress, "MSI");
  endpoint.reg_initiator.bind(check_reg.target);
  check_reg.initiator.bind(bar0_bus.target);
  endpoint.vram_initiator.bind(vram.target);
  endpoint.irq_out.bind(irq);
  for (uint32_t i = 0; i < config.copy_engines; ++i) {
    engines.push_back(std::make_unique<CopyEngine>(sc_core::sc_gen_unique_name("copy_engine"), i,
                                                   config, device, stats));
    CopyEngine& ce = *engines.back();
    ce.dma_initiator.bind(endpoint.upstream_target);
    ce.vram_initiator.bind(vram.target);
    ce.interrupt_out.bind(endpoint.interrupt_in);
    bar0_bus.initiator.bind(ce.mmio_target);
    bar0_bus.map(i, bar0::copy_engine_offset(i, 0), bar0::kCopyEngineStride, 0, "copy engine");
  }
}

double PcieBench::stat(const std::string& path) const {
  for (const StatGroup* group : stats.children()) {
    for (const Stat* s : group->stats()) {
      if (s->path() == path) return s->to_json().is_number() ? s->to_json().get<double>() : NAN;
    }
  }
  return NAN;
}

size_t PcieBench::violations() const {
  return check_cfg.violations().size() + check_mem.violations().size() +
         check_dma.violations().size() + check_reg.violations().size() +
         check_bar0.violations().size() + check_bar1.violations().size();
}

void PcieBench::spawn(std::function<void()> body) {
  sc_core::sc_spawn(std::move(body));
}

tlm::tlm_response_status PcieBench::access(tlm_utils::simple_initiator_socket<PcieBench>& port,
                                           tlm::tlm_command command, uint64_t address, void* data,
                                           unsigned bytes) {
  tlm::tlm_generic_payload tx;
  prepare(tx, command, address, data, bytes);
  last_delay = sc_core::SC_ZERO_TIME;
  port->b_transport(tx, last_delay);
  wait(last_delay);
  return tx.get_response_status();
}

uint32_t PcieBench::cfg_read(uint32_t offset, unsigned bytes) {
  uint32_t value = 0;
  access(cfg_port, tlm::TLM_READ_COMMAND, offset, &value, bytes);
  return value;
}

void PcieBench::cfg_write(uint32_t offset, uint32_t value, unsigned bytes) {
  access(cfg_port, tlm::TLM_WRITE_COMMAND, offset, &value, bytes);
}

uint32_t PcieBench::bar0_read(uint32_t offset, tlm::tlm_response_status* status) {
  uint32_t value = 0;
  const auto s = access(mem_port, tlm::TLM_READ_COMMAND, kBar0Address + offset, &value, 4);
  if (status != nullptr) *status = s;
  return value;
}

tlm::tlm_response_status PcieBench::bar0_write(uint32_t offset, uint32_t value) {
  return access(mem_port, tlm::TLM_WRITE_COMMAND, kBar0Address + offset, &value, 4);
}

unsigned PcieBench::bar0_peek(uint32_t offset, uint32_t& value) {
  tlm::tlm_generic_payload tx;
  prepare(tx, tlm::TLM_READ_COMMAND, kBar0Address + offset, &value, 4);
  return mem_port->transport_dbg(tx);
}

void PcieBench::enumerate(bool msi_enabled) {
  cfg_write(cfg::BAR0, static_cast<uint32_t>(kBar0Address));
  cfg_write(cfg::BAR0 + 4, static_cast<uint32_t>(kBar0Address >> 32));
  cfg_write(cfg::BAR1, static_cast<uint32_t>(kBar1Address));
  cfg_write(cfg::BAR1 + 4, static_cast<uint32_t>(kBar1Address >> 32));
  cfg_write(cfg::MSI_ADDRESS_LO, static_cast<uint32_t>(kMsiAddress));
  cfg_write(cfg::MSI_ADDRESS_HI, 0);
  cfg_write(cfg::MSI_DATA, kMsiData, 2);
  cfg_write(cfg::MSI_CONTROL, msi_enabled ? cfg::kMsiEnable : 0, 2);
  cfg_write(cfg::COMMAND, cfg::kCommandMemorySpace | cfg::kCommandBusMaster, 2);
}

}  // namespace gpusoc::pcie::testing
