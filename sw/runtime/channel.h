// One command channel as the runtime drives it: its ring, a fence word the GPU writes after each
// operation (so the host knows how far the channel got without asking), the error log buffer,
// and the pinned temporaries (launch descriptors, parameter buffers) that must live until the
// operation that reads them has completed. Errors the channel recorded surface at the next
// synchronizing call, with the GPU's text, and are then cleared.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "models/gigathread/packets.h"
#include "sw/runtime/bar0.h"
#include "sw/runtime/command_ring.h"
#include "sw/runtime/interrupt_waiter.h"
#include "sw/runtime/pinned_memory.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {

struct ChannelSizes {
  uint32_t ring_bytes = 64 * 1024;
  uint32_t error_log_bytes = 4096;
  sc_core::sc_time packet_write_time = sc_core::SC_ZERO_TIME;
};

/// An error the channel recorded (CH_ERROR) with what the runtime knows about it.
struct ChannelFault {
  cmd::ErrorCode code = cmd::ErrorCode::None;
  uint32_t ring_offset = 0;  // CH_ERROR_GET
  std::string what;          // the operation the failing packet belonged to
  std::string log;           // the GPU's text from the error log buffer
  Error to_error(uint32_t channel) const;
};

class Channel {
 public:
  Channel(Bar0& bar0, InterruptWaiter& waiter, PinnedMemory& pinned, uint32_t index,
          const ChannelSizes& sizes);
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  /// Programs the ring and the error log, clears old errors, enables the channel and checks that
  /// it reports itself enabled (Error(InvalidDevice) otherwise).
  void enable();
  void disable();

  /// Writes the packets, then a fence with the operation's sequence number, and rings the
  /// doorbell. `retained` pinned blocks are freed once the operation has completed, after
  /// `on_complete` (given with one block) has run; `interrupt` makes the fence raise INTR_FENCE
  /// (for operations the host will wait on). Returns the sequence number.
  uint64_t submit(std::initializer_list<cmd::Packet> packets, const std::string& what,
                  std::vector<uint64_t> retained = {}, bool interrupt = false,
                  std::function<void()> on_complete = {});

  /// Highest sequence number whose operation has completed (the fence word).
  uint64_t completed() const;
  uint64_t issued() const { return issued_; }
  bool idle() const { return completed() >= issued_; }

  /// Sleeps until operation `sequence` has completed. `who` names the waiter (a stream) in a
  /// Timeout error; a channel error that stopped the channel is thrown instead.
  void wait(uint64_t sequence, const std::string& who);
  /// Reads and clears the channel's recorded error, if any.
  std::optional<ChannelFault> take_error();
  /// take_error(), thrown.
  void check_errors();
  /// check_errors(), unless no operation has completed since the last check (which saves the
  /// register read).
  void check_new_errors();
  /// Frees the temporaries of completed operations, running their completion actions.
  void reclaim();

  uint32_t index() const { return index_; }

 private:
  uint32_t reg(uint32_t offset) const;
  bool stopped_by_error();
  void push_interrupting_fence(const std::string& why);
  void recover_dropped_work();

  Bar0& bar0_;
  InterruptWaiter& waiter_;
  PinnedMemory& pinned_;
  uint32_t index_;
  PinnedMemory::Block fence_, log_, ring_block_;
  CommandRing ring_;
  uint64_t issued_ = 0;        // sequence number of the last fence written
  uint64_t interrupting_ = 0;  // ... of the last fence with kFlagInterrupt
  uint64_t checked_ = 0;       // the fence value when CH_STATUS was last read for errors
  struct Retained {
    uint64_t sequence;
    uint64_t address;  // pinned
    std::function<void()> on_complete;
  };
  std::deque<Retained> retained_;
};

}  // namespace gpusoc::rt
