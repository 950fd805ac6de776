#include "sw/runtime/range_allocator.h"

#include <algorithm>

#include <fmt/format.h>

#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

bool is_power_of_two(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// Rounds up; false when the result would pass 2^64.
bool align_up(uint64_t value, uint64_t alignment, uint64_t& out) {
  const uint64_t mask = alignment - 1;
  if (value > UINT64_MAX - mask) return false;
  out = (value + mask) & ~mask;
  return true;
}

}  // namespace

RangeAllocator::RangeAllocator(std::string what, uint64_t base, uint64_t bytes, uint64_t alignment,
                               uint64_t guard_bytes)
    : what_(std::move(what)),
      base_(base),
      bytes_(bytes),
      alignment_(alignment),
      guard_bytes_(guard_bytes) {
  if (!is_power_of_two(alignment)) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: alignment {} is not a power of two", what_, alignment));
  }
  if (bytes > UINT64_MAX - base) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: range {:#x} + {} wraps around", what_, base, bytes));
  }
  // Only whole aligned granules are handed out.
  uint64_t start = 0;
  if (!align_up(base, alignment, start) || start >= base + bytes) return;
  const uint64_t usable = (base + bytes - start) & ~(alignment - 1);
  if (usable > 0) insert_free(start, usable);
}

std::optional<uint64_t> RangeAllocator::try_allocate(uint64_t bytes, uint64_t alignment) {
  if (bytes == 0) throw Error(Status::InvalidValue, what_ + ": cannot allocate 0 bytes");
  if (alignment != 0 && !is_power_of_two(alignment)) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: alignment {} is not a power of two", what_, alignment));
  }
  const uint64_t align = std::max(alignment, alignment_);
  uint64_t reserved = 0;
  if (bytes > bytes_ || guard_bytes_ > bytes_ - bytes ||
      !align_up(bytes + guard_bytes_, alignment_, reserved))
    return std::nullopt;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first, size = it->second;
    uint64_t address = 0;
    if (!align_up(start, align, address) || address - start >= size) continue;
    if (size - (address - start) < reserved) continue;
    free_.erase(it);
    free_total_ -= size;
    // What is left before and after the block goes back (never adjacent to other free blocks).
    if (address > start) insert_free(start, address - start);
    const uint64_t end = start + size, block_end = address + reserved;
    if (end > block_end) insert_free(block_end, end - block_end);
    live_.emplace(address, Live{bytes, reserved});
    return address;
  }
  return std::nullopt;
}

uint64_t RangeAllocator::allocate(uint64_t bytes, uint64_t alignment) {
  if (const auto address = try_allocate(bytes, alignment)) return *address;
  throw Error(Status::OutOfMemory,
              fmt::format("{}: cannot allocate {} bytes: {} of {} bytes are free, the largest "
                          "free block holds {} bytes",
                          what_, bytes, free_total_, bytes_, largest_free_block()));
}

void RangeAllocator::free(uint64_t address) {
  const auto it = live_.find(address);
  if (it == live_.end()) {
    if (const auto inside = find(address)) {
      throw Error(Status::InvalidValue,
                  fmt::format("{}: free of {:#x}, which points inside the allocation at {:#x} "
                              "({} bytes), not to its start",
                              what_, address, inside->address, inside->bytes));
    }
    throw Error(Status::InvalidValue,
                fmt::format("{}: free of {:#x}, which is not an allocation (never allocated or "
                            "already freed)",
                            what_, address));
  }
  const uint64_t reserved = it->second.reserved;
  live_.erase(it);
  insert_free(address, reserved);
}

void RangeAllocator::insert_free(uint64_t address, uint64_t bytes) {
  free_total_ += bytes;
  auto next = free_.lower_bound(address);
  if (next != free_.end() && address + bytes == next->first) {  // merge with the block after
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {  // and with the block before
    auto prev = std::prev(next);
    if (prev->first + prev->second == address) {
      prev->second += bytes;
      return;
    }
  }
  free_.emplace_hint(next, address, bytes);
}

std::optional<RangeAllocator::Block> RangeAllocator::find(uint64_t address) const {
  auto it = live_.upper_bound(address);
  if (it == live_.begin()) return std::nullopt;
  --it;
  if (address - it->first >= it->second.requested) return std::nullopt;
  return Block{it->first, it->second.requested};
}

uint64_t RangeAllocator::largest_free_block() const {
  uint64_t largest = 0;
  for (const auto& [start, size] : free_) largest = std::max(largest, size);
  return largest;
}

}  // namespace gpusoc::rt
