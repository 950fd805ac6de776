// What a channel's thread uses of the command processor that owns it: its configuration, its
// DMA path to host memory, the module loader, and the ports to the CTA distributor, the copy
// engines and the interrupt controller. One instance, shared by all channels.
#pragma once

#include <systemc>

#include "models/common/interrupt.h"
#include "models/gigathread/command_stats.h"
#include "models/gigathread/gigathread_config.h"
#include "models/gigathread/grid_executor.h"
#include "models/gigathread/memcheck_unit.h"
#include "models/gigathread/memory_port.h"
#include "models/gigathread/module_loader.h"
#include "models/pcie/copy_service.h"

namespace gpusoc::gigathread {

struct CommandServices {
  const GigaThreadConfig& config;
  MemoryPort& host;  // DMA to and from host memory
  ModuleLoader& modules;
  const MemcheckUnit& memcheck;  // launches run with its map while checking is on
  sc_core::sc_port<GridExecutor>& grid;
  sc_core::sc_port<pcie::CopyService, 0>& copy_engines;
  sc_core::sc_port<InterruptSink>& interrupts;
  CommandStats& total;
};

}  // namespace gpusoc::gigathread
