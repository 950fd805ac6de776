// A sectored, set-associative cache with LRU replacement and MSHRs, as the SM's L1 data cache and
// constant cache use it (a constant cache is one with sector size == line size). Pure timing
// state: the data lives in the backing memory and is moved functionally elsewhere.
//
// A lookup of (line, sector mask) at cycle `now` gives one of:
//  - Hit: every requested sector is valid (or arriving for a miss already filled): ready at
//    max(now, cycle of the line's latest fill) + hit_latency.
//  - Merged: the line has an MSHR whose fetch covers the missing sectors: ready when that fill
//    lands (MSHR merging; at most `max_merges` requests per MSHR).
//  - Miss: a new MSHR is allocated for the missing sectors (the line's way is claimed at fill
//    time); the caller sends the fetch and later calls fill(). `missing` tells which sectors.
//  - Stall: no MSHR free (or the MSHR's merge list is full): try again later.
// Sectors being fetched for a line whose MSHR already exists but that do not cover the request are
// fetched by a second MSHR entry for the same line (allowed, at most one per request).
// Fetches of one line are assumed to land in the order they were sent (same path, same slice):
// a request whose sectors are already all being fetched, but by several MSHRs, merges into the
// youngest of them; a request that needs sectors besides those in flight allocates an MSHR for
// just those and waits on it. LRU order is the order of uses (hits, misses on a present line,
// fills, write hits); ties cannot occur, so replacement is deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/host_memory.h"
#include "models/sm/set_index.h"

namespace gpusoc::sm {

struct SectoredCacheConfig {
  std::string name = "cache";  // the configuration keys' prefix, e.g. "sm.l1", for errors
  uint32_t size_bytes = 0;  // 0: no cache (every access misses straight to memory, no MSHRs used)
  uint32_t ways = 4;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;
  uint32_t hit_latency = 1;     // cycles
  uint32_t mshrs = 32;          // outstanding line fetches
  uint32_t max_merges = 8;      // requests one MSHR may serve (the first included)
  bool write_allocate = false;  // stores allocate the line with the sectors they write
  std::string set_index = "modulo";  // the set-index policy (set_index.h)
  bool enabled() const { return size_bytes != 0; }
  /// What is wrong with the geometry (not powers of two, ways larger than the lines, ...);
  /// empty when nothing is. `prefix` names the configuration keys, e.g. "sm.l1".
  std::string problem(const std::string& prefix) const;
};

class SectoredCache {
 public:
  enum class Outcome : uint8_t { Hit, Merged, Miss, Stall };
  struct Result {
    Outcome outcome;
    uint64_t ready_cycle;   // Hit: see above; otherwise kPending (Merged/Miss: until fill())
    uint32_t mshr;          // Merged/Miss: the MSHR to wait on; otherwise kNoMshr
    uint32_t missing_mask;  // Miss: sectors the caller must fetch
  };
  static constexpr uint64_t kPending = ~uint64_t(0);
  static constexpr uint32_t kNoMshr = ~uint32_t(0);  // also a disabled cache's Miss

  /// Throws ConfigError when config.problem() is not empty (check it first with the real keys).
  explicit SectoredCache(const SectoredCacheConfig& config);
  const SectoredCacheConfig& config() const { return config_; }

  /// `tag` identifies the requester: a Merged or Miss request is listed under its MSHR and handed
  /// back by fill().
  Result read(uint64_t line_address, uint32_t sector_mask, uint64_t now, uint64_t tag);
  /// A write-through store. No-allocate (the default): sectors already present stay valid (the
  /// data is written functionally), nothing is allocated. With write_allocate, the written
  /// sectors become valid at `now`, allocating the line (evicting the LRU way) if absent; stores
  /// write whole sectors, as the coalescer's masks say. Returns whether the line was present.
  bool write(uint64_t line_address, uint32_t sector_mask, uint64_t now = 0);
  /// Drops the line (atomics bypass and invalidate it).
  void invalidate(uint64_t line_address);
  /// The fetch of MSHR `mshr` landed at `cycle`: its sectors become valid (allocating the line,
  /// evicting the LRU way), the MSHR is freed. `woken` (cleared first) receives the tags of the
  /// requests it served, the missing one first, then the merged ones in order.
  void fill(uint32_t mshr, uint64_t cycle, std::vector<uint64_t>& woken);
  uint32_t free_mshrs() const;  // 0 for a disabled cache

  // Counts for statistics.
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t merges() const { return merges_; }
  uint64_t stalls() const { return stalls_; }

 private:
  struct Line {
    uint64_t tag = ~uint64_t(0);
    uint32_t valid = 0;  // sector mask
    uint64_t last_use = 0;
    uint64_t landed = 0;  // cycle of the latest fill
  };
  struct Mshr {
    bool busy = false;
    uint64_t line = 0;
    uint32_t sectors = 0;
    uint64_t sent = 0;  // allocation order, to find the youngest fetch of a line
    std::vector<uint64_t> waiters;
  };
  Line* set_of(uint64_t line_address);                    // the set's first way
  Line* find(uint64_t line_address);                      // nullptr when absent
  Line* allocate(uint64_t line_address, uint64_t cycle);  // the LRU way of its set, emptied

  SectoredCacheConfig config_;
  SetIndexFunction set_index_ = nullptr;  // null: modulo, inline
  HostMemoryClaim line_memory_;  // what lines_ takes of the host
  unsigned line_shift_ = 0;
  uint32_t sets_ = 0;
  uint32_t busy_mshrs_ = 0;
  uint64_t mshr_clock_ = 0;
  std::vector<Line> lines_;  // sets_ * ways
  std::vector<Mshr> mshrs_;
  uint64_t use_clock_ = 0;
  uint64_t hits_ = 0, misses_ = 0, merges_ = 0, stalls_ = 0;
};

}  // namespace gpusoc::sm
