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
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/mempart/address_mapping.h"
#include "models/mempart/dram_timing.h"
#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {

// A partition's packets; each channel's controller adds its own group (channel0, ...) below.
struct PartitionStats : StatGroup {
  PartitionStats(StatGroup& parent, std::string name) : StatGroup(parent, std::move(name)) {}
  Counter packets{*this, "packets", "packets", "packets accepted"};
  Counter read_packets{*this, "read_packets", "packets", "read and atomic packets accepted"};
  Counter write_packets{*this, "write_packets", "packets", "write packets accepted"};
  Counter bursts{*this, "bursts", "bursts", "DRAM bursts the packets split into"};
  Counter read_latency_cycles{*this, "read_latency_cycles", "cycles",
                              "sum over read packets of the cycles from acceptance to the last "
                              "burst's data"};
  Formula read_latency_avg{*this, "read_latency_avg", "cycles",
                           "average cycles from a read packet's acceptance to its last burst's "
                           "data",
                           [this] {
                             return double(read_latency_cycles.value()) /
                                    double(read_packets.value());
                           }};
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
  /// Statistics go in `stats_parent`.partition<index>, each channel's in .channel<c> below it.
  MemoryPartition(uint32_t index, const AddressMapping& mapping,
                  std::shared_ptr<const DramTiming> timing, const ControllerConfig& controller,
                  StatGroup& stats_parent, const std::string& prefix = "memory",
                  uint32_t pipeline_tck = 0);
  ~MemoryPartition();
  MemoryPartition(MemoryPartition&&) noexcept;  // an owner may keep partitions by value
  MemoryPartition& operator=(MemoryPartition&&) = delete;  // its statistics group would go

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
  /// The group the partition's statistics live in, for what sits beside it (its L2 slice, ROP).
  StatGroup& stats_group();
  /// Passes every issued command of every channel (with its channel index) to `observer`.
  void set_command_observer(std::function<void(uint32_t channel, const DramCommand&)> observer);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusoc::mempart
