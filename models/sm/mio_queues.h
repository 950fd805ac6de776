// Volta and later: the SM has one load/store pipe, shared by its processing blocks. Each block's
// scheduler issues memory instructions into its own queue (the MIO queue) at up to one a cycle,
// and the pipe takes one instruction a cycle from the queues (NVIDIA's description of GV100 and
// later, developer forum threads 108896 and 273699). A block whose queue is full stalls; one
// that has no memory instruction to issue leaves the pipe to the others, which a block-private
// LSU (Tesla, and mio_queue = 0 here) cannot. Dispatch times are decided at issue: the pipe is
// in order, so an instruction's turn is known when it enters.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace gpusoc::sm {

class MioQueues {
 public:
  /// `depth` instructions a block (0: switched off); the pipe has `lanes_per_block` lanes for
  /// each block, and takes a warp instruction each cycle that many lanes allow.
  MioQueues(uint32_t blocks, uint32_t depth, uint32_t lanes_per_block);
  bool enabled() const { return depth_ != 0; }
  /// First cycle >= now at which block `block` has room for an instruction.
  uint64_t room_at(uint32_t block, uint64_t now);
  /// Queues an instruction of `block` at `now` (which must have room); returns the cycle the
  /// pipe takes it, no earlier than `not_before` (the shared-memory banks' next free cycle).
  uint64_t enqueue(uint32_t block, uint64_t now, uint64_t not_before);

 private:
  uint32_t depth_;
  uint32_t pipe_interval_;
  uint64_t pipe_free_ = 0;                    // the pipe's next free cycle
  std::vector<std::deque<uint64_t>> queued_;  // per block: dispatch cycles still ahead
};

}  // namespace gpusoc::sm
