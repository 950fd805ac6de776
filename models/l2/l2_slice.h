// One L2 cache slice: the slice of the L2 that owns a range of addresses (one per memory partition:
// the address mapping's partition of an address is its slice). Sectored and set-associative,
// write-back and write-allocate, with MSHRs that merge misses to the same line, a hit latency and a
// port bandwidth; replacement policy chosen by name. Atomics execute at the partition's ROP
// (models/mempart/rop.h) once their sector is present. Pure C++, cycle-counted in the L2's clock,
// event-driven: the caller asks when something next happens and advances to it.
//
// Contract (every queue bounded; a full one is backpressure, never growth):
//  - accept() a packet when can_accept(): it joins the input queue (input_queue packets). A
//    packet lies within one L2 line (ModelError otherwise).
//  - The slice takes the input queue's head in order, one lookup per cycle at most, and no
//    faster than the port allows (bytes_per_cycle: a packet's data_bytes take
//    ceil(bytes / bytes_per_cycle) cycles of the port, requests and replies alike).
//    - A read whose sectors are all valid is a hit: its reply is ready hit_latency cycles
//      after the lookup.
//    - A write always hits or allocates (write-allocate): written sectors become valid and
//      dirty without fetching (whole sectors are written); its acknowledgement is ready
//      hit_latency cycles after the lookup. Allocating may evict a line: its dirty sectors go
//      to memory as one write-back packet (op Write, sector_mask of the dirty sectors).
//    - A read or atomic missing sectors needs an MSHR for its line: a line already pending
//      merges (up to mshr_merges packets per MSHR, the first one included), else a free MSHR
//      is taken (mshrs of them) and a fill packet (op Read, the missing sectors) goes to
//      memory. No MSHR or merge slot, no room for the memory packet, or (when an eviction is
//      needed) every way of the set pending: the head waits (a stall cycle), later packets too.
//    - When memory answers a fill (memory_reply), its sectors become valid and every merged
//      packet is answered as a hit at that cycle + hit_latency.
//    - An atomic's sectors present (hit, or after its fill), the ROP executes it (one call per
//      sector); the sectors become dirty and the reply is ready when the last result is.
//  - Memory packets wait in a bounded queue (memory_queue) the caller drains with
//    has_memory_request()/memory_request()/pop_memory_request() when the partition can take
//    them. A fill's reply comes back through memory_reply() with the fill packet's id.
//  - Replies to the requesters (the original packets, unchanged) wait in a bounded queue
//    (reply_queue + hit_latency: the replies still in the hit pipeline do not take the room of
//    those waiting for the network) the caller drains with reply_ready()/reply()/pop_reply();
//    a full reply queue stalls lookups.
//  - size_bytes == 0: no cache. Every packet goes to memory unchanged (atomics through the ROP
//    after their read), replies to reads and atomics come back in memory's order, writes are
//    answered when queued for memory: a pass-through that still obeys the port and queue
//    bounds.
// Details the contract leaves open, as implemented:
//  - The port is charged at the lookup for the data the packet moves (in either direction):
//    the next lookup comes max(1, ceil(data_bytes / bytes_per_cycle)) cycles later.
//  - The ROP gets an atomic's sectors at the lookup (hit) or at the fill's cycle (miss).
//  - A miss that evicts a dirty line needs two memory slots; the fill is queued first.
//  - Replies are handed out in ready-cycle order (ties in the order they were made). Fill
//    answers that find the reply queue full wait in their MSHR (which stays busy) and go first
//    when room appears, ready hit_latency after the pop at the earliest.
//  - next_event(): the head's lookup cycle, else the first reply's ready cycle if still ahead;
//    kNever while the head is refused (no MSHR, merge slot or free way: until memory_reply();
//    memory or reply queue full: until a pop), after which it is retried at the cycle last
//    advanced to. Output made outside advance() (flush, an answer ready at once) makes it
//    return that cycle once. Call memory_reply() after advancing to its cycle.
//  - Replacement: hits, merges and partial misses touch the line, allocations insert it; a fill
//    landing does not. Pass-through reads and atomics each hold an MSHR until memory answers
//    (ids must be unique among those in flight); pass-through writes are posted: answered at
//    their lookup once the memory queue takes them, memory's acknowledgement ignored.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/mem_packet.h"
#include "models/common/registry.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/mempart/address_mapping.h"
#include "models/mempart/rop.h"

