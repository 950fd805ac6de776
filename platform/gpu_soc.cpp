#include "platform/gpu_soc.h"

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/pcie/bar0_map.h"
#include "models/ptx/address_space.h"
#include "models/ptx/inst.h"

namespace gpusoc::platform {
namespace {

// Device memory under memory.model = flat (no crossbar, L2 or DRAM timing): one latency, one
// bandwidth, and a bounded request queue per initiator on the approximately timed path.
const Param<double> kLatencyNs{"devmem.latency_ns", 440.0, "ns",
                               "device memory access latency seen by the loosely timed path "
                               "(about 600 shader cycles on the 8800 GTX)",
                               Range{0, 1e6}};
const Param<double> kBandwidthGbps{"devmem.bandwidth_gbps", 0.0, "GB/s",
                                   "device memory bandwidth; 0: the peak the memory.* "
                                   "parameters imply",
                                   Range{0, 1e6}};
const Param<uint32_t> kQueueDepth{"devmem.queue_depth", 64, "requests",
                                  "requests of one initiator in service at once on the "
                                  "approximately timed (nb_transport) path; more wait for END_REQ "
                                  "(0: unlimited)",
                                  Range{0, 65536}};

const Param<std::string> kSmModel{"sm.model", "lt", "",
                                  "SM fidelity: lt (loosely timed: fast, per-class issue costs) "
                                  "or cycle (cycle-level: schedulers, scoreboard, pipelines, LSU, "
                                  "caches)",
                                  OneOf{"lt", "cycle"}};
const Param<std::string> kSimtModel{
    "sm.simt_model", "stack", "", "how warps run divergent paths: " + ptx::simt_models().describe(),
    ptx::simt_models().choices()};

const Param<bool> kCheckProtocol{"platform.check_tlm_protocol", false, "",
                                 "put a TLM-2.0 base-protocol checker on every socket binding "
                                 "(slower; the tests turn it on)"};

}  // namespace

pcie::DeviceInfo device_info(const Config& config) {
  const GpuSpec spec = GpuSpec::from_config(config);
  const gigathread::GigaThreadConfig gt = gigathread_config(spec, config);
  pcie::DeviceInfo device;
  device.vram_base = ptx::kGlobalBase;
  device.vram_bytes = spec.memory.capacity_bytes;
  device.vram_allocatable_bytes = spec.memory.capacity_bytes - gt.firmware_heap_bytes;
  device.channels = gt.channels;
  device.texture_limits = tex::texture_limits(config);
  return device;
}

GpuSoc::GpuSoc(sc_core::sc_module_name name, const Config& config, StatGroup& stats_parent)
    : sc_module(name),
      rst("rst"),
      spec_(GpuSpec::from_config(config)),
      bindings_(kCheckProtocol.get(config)),
      stats_(stats_parent, basename()) {
  // The clocks are picoseconds (models/common/picoseconds.h); each hand-off through SystemC time
  // rounds to its resolution, which beyond 1 ns would be a fair part of a clock cycle.
  if (sc_core::sc_get_time_resolution() > sc_core::sc_time(1, sc_core::SC_NS)) {
    throw ModelError(this->name(),
                     fmt::format("SystemC's time resolution is {}: the GPU needs 1 ns or finer "
                                 "(sc_set_time_resolution before any sc_time is made)",
                                 sc_core::sc_get_time_resolution().to_string()));
  }
  if (spec_.sm.warp_size != ptx::kWarpSize) {
    throw ConfigError(
        fmt::format("{}: sm.warp_size = {}: the SMs run {}-thread warps, as PTX "
                    "defines them",
                    config.origin("sm.warp_size"), spec_.sm.warp_size, ptx::kWarpSize));
  }
  MemoryTargetConfig memory;
  memory.base = ptx::kGlobalBase;
  memory.size = spec_.memory.capacity_bytes;
  memory.latency = sc_core::sc_time(kLatencyNs.get(config), sc_core::SC_NS);
  const double gbps = kBandwidthGbps.get(config);
  memory.bytes_per_ns = gbps > 0 ? gbps : spec_.peak_dram_gbytes_per_s();  // 1 GB/s = 1 B/ns
  memory.queue_depth = kQueueDepth.get(config);
  vram_ = std::make_unique<MemoryTarget>("vram", memory, stats_);

  const gigathread::GigaThreadConfig gt = gigathread_config(spec_, config);

  const pcie::PcieConfig link = pcie::PcieConfig::from_config(config);
  const pcie::DeviceInfo device = device_info(config);
  endpoint_ = std::make_unique<pcie::PcieEndpoint>("pcie", link, device, stats_);
  connect(endpoint_->vram_initiator, vram_->target, "bar1_vram");
  endpoint_->irq_out.bind(irq_);

  // BAR0 beyond the endpoint's own registers: the copy engines, the channels, the memory checker.
  register_bus_ = std::make_unique<TlmRouter>("register_bus");
  connect(endpoint_->reg_initiator, register_bus_->target, "bar0_registers");
  for (uint32_t i = 0; i < link.copy_engines; ++i) {
    copy_engines_.push_back(std::make_unique<pcie::CopyEngine>(
        ("copy_engine" + std::to_string(i)).c_str(), i, link, device, stats_));
    pcie::CopyEngine& ce = *copy_engines_.back();
    connect(register_bus_->initiator, ce.mmio_target, std::string(ce.basename()) + "_mmio");
    register_bus_->map(i, bar0::copy_engine_offset(i, 0), bar0::kCopyEngineStride, 0,
                       ce.basename());
    connect(ce.dma_initiator, endpoint_->upstream_target, std::string(ce.basename()) + "_dma");
    connect(ce.vram_initiator, vram_->target, std::string(ce.basename()) + "_vram");
    ce.interrupt_out.bind(endpoint_->interrupt_in);
  }
  command_processor_ =
      std::make_unique<gigathread::CommandProcessor>("command_processor", gt, stats_);
  gigathread::CommandProcessor& cp = *command_processor_;
  connect(register_bus_->initiator, cp.mmio_target, "channels_mmio");
  register_bus_->map(link.copy_engines, bar0::kChannelBase, gt.channels * bar0::kChannelStride, 0,
                     "channels");
  connect(register_bus_->initiator, cp.memcheck_target, "memcheck_mmio");
  register_bus_->map(link.copy_engines + 1, bar0::kMemcheckBase,
                     gigathread::MemcheckUnit::register_specs().back().offset + 4, 0, "memcheck");
  connect(cp.dma_initiator, endpoint_->upstream_target, "command_dma");
  connect(cp.vram_initiator, vram_->target, "command_vram");
  cp.interrupt_out.bind(endpoint_->interrupt_in);
  for (auto& ce : copy_engines_) cp.copy_engines.bind(*ce);

  gigathread::DispatcherConfig dispatch = gigathread::DispatcherConfig::from_config(config);
  dispatch.limits = sm_limits(spec_);
  for (uint32_t g = 0; g < spec_.gpu.gpcs; ++g)
    for (uint32_t t = 0; t < spec_.gpu.tpcs_per_gpc; ++t)
      for (uint32_t s = 0; s < spec_.gpu.sms_per_tpc; ++s) dispatch.places.push_back({g, t, s});
  dispatch.simt_model = simt_model(config);
  dispatcher_ = std::make_unique<gigathread::CtaDispatcher>("cta_dispatcher", dispatch, stats_);
  cp.grid_out.bind(dispatcher_->grid_in);

  const uint32_t units_per_tpc = tex::texture_units_per_tpc(config);
  if (spec_.gpu.sms_per_tpc % units_per_tpc != 0) {
    throw ConfigError(fmt::format("{}: tex.units_per_tpc = {} does not divide gpu.sms_per_tpc = {}",
                                  config.origin("tex.units_per_tpc"), units_per_tpc,
                                  spec_.gpu.sms_per_tpc));
  }
  const uint32_t num_texture_units = spec_.gpu.gpcs * spec_.gpu.tpcs_per_gpc * units_per_tpc;
  if (memsys::memory_model(config) != "flat") {
    memsys::MemoryDescription described = memory_description(spec_, ptx::kGlobalBase);
    // A crossbar port per SM, then one per texture unit.
    described.ports = uint32_t(dispatch.places.size()) + num_texture_units;
    memsys::HierarchyConfig hierarchy = memsys::hierarchy_config_from(config, described);
    hierarchy.check_protocol = kCheckProtocol.get(config);
    memory_system_ = std::make_unique<memsys::MemorySystem>(
        "memory_system", hierarchy, ptx::kGlobalBase, spec_.memory.capacity_bytes, stats_);
    connect(memory_system_->backing, vram_->target, "memory_system_data");
  }
  add_texture_units(config, num_texture_units);
  add_sms(config, uint32_t(dispatch.places.size()));
  // After the SMs: the memory system's ports are the SMs', then the texture units'.
  for (auto& unit : texture_units_)
    connect_to_memory(unit->mem_initiator, std::string(unit->basename()) + "_mem");
  launch_counters_ = std::make_unique<SocLaunchCounters>(kernel_stats_.get(), memory_system_.get(),
                                                         texture_units_);
  dispatcher_->set_launch_counters(launch_counters_.get());

  endpoint_->on_function_level_reset([this] { flr_requested_.notify(sc_core::SC_ZERO_TIME); });
  SC_HAS_PROCESS(GpuSoc);
  SC_THREAD(run_resets);
}

// An input high from the start holds the GPU in reset before any process runs, so that a CPU's
// first config read at time 0 already finds no function.
void GpuSoc::start_of_simulation() {
  if (rst.size() > 0 && rst->read()) make_conventional();
}

void GpuSoc::run_resets() {
  const bool wired = rst.size() > 0;
  bool held_from_start = conventional_;  // no edge to wait for
  for (;;) {
    if (!held_from_start) {
      if (wired) {
        wait(flr_requested_ | rst->posedge_event());
      } else {
        wait(flr_requested_);
      }
      conventional_ = false;  // an FLR entered the endpoint's reset at the config write
      if (wired && rst->read()) make_conventional();
    }
    held_from_start = false;
    stop_work();
    command_processor_->reset();
    for (auto& ce : copy_engines_) ce->reset_registers();
    vram_->erase();
    while (wired && rst->read()) {
      make_conventional();  // the input rose during an FLR, and stays high
      wait(rst->negedge_event());
    }
    endpoint_->leave_reset();
  }
}

void GpuSoc::make_conventional() {
  if (conventional_) return;
  conventional_ = true;
  endpoint_->enter_reset(false);
}

// Stops every channel, aborts every copy and fails every grid, and waits until their CTAs have
// left the SMs and the channels have ended what they were doing (their DMA is refused now: Bus
// Master Enable is clear).
void GpuSoc::stop_work() {
  command_processor_->stop();
  for (auto& ce : copy_engines_) ce->abort();
  const sc_core::sc_time poll(100, sc_core::SC_NS), limit(1, sc_core::SC_SEC);
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  for (;;) {
    // Again at every turn: a packet in execution when the channels stopped may launch a grid.
    dispatcher_->fail_all("the GPU was reset");
    if (command_processor_->idle() && dispatcher_->idle()) return;
    if (sc_core::sc_time_stamp() - start > limit) {
      throw ModelError(name(), "reset: the channels and SMs did not stop within 1 s");
    }
    if (rst.size() == 0) {
      wait(poll);
      continue;
    }
    wait(poll, rst->posedge_event());  // a pulse of the input during an FLR makes it conventional
    if (rst->posedge()) make_conventional();
  }
}

void GpuSoc::add_texture_units(const Config& config, uint32_t count) {
  tex::TextureUnitConfig c = tex::TextureUnitConfig::from_config(config);
  c.clock_mhz = spec_.clock.shader_mhz;
  for (uint32_t i = 0; i < count; ++i) {
    texture_units_.push_back(
        std::make_unique<tex::TextureUnit>(("tex" + std::to_string(i)).c_str(), c, stats_));
  }
}

// The SMs, of the fidelity sm.model asks for; the rest of the GPU is the same either way.
void GpuSoc::add_sms(const Config& config, uint32_t count) {
  // The SMs bind first (crossbar ports 0 to count-1), then the texture units.
  const uint32_t sms_per_unit = count / uint32_t(texture_units_.size());  // SMs come TPC by TPC
  auto add = [&](auto sm) {
    connect_to_memory(sm->mem_initiator, std::string(sm->basename()) + "_mem");
    const uint32_t i = uint32_t(sms_.size());
    tex::TextureUnit& unit = *texture_units_.at(i / sms_per_unit);
    connect(sm->tex_initiator, unit.sm_target, std::string(sm->basename()) + "_tex");
    dispatcher_->add_sm(*sm);
    sms_.push_back(std::move(sm));
  };
  if (sm_model(config) == "cycle") {
    sm::CycleSmConfig cycle = sm::CycleSmConfig::from_config(config);
    cycle.clock_mhz = spec_.clock.shader_mhz;
    cycle.warp_slots = spec_.sm.max_threads / ptx::kWarpSize;
    kernel_stats_ = std::make_unique<sm::KernelCycleStats>(stats_, cycle.warp_slots);
    for (uint32_t i = 0; i < count; ++i) {
      auto sm = std::make_unique<sm::CycleSm>(("sm" + std::to_string(i)).c_str(), i, cycle, stats_);
      sm->set_kernel_stats(*kernel_stats_);
      add(std::move(sm));
    }
    return;
  }
  sm::LtSmTiming timing = sm::LtSmTiming::from_config(config);
  timing.clock_mhz = spec_.clock.shader_mhz;
  for (uint32_t i = 0; i < count; ++i)
    add(std::make_unique<sm::LooselyTimedSm>(("sm" + std::to_string(i)).c_str(), i, timing,
                                             stats_));
}

tlm_utils::simple_initiator_socket<l2::L2SliceModule>& GpuSoc::memory_socket(uint32_t p) {
  memsys::ModuleHierarchy* modules = memory_system_ ? memory_system_->modules() : nullptr;
  if (!modules) {
    throw ConfigError(
        "GpuSoc::memory_socket: the memory system is not assembled from modules "
        "(memory.model = tlm)");
  }
  if (p >= modules->slices()) {
    throw ConfigError(
        fmt::format("GpuSoc::memory_socket({}): there are {} partitions", p, modules->slices()));
  }
  return modules->memory_socket(p);
}

tlm_utils::multi_passthrough_initiator_socket<xbar::CrossbarModule>& GpuSoc::slice_socket() {
  memsys::ModuleHierarchy* modules = memory_system_ ? memory_system_->modules() : nullptr;
  if (!modules) {
    throw ConfigError(
        "GpuSoc::slice_socket: the memory system is not assembled from modules "
        "(memory.model = tlm)");
  }
  return modules->slice_socket();
}

GpuSoc::~GpuSoc() = default;

bool check_tlm_protocol(const Config& config) {
  return kCheckProtocol.get(config);
}

std::string sm_model(const Config& config) {
  return kSmModel.get(config);
}

std::shared_ptr<const ptx::SimtModel> simt_model(const Config& config) {
  return ptx::make_simt_model(ptx::simt_models().choose(config));
}

gigathread::GigaThreadConfig gigathread_config(const GpuSpec& spec, const Config& config) {
  gigathread::GigaThreadConfig gt = gigathread::GigaThreadConfig::from_config(config);
  gt.vram_base = ptx::kGlobalBase;
  gt.vram_bytes = spec.memory.capacity_bytes;
  gt.max_threads_per_cta = spec.sm.max_threads_per_cta;
  gt.registers_per_sm = spec.sm.registers;
  gt.max_threads_per_sm = spec.sm.max_threads;
  gt.address_bits = spec.sm.address_bits;
  gt.register_allocation_unit = spec.sm.register_allocation_unit;
  gt.register_allocation_per_cta = spec.sm.register_allocation_per_cta;
  gt.check();
  return gt;
}

gigathread::SmLimits sm_limits(const GpuSpec& spec) {
  gigathread::SmLimits l;
  l.max_threads = spec.sm.max_threads;
  l.max_ctas = spec.sm.max_ctas;
  l.registers = spec.sm.registers;
  l.register_allocation_unit = spec.sm.register_allocation_unit;
  l.register_allocation_per_cta = spec.sm.register_allocation_per_cta;
  l.shared_memory_bytes = spec.sm.shared_memory_bytes;
  l.max_threads_per_cta = spec.sm.max_threads_per_cta;
  l.max_shared_per_cta = spec.sm.max_shared_per_cta;
  l.reserved_shared_per_cta = spec.sm.reserved_shared_per_cta;
  l.stack_bytes_per_thread = spec.sm.stack_bytes_per_thread;
  return l;
}

ptx::DeviceOptions functional_device_options(const Config& config) {
  const GpuSpec spec = GpuSpec::from_config(config);
  ptx::DeviceOptions o;
  o.num_sms = spec.total_sms();
  o.registers_per_sm = spec.sm.registers;
  o.max_threads_per_sm = spec.sm.max_threads;
  o.address_bits = spec.sm.address_bits;
  o.max_threads_per_cta = spec.sm.max_threads_per_cta;
  o.max_shared_bytes_per_cta = spec.sm.max_shared_per_cta;
  o.reserved_shared_bytes_per_cta = spec.sm.reserved_shared_per_cta;
  o.stack_bytes_per_thread = spec.sm.stack_bytes_per_thread;
  o.device_memory_bytes = spec.memory.capacity_bytes;
  o.simt_model = simt_model(config);
  o.watchdog = gigathread::DispatcherConfig::from_config(config).watchdog;
  o.texture_limits = tex::texture_limits(config);
  return o;
}

std::string sm_summary(const Config& config) {
  const std::string simt_text = std::string("SIMT ") + simt_model(config)->name();
  if (sm_model(config) != "cycle") return "loosely timed (sm.model=lt), " + simt_text;
  const sm::CycleSmConfig c = sm::CycleSmConfig::from_config(config);
  return fmt::format(
      "cycle-level (sm.model=cycle), {} processing blocks, {} scheduler, {} KiB L1, {} shared "
      "banks, {}",
      c.processing_blocks, c.scheduler.name, c.l1.size_bytes >> 10, c.shared.banks, simt_text);
}

memsys::MemoryDescription memory_description(const GpuSpec& spec, uint64_t base) {
  memsys::MemoryDescription m;
  m.type = spec.memory.type;
  m.partitions = spec.memory.partitions;
  m.partition_bus_bits = spec.memory.bus_width_bits;
  m.core_mhz = spec.clock.core_mhz;
  m.base = base;
  m.ports = spec.total_sms();
  return m;
}

}  // namespace gpusoc::platform
