// A memory partition as the L2 sees it: the DRAM channels behind one L2 slice's share of the
// address space, each with its memory controller (memory_controller.h). It takes packets of
// sectors (models/common/mem_packet.h), splits each into the DRAM bursts its sectors fall in,
// routes every burst by the address mapping to its channel, bank group, bank, row and column,
// and answers the packet when its last burst completes. Pure C++, cycle-counted in the DRAM
// command clock (tCK), event-driven like the controller.
//
// Contract:
//  - can_accept(p) says whether every controller p's bursts go to has room for them; accept()
//    then queues them (bounded: the controllers' queues are the only queues). A packet whose
//    address the mapping places in another partition is a ModelError.
//  - advance(until) advances every channel through `until`; a packet is answered when its last
//    burst's data completed (reads: the last beat left the device; writes: the data is
//    written), its reply ready pipeline_tck cycles after that.
//  - Replies come out in completion order (ties in acceptance order) through
//    reply_ready()/reply()/pop_reply(); the reply is the packet as accepted.
//  - next_event(): the earliest of the channels' next events and the first unanswered reply;
//    kNever when idle and no refresh is due.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/mem_packet.h"
#include "models/mempart/address_mapping.h"
#include "models/mempart/dram_timing.h"
#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {

struct PartitionStats {
  uint64_t packets = 0, read_packets = 0, write_packets = 0;
  uint64_t bursts = 0;
  uint64_t total_read_latency = 0;  // sum over read packets of (answered - accepted), tCK
};

class MemoryPartition {
 public:
  static constexpr uint64_t kNever = ~uint64_t(0);
  /// `mapping` (shared by every partition, outliving them) decides where addresses go; this is
  /// partition `index` of mapping.config().partitions, with mapping.config().channels channels.
  /// ConfigError naming `prefix`.key when the controller config is wrong.
  /// `timing` is shared by its channels' controllers (a memory system passes one to all).
  /// `pipeline_tck`: the frame-buffer pipeline a packet crosses beyond the DRAM's own timing
  /// (controller front end, PHY, the way back): each reply is ready that many cycles after its
  /// last burst completed. It delays, it never limits bandwidth.
  MemoryPartition(uint32_t index, const AddressMapping& mapping,
                  std::shared_ptr<const DramTiming> timing, const ControllerConfig& controller,
                  const std::string& prefix = "memory", uint32_t pipeline_tck = 0);
  ~MemoryPartition();
  MemoryPartition(MemoryPartition&&) noexcept;  // an owner may keep partitions by value
  MemoryPartition& operator=(MemoryPartition&&) noexcept;

  bool can_accept(const MemPacket& packet) const;
  void accept(const MemPacket& packet, uint64_t cycle);
  uint64_t next_event() const;
  void advance(uint64_t until);

  bool reply_ready(uint64_t cycle) const;
  const MemPacket& reply() const;
  void pop_reply();

  uint32_t channels() const;
  const MemoryController& controller(uint32_t channel) const;
  const PartitionStats& stats() const;
  /// Passes every issued command of every channel (with its channel index) to `observer`.
  void set_command_observer(std::function<void(uint32_t channel, const DramCommand&)> observer);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusoc::mempart
