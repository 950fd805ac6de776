// The command processor's statistics: one group per channel and one with the totals (the
// command processor's own group), counted together.
#pragma once

#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/gigathread/packets.h"

namespace gpusoc::gigathread {

struct CommandStats : StatGroup {
  CommandStats(StatGroup& parent, const std::string& name) : StatGroup(parent, name) {}

  Counter packets{*this, "packets", "packets", "packets fetched and executed"};
  Counter nop_packets{*this, "nop_packets", "packets", "Nop packets"};
  Counter launch_packets{*this, "launch_packets", "packets", "Launch packets"};
  Counter copy_packets{*this, "copy_packets", "packets", "Copy packets"};
  Counter memset_packets{*this, "memset_packets", "packets", "Memset packets"};
  Counter sem_acquire_packets{*this, "sem_acquire_packets", "packets", "SemAcquire packets"};
  Counter sem_release_packets{*this, "sem_release_packets", "packets", "SemRelease packets"};
  Counter fence_packets{*this, "fence_packets", "packets", "Fence packets"};
  Counter module_load_packets{*this, "module_load_packets", "packets", "ModuleLoad packets"};
  Counter module_unload_packets{*this, "module_unload_packets", "packets", "ModuleUnload packets"};
  Counter launches{*this, "launches", "grids", "grids handed to the CTA distributor"};
  Counter copies{*this, "copies", "copies", "copies and memsets handed to copy engines"};
  Counter bytes{*this, "bytes", "bytes", "bytes of the copies and memsets handed to engines"};
  Counter errors{*this, "errors", "packets", "packets that failed (each, latched or not)"};
  Counter semaphore_wait_ps{*this, "semaphore_wait_ps", "ps",
                            "simulated time SemAcquire packets took, semaphore reads included"};

  /// The counter of `op`, or null for an opcode outside the enumeration.
  Counter* packets_of(cmd::Opcode op) {
    switch (op) {
      case cmd::Opcode::Nop:
        return &nop_packets;
      case cmd::Opcode::Launch:
        return &launch_packets;
      case cmd::Opcode::Copy:
        return &copy_packets;
      case cmd::Opcode::Memset:
        return &memset_packets;
      case cmd::Opcode::SemAcquire:
        return &sem_acquire_packets;
      case cmd::Opcode::SemRelease:
        return &sem_release_packets;
      case cmd::Opcode::Fence:
        return &fence_packets;
      case cmd::Opcode::ModuleLoad:
        return &module_load_packets;
      case cmd::Opcode::ModuleUnload:
        return &module_unload_packets;
    }
    return nullptr;
  }
};

/// Counts into a channel's group and the totals at once.
class StatPair {
 public:
  StatPair(CommandStats& channel, CommandStats& total) : channel_(channel), total_(total) {}
  void add(Counter CommandStats::*counter, uint64_t n = 1) {
    (channel_.*counter) += n;
    (total_.*counter) += n;
  }
  void add_packet(cmd::Opcode op) {
    add(&CommandStats::packets);
    if (Counter* c = channel_.packets_of(op)) *c += 1;
    if (Counter* c = total_.packets_of(op)) *c += 1;
  }

 private:
  CommandStats& channel_;
  CommandStats& total_;
};

}  // namespace gpusoc::gigathread