namespace gpusoc::l2 {

struct L2Config {
  uint64_t size_bytes = 128 * 1024;  // of this slice; 0: no cache
  uint32_t ways = 16;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;  // must be kSectorBytes for now (the packets' unit)
  uint32_t hit_latency = 10;   // cycles from lookup to reply
  uint32_t bytes_per_cycle = 64;
  uint32_t mshrs = 32;
  uint32_t mshr_merges = 8;
  uint32_t input_queue = 8, memory_queue = 8, reply_queue = 8;  // packets
  PolicyChoice replacement = "lru";  // "lru", "fifo" or "random" (a fixed-seed generator)
  /// What is wrong, naming `prefix`.key; empty when nothing is.
  std::string problem(const std::string& prefix) const;
};

/// Chooses the victim way of a set (policy by name); per-set state is the policy's own.
class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  virtual const char* name() const = 0;
  /// Way `way` of `set` was hit or filled at this point.
  virtual void touched(uint32_t set, uint32_t way) = 0;
  /// A new line was allocated into way `way` of `set` (a use as well, unless the policy cares
  /// about insertion order only, as FIFO does).
  virtual void inserted(uint32_t set, uint32_t way) { touched(set, way); }
  /// A victim among the ways whose bit is set in `candidates` (at least one is; ways <= 64).
  /// Deterministic.
  virtual uint32_t victim(uint32_t set, uint64_t candidates) = 0;
};
using ReplacementRegistry = Registry<ReplacementPolicy, uint32_t, uint32_t>;  // (sets, ways)
/// The policies l2.replacement names: lru, fifo, random.
ReplacementRegistry& replacement_policies();

struct L2Stats : StatGroup {
  explicit L2Stats(StatGroup& parent) : StatGroup(parent, "l2") {}
  Counter read_hits{*this, "read_hits", "packets", "reads whose sectors were all present"};
  Counter read_misses{*this, "read_misses", "packets",
                      "reads missing a sector (a partial hit is a miss)"};
  Counter write_hits{*this, "write_hits", "packets", "writes to a line present"};
  Counter write_misses{*this, "write_misses", "packets", "writes that allocated their line"};
  Counter atomic_hits{*this, "atomic_hits", "packets", "atomics whose sectors were all present"};
  Counter atomic_misses{*this, "atomic_misses", "packets", "atomics missing a sector"};
  Counter mshr_merges{*this, "mshr_merges", "packets", "misses that joined a line already pending"};
  Counter mshr_stall_cycles{*this, "mshr_stall_cycles", "cycles",
                            "cycles the input's head waited for an MSHR or a merge slot"};
  Counter queue_stall_cycles{*this, "queue_stall_cycles", "cycles",
                             "cycles the input's head waited for room in the memory or reply "
                             "queue, or for a way not pending"};
  Counter fills{*this, "fills", "packets", "fill requests sent to memory"};
  Counter fill_sectors{*this, "fill_sectors", "sectors", "sectors those fills fetched"};
  Counter writebacks{*this, "writebacks", "packets", "write-backs of dirty lines sent to memory"};
  Counter writeback_sectors{*this, "writeback_sectors", "sectors", "dirty sectors written back"};
  Counter bytes_in{*this, "bytes_in", "bytes", "request data through the slice's port"};
  Counter bytes_out{*this, "bytes_out", "bytes", "reply data through the slice's port"};
  Formula read_hit_rate{*this, "read_hit_rate", "ratio", "read hits per read", [this] {
                          return double(read_hits.value()) /
                                 double(read_hits.value() + read_misses.value());
                        }};
};

class L2Slice {
 public:
  static constexpr uint64_t kNever = ~uint64_t(0);
  /// ConfigError naming `prefix`.key on a bad config. `rop` executes the atomics (owned by the
  /// partition; it outlives the slice). `mapping`, when given (it outlives the slice), places
  /// lines in sets by their partition-local offset (AddressMapping::local_offset), as a slice
  /// behind an address-interleaved partition must; without it, by the address itself.
  /// Statistics go in `stats_parent`.l2.
  L2Slice(const L2Config& config, mempart::Rop& rop, StatGroup& stats_parent,
          const std::string& prefix = "l2", const mempart::AddressMapping* mapping = nullptr);
  ~L2Slice();
  L2Slice(L2Slice&&) noexcept;             // an owner may keep slices by value
  L2Slice& operator=(L2Slice&&) = delete;  // its statistics group would leave the tree

  bool can_accept() const;
  void accept(const MemPacket& packet, uint64_t cycle);
  uint64_t next_event() const;
  /// Everything due at cycles <= until, in cycle order.
  void advance(uint64_t until);

  bool has_memory_request() const;
  const MemPacket& memory_request() const;
  void pop_memory_request();
  /// Memory finished the fill (or write-back: ignored but allowed) with this id at `cycle`.
  void memory_reply(uint64_t id, uint64_t cycle);

  bool reply_ready(uint64_t cycle) const;
  const MemPacket& reply() const;
  void pop_reply();

  /// Writes back every dirty line (for the end of a run): the packets join the memory queue as
  /// room allows over the following advances.
  void flush();
  const L2Stats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusoc::l2
