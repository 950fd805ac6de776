// One channel's ring buffer of 64-byte packets in pinned host memory. The host writes packets at
// PUT and publishes them by writing CH_PUT and CH_DOORBELL; the command processor fetches from
// GET. One slot always stays empty, so PUT == GET means empty. When the ring is full, push()
// publishes what it has and waits for the GPU's GET to move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "models/gigathread/packets.h"
#include "sw/runtime/bar0.h"
#include "sw/runtime/interrupt_waiter.h"
#include "sw/runtime/pinned_memory.h"

namespace gpusoc::rt {

class CommandRing {
 public:
  static constexpr uint32_t kPacketBytes = sizeof(cmd::Packet);

  /// `ring` is the ring's pinned block (64-byte aligned, a power of two of at least 2 packets).
  /// `packet_write_time`: CPU time charged per packet written.
  CommandRing(Bar0& bar0, InterruptWaiter& waiter, uint32_t channel, PinnedMemory::Block ring,
              sc_core::sc_time packet_write_time);

  /// Writes the ring registers (base, size, PUT = 0); the channel must be disabled.
  void program();
  /// Writes one packet at PUT, waiting for space; `what` describes it for error reports.
  void push(const cmd::Packet& packet, const std::string& what);
  /// Publishes the packets written so far: CH_PUT, then CH_DOORBELL.
  void ring_doorbell();

  /// What the packet at a ring offset belongs to (for CH_ERROR_GET); "" for an unknown offset.
  const std::string& what_at(uint32_t offset) const;
  uint32_t put() const { return put_; }

 private:
  uint32_t free_slots() const;

  Bar0& bar0_;
  InterruptWaiter& waiter_;
  uint32_t channel_;
  PinnedMemory::Block ring_;
  sc_core::sc_time packet_write_time_;
  uint32_t put_ = 0;        // where the next packet goes
  uint32_t published_ = 0;  // the PUT the GPU was last told
  uint32_t get_ = 0;        // the GET last read from the GPU
  std::vector<std::string> what_;
};

}  // namespace gpusoc::rt
