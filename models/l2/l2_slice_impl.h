// The L2 slice's state (private to l2_slice.cpp and l2_lookup.cpp): fixed-size arrays and rings
// sized at construction, so the steady state allocates nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/host_memory.h"
#include "models/l2/l2_slice.h"

namespace gpusoc::l2 {

// A bounded FIFO over storage allocated once.
template <typename T>
class Ring {
 public:
  void reset(uint32_t capacity) {
    items_.assign(capacity, T{});
    head_ = size_ = 0;
  }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == items_.size(); }
  uint32_t room() const { return uint32_t(items_.size()) - size_; }
  uint32_t size() const { return size_; }
  T& at(uint32_t i) { return items_[wrap(head_ + i)]; }  // i-th from the front
  const T& front() const { return items_[head_]; }
  void push_back(const T& item) { items_[wrap(head_ + size_++)] = item; }
  void pop_front() {
    head_ = wrap(head_ + 1);
    --size_;
  }

 private:
  uint32_t wrap(uint32_t i) const { return i >= items_.size() ? i - uint32_t(items_.size()) : i; }
  std::vector<T> items_;
  uint32_t head_ = 0, size_ = 0;
};

struct L2Slice::Impl {
  static constexpr uint32_t kNone = ~uint32_t(0);
  static constexpr uint64_t kNoLine = ~uint64_t(0);
  // Memory packet ids: a fill is (sectors << 32) | MSHR, a write-back has this bit set.
  static constexpr uint64_t kWritebackBit = 1ull << 31;

  enum class Wait : uint8_t { None, Mshr, Queue };  // why the head cannot be looked up
  struct Input {
    MemPacket packet;
    uint64_t arrival = 0;
  };
  struct Reply {
    uint64_t ready = 0;
    MemPacket packet;
  };
  struct Waiter {
    MemPacket packet;
    uint32_t sectors = 0;          // the packet's sectors, as a mask over the line
    uint64_t ready_from = kNever;  // when its sectors were all present; kNever: not yet
  };
  struct Mshr {
    bool busy = false;
    bool draining = false;  // in `draining`: answered waiters wait for room in the replies
    uint64_t line = 0;
    uint32_t slot = 0;      // the line's place in the tag array
    uint32_t fetching = 0;  // sectors asked of memory and not back yet (pass-through: 1)
    uint32_t waiters = 0;   // packets held, in order, at waiter[index * mshr_merges ...]
  };

  Impl(const L2Config& config, mempart::Rop& rop, StatGroup& stats_parent,
       const std::string& prefix, const mempart::AddressMapping* mapping);

  // l2_lookup.cpp: the lookup of the head and what memory's answers do.
  Wait lookup(const MemPacket& packet, uint64_t cycle);
  Wait lookup_write(const MemPacket& packet, uint64_t cycle, uint64_t line, uint32_t sectors,
                    uint32_t set, uint32_t slot);
  Wait pass_through(const MemPacket& packet, uint64_t cycle);
  uint32_t choose_victim(uint32_t set);  // a tag-array slot, or kNone when every way is pending
  void evict(uint32_t slot);
  void send_fill(uint32_t mshr, uint64_t line, uint32_t sectors, uint16_t source);
  void send_writeback(uint64_t line, uint32_t sectors);
  uint32_t take_mshr(uint64_t line, uint32_t slot);
  void add_waiter(uint32_t mshr, const MemPacket& packet, uint32_t sectors);
  void fill_landed(uint64_t id, uint64_t cycle);
  void pass_through_landed(uint64_t id, uint64_t cycle);
  // Moves the MSHR's answered waiters to the replies as room allows, each ready from
  // max(its ready_from, from); frees the MSHR once it holds nothing. False: out of room.
  bool place(uint32_t mshr, uint64_t from);
  void drain();  // places the draining MSHRs' waiters, oldest first
  void answer(const MemPacket& packet, uint32_t slot, uint32_t sectors, uint64_t base,
              uint64_t latency);
  void insert_reply(uint64_t ready, const MemPacket& packet);
  void continue_flush();

  // l2_slice.cpp
  // Memory writes nothing waits for (write-backs, posted writes): ids memory_reply() ignores.
  uint64_t next_writeback_id() { return (writeback_serial++ << 32) | kWritebackBit; }
  uint32_t set_of(uint64_t line) const {
    const uint64_t index = (mapping ? mapping->local_offset(line) : line) >> line_shift;
    // A mask when it can be, else a modulo.
    return uint32_t(sets_power_of_two ? index & (sets - 1) : index % sets);
  }
  uint64_t lookup_cycle() const;
  void note_wait(Wait wait, uint64_t cycle);
  void unblock() { blocked = false; }

  L2Config config;
  mempart::Rop& rop;
  const mempart::AddressMapping* mapping;  // null: sets by the address itself
  std::string module;
  bool cache = false;
  uint32_t sets = 0, ways = 0, line_shift = 0, sectors_per_line = 0;
  bool sets_power_of_two = false;
  uint64_t line_mask = 0;

  HostMemoryClaim tag_memory;  // what the tag state below takes of the host
  // The tag array, flat over set * ways + way.
  std::vector<uint64_t> tag;
  std::vector<uint32_t> valid, dirty, pending;  // sector masks; pending: the MSHR or kNone
  std::unique_ptr<ReplacementPolicy> policy;
  // Per set, a bit per way: never filled (tag kNoLine); its line pending (an MSHR's).
  std::vector<uint64_t> empty_ways, pending_ways;
  uint64_t all_ways = 0;         // a bit for each of the `ways`
  uint32_t held_victim = kNone;  // chosen for the blocked head, kept so retries agree

  std::vector<Mshr> mshrs;
  std::vector<Waiter> waiter;        // mshrs * mshr_merges
  std::vector<uint32_t> free_mshrs;  // a stack
  Ring<uint32_t> draining;

  Ring<Input> input;
  Ring<MemPacket> memory;
  Ring<Reply> replies;  // kept sorted by ready cycle, ties in insertion order

  uint64_t now = 0;          // advanced through
  uint64_t next_lookup = 0;  // the port's and the tag pipeline's next free cycle
  bool blocked = false;      // the head failed and waits for a pop or a memory reply
  bool news = false;         // output appeared outside advance(): next_event() says now
  Wait stalled = Wait::None;
  uint64_t stalled_since = 0;
  size_t flush_cursor = ~size_t(0);  // next tag slot the flush looks at
  uint64_t writeback_serial = 0;
  L2Stats stats;
};

}  // namespace gpusoc::l2
