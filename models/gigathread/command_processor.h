// The GigaThread engine's command processor: the command channels behind BAR0 (bar0::CH_*),
// each fetching command packets by DMA from its ring in host memory when its doorbell rings
// and executing them in order; the module loader; and the ports to the units that do the work.
// Channels run concurrently: kernels of different channels overlap on the SMs, the packets of
// one channel never do. The protocol is in docs/commands.md.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/interrupt.h"
#include "models/common/register_block.h"
#include "models/common/stat_group.h"
#include "models/gigathread/channel.h"
#include "models/gigathread/command_services.h"
#include "models/gigathread/command_stats.h"
#include "models/gigathread/gigathread_config.h"
#include "models/gigathread/grid_executor.h"
#include "models/gigathread/memcheck_unit.h"
#include "models/gigathread/memory_port.h"
#include "models/gigathread/module_loader.h"
#include "models/pcie/copy_service.h"

namespace gpusoc::gigathread {

class CommandProcessor : public sc_core::sc_module {
 public:
  /// The channels' registers; address = channel * bar0::kChannelStride + register offset
  /// (relative to bar0::kChannelBase).
  tlm_utils::simple_target_socket<CommandProcessor> mmio_target;
  /// The memory checker's registers (bar0::MC_*, relative to bar0::kMemcheckBase).
  tlm_utils::simple_target_socket<CommandProcessor> memcheck_target;
  /// DMA to host memory: ring fetches, descriptors, parameters, fences, results, error logs.
  tlm_utils::simple_initiator_socket<CommandProcessor> dma_initiator;
  /// Device memory: PTX text of ModuleLoad, initial values of module variables (DMI when given).
  tlm_utils::simple_initiator_socket<CommandProcessor> vram_initiator;
  sc_core::sc_port<GridExecutor> grid_out;
  /// Copy engines in BAR0 order: HostToDevice copies go to engine 0, DeviceToHost to engine 1
  /// (0 when there is one), DeviceToDevice copies and memsets to the last.
  sc_core::sc_port<pcie::CopyService, 0> copy_engines;
  sc_core::sc_port<InterruptSink> interrupt_out;

  /// Statistics go in a group named after the module (the totals), one child per channel.
  CommandProcessor(sc_core::sc_module_name name, const GigaThreadConfig& config,
                   StatGroup& stats_parent);
  ~CommandProcessor() override;

  /// The registers of every channel (bar0::CH_*), for docs/registers.md.
  static const std::vector<RegisterSpec>& channel_register_specs();

  uint32_t channel_count() const { return uint32_t(channels_.size()); }
  Channel& channel(uint32_t index) { return *channels_.at(index); }
  const ModuleLoader& modules() const { return loader_; }
  const MemcheckUnit& memcheck() const { return memcheck_; }
  const CommandStats& stats() const { return stats_; }
  const GigaThreadConfig& config() const { return config_; }

  /// A reset begins: every channel stops (see Channel::stop()).
  void stop();
  /// No channel executes anything or has anything pending.
  bool idle() const;
  /// A reset ends (idle): channels and the memory checker at their reset values, every module
  /// unloaded.
  void reset();

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  void memcheck_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned memcheck_transport_dbg(tlm::tlm_generic_payload& tx);
  void invalidate_vram_dmi(sc_dt::uint64 start, sc_dt::uint64 end);
  /// The channel an MMIO address falls in, with the address made relative to it; null (and the
  /// payload answered TLM_ADDRESS_ERROR_RESPONSE) when there is none.
  Channel* route(tlm::tlm_generic_payload& tx, uint64_t& restore);

  GigaThreadConfig config_;
  CommandStats stats_;
  MemoryPort host_;
  MemoryPort vram_;
  MemcheckUnit memcheck_;
  ModuleLoader loader_;
  CommandServices services_;
  std::vector<std::unique_ptr<Channel>> channels_;
};

}  // namespace gpusoc::gigathread
