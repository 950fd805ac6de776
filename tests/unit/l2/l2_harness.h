// Drives one L2 slice event by event, as a partition and a reply network would: memory
// requests and ready replies are taken (and logged with their cycle) as soon as they appear,
// unless a test holds them back to make a queue fill up.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/common/mem_packet.h"
#include "models/l2/l2_slice.h"
#include "models/mempart/rop.h"

namespace gpusoc::l2::testing {

inline MemPacket packet(uint64_t id, uint64_t address, uint32_t mask, MemOp op = MemOp::Read) {
  MemPacket p;
  p.id = id;
  p.address = address;
  p.sector_mask = mask;
  p.op = op;
  return p;
}

// 4 sets of 2 ways of 128-byte lines (lines 0x200 apart share a set), 10-cycle hits.
inline L2Config small_config() {
  L2Config c;
  c.size_bytes = 1024;
  c.ways = 2;
  c.line_bytes = 128;
  c.hit_latency = 10;
  c.bytes_per_cycle = 64;
  c.mshrs = 4;
  c.mshr_merges = 2;
  c.input_queue = 4;
  c.memory_queue = 4;
  c.reply_queue = 4;
  return c;
}

struct Logged {
  uint64_t cycle;
  MemPacket packet;
};

class Harness {
 public:
  explicit Harness(const L2Config& config, const mempart::RopConfig& rop = {})
      : rop_(rop, stats_), slice(config, rop_, stats_) {}

  void accept(const MemPacket& p, uint64_t cycle) { slice.accept(p, cycle); }

  // Every event through `until`, in order; memory and reply queues drained unless held.
  void run_until(uint64_t until) {
    for (int guard = 0; guard < 1000000; ++guard) {
      const uint64_t next = slice.next_event();
      if (next > until) {
        slice.advance(until);
        take(until);
        return;
      }
      slice.advance(next);
      take(next);
    }
    FAIL() << "next_event() does not move on";
  }

  void take(uint64_t cycle) {
    while (!hold_memory && slice.has_memory_request()) {
      memory.push_back({cycle, slice.memory_request()});
      slice.pop_memory_request();
    }
    while (!hold_replies && slice.reply_ready(cycle)) {
      replies.push_back({cycle, slice.reply()});
      slice.pop_reply();
    }
  }

  // Memory answers the `index`-th logged memory request at `cycle` (after advancing there).
  void answer(size_t index, uint64_t cycle) {
    run_until(cycle);
    slice.memory_reply(memory.at(index).packet.id, cycle);
    take(cycle);
  }

  const mempart::Rop& rop() const { return rop_; }

  const StatGroup& stats() const { return stats_; }

 private:
  StatGroup stats_;  // the ROP's and the slice's statistics
  mempart::Rop rop_;

 public:
  L2Slice slice;
  bool hold_memory = false, hold_replies = false;
  std::vector<Logged> memory, replies;
};

}  // namespace gpusoc::l2::testing
