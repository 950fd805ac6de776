// Page-locked host memory, the way cuMemAllocHost provides it: a region of simulated host DRAM
// that the runtime owns, which the GPU reaches by DMA and the host program reaches directly
// through the pointer HostBus::memory() gave for it. Rings, launch descriptors, parameter
// buffers, fence words, semaphores, staging buffers and HostBuffers all live here.
#pragma once

#include <cstdint>
#include <optional>

#include "sw/runtime/range_allocator.h"

namespace gpusoc::rt {

class PinnedMemory {
 public:
  static constexpr uint64_t kAlignment = 64;  // a packet, and a cache line

  struct Block {
    uint64_t address = 0;  // host physical address, what the GPU is given
    uint8_t* pointer = nullptr;
    uint64_t bytes = 0;
  };

  /// [address, +bytes) of host memory, reachable at `pointer` on the simulator's side.
  PinnedMemory(uint64_t address, uint8_t* pointer, uint64_t bytes);

  /// Zero-filled; Error(OutOfMemory) or nullopt when full.
  Block allocate(uint64_t bytes, uint64_t alignment = 0);
  std::optional<Block> try_allocate(uint64_t bytes, uint64_t alignment = 0);
  void free(uint64_t address);  // Error(InvalidValue) for an address that is not a block

  /// Host address of [p, p + bytes) when p points into a live pinned block; nullopt when p is not
  /// pinned memory at all; Error(InvalidValue) naming `what` when the range starts in a block but
  /// runs past its end.
  std::optional<uint64_t> address_of(const void* p, uint64_t bytes, const char* what) const;
  uint8_t* pointer(uint64_t address) const { return pointer_ + (address - allocator_.base()); }

  const RangeAllocator& allocator() const { return allocator_; }

 private:
  uint8_t* pointer_;
  RangeAllocator allocator_;
};

}  // namespace gpusoc::rt
