// First-fit allocator over an address range with coalescing frees: device memory (VRAM below the
// firmware heap) and the runtime's pinned host memory are both managed by one of these. It hands
// out addresses only; it never touches the memory.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace gpusoc::rt {

class RangeAllocator {
 public:
  struct Block {
    uint64_t address = 0;
    uint64_t bytes = 0;  // as requested (the reservation behind it is rounded up)
  };

  /// `what` names the memory in messages ("device memory"); `alignment` is a power of two and
  /// the granularity of every reservation. `guard_bytes` more are reserved after every block,
  /// where no other block can lie (memcheck's red zones).
  RangeAllocator(std::string what, uint64_t base, uint64_t bytes, uint64_t alignment,
                 uint64_t guard_bytes = 0);

  /// Lowest-addressed block that fits, aligned to max(alignment, the allocator's). Throws
  /// Error(InvalidValue) for zero bytes or a bad alignment and Error(OutOfMemory) naming the
  /// request and the largest free block.
  uint64_t allocate(uint64_t bytes, uint64_t alignment = 0);
  /// Like allocate, but nullopt instead of OutOfMemory.
  std::optional<uint64_t> try_allocate(uint64_t bytes, uint64_t alignment = 0);
  /// Throws Error(InvalidValue) unless `address` is the start of a live block.
  void free(uint64_t address);

  /// The live block containing `address`, if any.
  std::optional<Block> find(uint64_t address) const;

  uint64_t base() const { return base_; }
  uint64_t total_bytes() const { return bytes_; }
  uint64_t free_bytes() const { return free_total_; }
  uint64_t largest_free_block() const;
  size_t live_blocks() const { return live_.size(); }

 private:
  struct Live {
    uint64_t requested = 0;
    uint64_t reserved = 0;
  };
  void insert_free(uint64_t address, uint64_t bytes);

  std::string what_;
  uint64_t base_, bytes_, alignment_, guard_bytes_;
  uint64_t free_total_ = 0;
  std::map<uint64_t, uint64_t> free_;  // start -> bytes, never adjacent (coalesced)
  std::map<uint64_t, Live> live_;      // start -> sizes
};

}  // namespace gpusoc::rt
