// The memory checker's picture of device memory (memcheck, in the spirit of compute-sanitizer):
// the regions a kernel may touch (live allocations the driver announced, module .global and
// .const variables) and freed allocations, which stay poisoned until memory is allocated there
// again. When a launch runs with memcheck, every warp checks each global and constant access
// against it before touching memory, so a bad store is reported and never lands.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gpusoc::ptx {

class Program;

enum class RegionKind : uint8_t {
  Allocation,  // from the driver's allocator (cudaMalloc)
  Global,      // a module's .global variable
  Constant,    // a module's .const variable: kernels may only read it
};

struct MemoryRegion {
  uint64_t begin = 0;
  uint64_t bytes = 0;
  RegionKind kind = RegionKind::Allocation;
  bool live = true;  // false: freed (or its module unloaded), poisoned
  std::string name;  // variables: "'lut' of module 'k.ptx'"; allocations: empty
  uint64_t end() const { return begin + bytes; }
};

/// What a warp remembers of the last regions its accesses fell in (a kernel's few buffers), so
/// that the next access to one of them costs comparisons instead of a lookup.
struct RegionCache {
  static constexpr unsigned kEntries = 4;
  struct Entry {
    uint64_t begin = 1, end = 0;  // empty
    bool writable = false;
  };
  Entry entries[kEntries];
  unsigned next = 0;        // the entry the next miss replaces
  uint64_t generation = 0;  // the map's when the entries were filled
};

class AllocationMap {
 public:
  /// Adds a live region. Freed regions it overlaps are forgotten (their memory was reused).
  /// Returns what is wrong instead (empty when added): no bytes, a range that wraps, or an
  /// overlap with a live region.
  std::string add(uint64_t begin, uint64_t bytes, RegionKind kind, std::string name = {});
  /// The live region of `kind` that starts at `begin` becomes freed; false when there is none.
  bool release(uint64_t begin, RegionKind kind);
  /// Forgets every allocation, live or freed (the driver closed); module variables stay.
  void clear_allocations();

  /// Whether a `bytes`-byte access at `address` lies wholly inside one live region that allows
  /// it (no writes to constants). Remembers the region in `cache`, which answers the next
  /// question without a lookup while the map is unchanged.
  bool allows(uint64_t address, unsigned bytes, bool write, RegionCache& cache) const {
    if (cache.generation == generation_) {
      for (const RegionCache::Entry& e : cache.entries) {
        if (address >= e.begin && bytes <= e.end && address <= e.end - bytes &&
            (e.writable || !write))
          return true;
      }
    }
    return lookup(address, bytes, write, cache);
  }
  /// Why allows() refused the access, naming the region it hit or the nearest live one and the
  /// offset: "out-of-bounds write of 4 bytes at 0x...: 0 bytes after the end of ...".
  std::string problem(uint64_t address, unsigned bytes, bool write) const;
  /// Where `address` lies: "12 bytes into ...", "4 bytes after the end of ..." (the nearest live
  /// region when it is in none).
  std::string where(uint64_t address) const;

  size_t live_regions() const;
  size_t freed_regions() const { return regions_.size() - live_regions(); }
  /// Changes whenever a region is added, freed or forgotten: RegionCaches from before miss.
  uint64_t generation() const { return generation_; }

 private:
  bool lookup(uint64_t address, unsigned bytes, bool write, RegionCache& cache) const;
  /// The region containing `address`, or end().
  std::map<uint64_t, MemoryRegion>::const_iterator containing(uint64_t address) const;

  std::map<uint64_t, MemoryRegion> regions_;  // by begin; never overlapping
  uint64_t generation_ = 1;
};

/// A module's .global and .const variables as live regions, named after the module; at unload,
/// freed. A variable that overlaps a live region is left out (the placement guarantees none do).
void add_module_variables(AllocationMap& map, const Program& program);
void release_module_variables(AllocationMap& map, const Program& program);

/// "the 1024-byte allocation [0x200000000, 0x200000400)", "the 64-byte .const variable 'lut' of
/// module 'k.ptx' [0x..., 0x...)", with ", freed" when it is, for reports.
std::string describe(const MemoryRegion& region);

}  // namespace gpusoc::ptx
