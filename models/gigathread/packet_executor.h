// Executes one channel's packets, one at a time, each to completion: launches through the CTA
// distributor, copies and memsets through the copy engines, semaphores and fences by DMA to host
// memory, module loads through the loader. Called from the channel's thread; it waits for the
// work it starts. Reports what failed as an ErrorCode and a message for the error log.
#pragma once

#include <cstdint>
#include <string>

#include "models/gigathread/command_services.h"
#include "models/gigathread/command_stats.h"
#include "models/gigathread/grid_executor.h"
#include "models/gigathread/packets.h"

namespace gpusoc::gigathread {

struct PacketResult {
  cmd::ErrorCode error = cmd::ErrorCode::None;
  std::string message;  // what failed and why; empty on success
};

class PacketExecutor {
 public:
  /// `epoch` is the channel's enable epoch: a SemAcquire stops waiting when it changes, which
  /// `epoch_changed` announces.
  PacketExecutor(uint32_t channel, CommandServices& services, StatPair stats, const uint64_t& epoch,
                 const sc_core::sc_event& epoch_changed);

  PacketResult execute(const cmd::Packet& packet);

  /// The copy engine a copy in `direction` goes to among `engines` (memsets use DeviceToDevice's).
  static uint32_t engine_for(cmd::CopyDirection direction, uint32_t engines);

 private:
  PacketResult launch(const cmd::Packet& p);
  PacketResult copy(const cmd::Packet& p);
  PacketResult memset(const cmd::Packet& p);
  PacketResult sem_acquire(const cmd::Packet& p);
  PacketResult sem_release(const cmd::Packet& p);
  PacketResult fence(const cmd::Packet& p);
  PacketResult module_load(const cmd::Packet& p);
  PacketResult module_unload(const cmd::Packet& p);
  /// A DMA write of `bytes` to host memory; HostAccessFault naming `what` when refused.
  PacketResult host_write(uint64_t address, const void* data, uint64_t bytes, const char* what);

  CommandServices& services_;
  StatPair stats_;
  const uint64_t& epoch_;
  const sc_core::sc_event& epoch_changed_;
  GridRequest request_;  // reused: its parameter buffer keeps its capacity between launches
};

}  // namespace gpusoc::gigathread
