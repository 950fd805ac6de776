// Device memory as the runtime hands it out (cudaMalloc / cudaFree). In memcheck mode every
// allocation is followed by a red zone no other allocation may use, so that an overrun lands in
// memory the checker knows to be nobody's, and freed allocations wait in a quarantine before
// their memory is reused, so that a use after free hits poisoned memory instead of a newer
// allocation.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <set>

#include "sw/runtime/range_allocator.h"

namespace gpusoc::rt {

struct DeviceHeapChecking {
  uint64_t red_zone_bytes = 0;    // after every allocation
  uint64_t quarantine_bytes = 0;  // freed memory held back from reuse, oldest released first
};

class DeviceHeap {
 public:
  DeviceHeap(uint64_t base, uint64_t bytes, uint64_t alignment, DeviceHeapChecking checking = {});

  /// A new allocation; when memory is short the quarantine is released first. Errors as
  /// RangeAllocator::allocate.
  uint64_t allocate(uint64_t bytes);
  /// Frees the live allocation starting at `address` (into the quarantine, in memcheck mode).
  /// Error(InvalidValue) for any other address, a quarantined one included.
  void free(uint64_t address);
  /// The live allocation containing `address`; quarantined allocations are not live.
  std::optional<RangeAllocator::Block> find(uint64_t address) const;

  uint64_t total_bytes() const { return allocator_.total_bytes(); }
  /// Free bytes; quarantined memory is not free yet.
  uint64_t free_bytes() const { return allocator_.free_bytes(); }
  uint64_t largest_free_block() const { return allocator_.largest_free_block(); }
  uint64_t quarantined_bytes() const { return quarantined_bytes_; }

 private:
  void release_oldest();

  RangeAllocator allocator_;
  DeviceHeapChecking checking_;
  std::deque<RangeAllocator::Block> quarantine_;  // oldest first
  std::set<uint64_t> quarantined_;                // their addresses
  uint64_t quarantined_bytes_ = 0;
};

}  // namespace gpusoc::rt
