// The GPU as one SystemC module, assembled from the configuration: the PCIe endpoint and its
// copy engines, the GigaThread engine (command processor and CTA distributor), the SMs of every
// GPC and TPC, and device memory. From outside it is a PCIe device: bind the endpoint's sockets
// to a root port (HostSystem does) and drive it through BAR0, BAR1 and DMA.
//
// The SMs reach device memory through the memory system (crossbar, L2 slices, partitions with
// DRAM timing), which keeps the data in `vram`; BAR1, the copy engines and the command processor
// use `vram` directly. memory.model=flat puts the SMs on `vram` too (one latency, one bandwidth).
//
// Reset, by a Function Level Reset through config space or by the `rst` input: the endpoint
// leaves the link at once (config reads all ones); the channels stop, every running grid fails
// and its CTAs leave the SMs; once nothing runs, the channels, copy engines' registers, memory
// checker and module table go back to power-on, and VRAM is erased. Then the function answers
// again (or, under `rst`, when the input falls). The SMs' caches, L2 and DRAM keep their
// timing-only state, and requests already in the memory system drain (docs/embedding.md).
#pragma once

#include <memory>
#include <vector>

#include <systemc>

#include "models/common/checked_bindings.h"
#include "models/common/config.h"
#include "models/common/memory_target.h"
#include "models/common/stat_group.h"
#include "models/common/tlm_router.h"
#include "models/gigathread/command_processor.h"
#include "models/gigathread/cta_dispatcher.h"
#include "models/memsys/hierarchy_params.h"
#include "models/memsys/memory_system.h"
#include "models/pcie/copy_engine.h"
#include "models/pcie/pcie_endpoint.h"
#include "models/sm/cycle_sm.h"
#include "models/sm/loosely_timed_sm.h"
#include "models/tex/texture_unit.h"
#include "platform/gpu_spec.h"
#include "platform/launch_counters.h"

namespace gpusoc::platform {

/// Whether the configuration puts protocol checkers on every binding (platform.check_tlm_protocol).
bool check_tlm_protocol(const Config& config);
/// The SMs' fidelity, sm.model: "lt" or "cycle".
std::string sm_model(const Config& config);
/// One line on the SMs: their fidelity and SIMT model and, for the cycle-level SM, its main
/// structure. Every command that runs kernels prints it, since configurations leave sm.model
/// at its default.
std::string sm_summary(const Config& config);
/// The SMs' SIMT model (sm.simt_model, with its own parameters), for whatever runs kernels: the
/// SoC's SMs or the bare functional core.
std::shared_ptr<const ptx::SimtModel> simt_model(const Config& config);
/// What one SM holds at once, as the specification says.
gigathread::SmLimits sm_limits(const GpuSpec& spec);
/// The GigaThread engine's configuration: its own parameters, VRAM and the SMs' limits from the
/// specification; checked.
gigathread::GigaThreadConfig gigathread_config(const GpuSpec& spec, const Config& config);
/// What the PCIe endpoint reports of the GPU the configuration describes (BAR0's VRAM, channel
/// and texture-limit registers).
pcie::DeviceInfo device_info(const Config& config);
/// The bare functional core configured as the GPU the configuration describes: its SMs, their
/// limits and register file, device memory, SIMT model.
ptx::DeviceOptions functional_device_options(const Config& config);
/// The memory the specification describes, for the memory hierarchy: device memory from `base`,
/// one port per SM.
memsys::MemoryDescription memory_description(const GpuSpec& spec, uint64_t base);

class GpuSoc : public sc_core::sc_module {
 public:
  /// Reset input, as VP libraries give every component one; optional. Active high: a rising
  /// edge resets the GPU as a conventional reset does, and it stays in reset while high.
  sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> rst;

  GpuSoc(sc_core::sc_module_name name, const Config& config, StatGroup& stats_parent);
  ~GpuSoc() override;

