// What drives the memory system below the SMs sees of it, whichever way it is assembled: the
// fused MemoryHierarchy (memory.model = hierarchy: one orchestrator stepping plain C++ parts)
// or the ModuleHierarchy (memory.model = tlm: the same parts as SystemC modules bound by
// TLM-2.0 sockets). Its owners (the SoC's MemorySystem, memtrace's TraceDriver) offer packets
// at a cycle, ask when the next thing happens, advance to it and collect the replies.
//
// Cycles are the network's clock (the crossbar and L2 clock, or in partition mode the DRAM
// command clock).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/common/mem_packet.h"

namespace gpusoc {
namespace mempart {
class AddressMapping;
class MemoryPartition;
class Rop;
}  // namespace mempart
namespace l2 {
class L2Slice;
}
}  // namespace gpusoc

namespace gpusoc::memsys {

struct HierarchyCompletion {
  MemPacket packet;  // as offered (source: the port)
  uint64_t cycle;    // the reply reached its port
};

class PacketNetwork {
 public:
  static constexpr uint64_t kNever = ~uint64_t(0);
  virtual ~PacketNetwork() = default;

  /// Picoseconds per cycle of the network's clock.
  virtual double cycle_ps() const = 0;
  /// Bytes per L2 line: what one packet may span.
  virtual uint32_t line_bytes() const = 0;
  virtual const mempart::AddressMapping& mapping() const = 0;
  /// The packet for the bytes of [next, end) that lie in next's line (the sectors they touch;
  /// id, op and source left for the caller), and in `stop` where the following packet starts.
  MemPacket line_packet(uint64_t next, uint64_t end, uint64_t& stop) const;

  virtual bool can_offer(uint32_t port, const MemPacket& packet) const = 0;
  /// Changes whenever room may have appeared for the packet can_offer() last refused from
  /// `port`: until it does, asking again is futile.
  virtual uint64_t room_version(uint32_t port) const = 0;
  /// Offers `packet` (within one line) from `port` at `cycle`, not before the last cycle
  /// advanced to. ModelError when can_offer() is false.
  virtual void offer(uint32_t port, const MemPacket& packet, uint64_t cycle) = 0;
  /// The first cycle at which advance() would do anything; whoever drives the network stops
  /// when in_flight() is 0 (refreshes due meanwhile are caught up later, in order).
  virtual uint64_t next_event() const = 0;
  /// Packets offered whose reply has not reached its port.
  virtual uint64_t in_flight() const = 0;
  /// Runs every event at cycles <= until; replies that reach their port go to `done` in
  /// arrival order.
  virtual void advance(uint64_t until, std::vector<HierarchyCompletion>& done) = 0;
  /// Inside a running simulation, where the network runs by itself: called when a reply
  /// arrives or room appears, for its owner to come and advance (a wake-up, never a re-entry).
  virtual void on_activity(std::function<void()> wake) { (void)wake; }

  // The parts, for statistics and reports.
  virtual bool through_l2() const = 0;
  virtual uint32_t partitions() const = 0;  // our partition models (none: a memory of yours)
  virtual const mempart::MemoryPartition& partition(uint32_t i) const = 0;
  virtual uint32_t slices() const = 0;  // L2 slices (and ROPs): one per partition, or none
  virtual const l2::L2Slice& slice(uint32_t i) const = 0;
  virtual const mempart::Rop& rop(uint32_t i) const = 0;
  /// The DRAM cycle that network cycle `cycle` has reached.
  virtual uint64_t dram_cycle(uint64_t cycle) const = 0;
  /// The last cycle advanced to.
  virtual uint64_t last_cycle() const = 0;
};

}  // namespace gpusoc::memsys