  /// The PCIe endpoint: config_target, mem_target and dma_initiator face the root port.
  pcie::PcieEndpoint& endpoint() { return *endpoint_; }
  const GpuSpec& spec() const { return spec_; }
  /// With memory.model = tlm and memory.tlm.external_memory: L2 slice p's memory socket, for
  /// the platform to bind its own memory model's target in place of partition p (before
  /// simulation starts; docs/memory.md). ConfigError otherwise.
  tlm_utils::simple_initiator_socket<l2::L2SliceModule>& memory_socket(uint32_t p);
  /// With memory.model = tlm and memory.tlm.external_slices: the crossbar's socket towards the
  /// L2 slices, for the platform to bind its own L2 once per partition, in partition order
  /// (docs/memory.md). ConfigError otherwise.
  tlm_utils::multi_passthrough_initiator_socket<xbar::CrossbarModule>& slice_socket();
  gigathread::CtaDispatcher& dispatcher() { return *dispatcher_; }
  /// The SMs' path to memory (crossbar, L2, partitions); null with memory.model = flat.
  memsys::MemorySystem* memory_system() { return memory_system_.get(); }
  MemoryTarget& vram() { return *vram_; }
  /// The legacy interrupt wire (INTA#), for a platform without MSI: bind an interrupt
  /// controller's sc_in<bool> to it. PCI rules: high while an enabled cause is pending, MSI is
  /// off and the Command register's Interrupt Disable is clear.
  const sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS>& intx() const { return irq_; }

  /// Every TLM binding of the GPU goes through here: through a base-protocol checker when the
  /// configuration asks for them (platform.check_tlm_protocol).
  template <typename Initiator, typename Target>
  void connect(Initiator& initiator, Target& target, const std::string& label) {
    bindings_.connect(initiator, target, label);
  }
  size_t protocol_violations() const { return bindings_.violations(); }
  size_t protocol_checkers() const { return bindings_.checkers(); }

 private:
  /// An SM's or texture unit's memory path: the memory system, or device memory directly
  /// (memory.model = flat).
  template <typename Initiator>
  void connect_to_memory(Initiator& initiator, const std::string& label) {
    if (memory_system_) {
      connect(initiator, memory_system_->target, label);
    } else {
      connect(initiator, vram_->target, label);
    }
  }

  GpuSpec spec_;
  CheckedBindings bindings_;
  StatGroup stats_;
  std::unique_ptr<MemoryTarget> vram_;  // the data, and device memory for PCIe and DMA
  std::unique_ptr<memsys::MemorySystem> memory_system_;  // the SMs' path, unless memory.model=flat
  std::unique_ptr<pcie::PcieEndpoint> endpoint_;
  std::unique_ptr<TlmRouter> register_bus_;
  std::vector<std::unique_ptr<pcie::CopyEngine>> copy_engines_;
  std::unique_ptr<gigathread::CommandProcessor> command_processor_;
  std::unique_ptr<gigathread::CtaDispatcher> dispatcher_;
  void start_of_simulation() override;
  void run_resets();  // SC_THREAD: carries out each reset (see above)
  void stop_work();
  void make_conventional();  // the reset under way becomes a conventional one (the input rose)
  void add_texture_units(const Config& config, uint32_t count);
  void add_sms(const Config& config, uint32_t count);
  std::vector<std::unique_ptr<sc_core::sc_module>> sms_;          // LooselyTimedSm or CycleSm
  std::vector<std::unique_ptr<tex::TextureUnit>> texture_units_;  // per TPC, or per SM
  std::unique_ptr<sm::KernelCycleStats> kernel_stats_;  // cycle-level SMs' per-kernel counts
  std::unique_ptr<SocLaunchCounters> launch_counters_;  // what each launch's record adds
  // Raised from whichever process latches an interrupt cause.
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> irq_;
  sc_core::sc_event flr_requested_;
  bool conventional_ = false;  // the reset under way is a conventional one
};

}  // namespace gpusoc::platform
