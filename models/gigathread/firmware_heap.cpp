#include "models/gigathread/firmware_heap.h"

#include <algorithm>

namespace gpusoc::gigathread {
namespace {

uint64_t align_up(uint64_t v, uint64_t align) {
  return (v + align - 1) & ~(align - 1);
}

}  // namespace

std::optional<uint64_t> FirmwareHeap::allocate(uint64_t bytes, uint64_t align) {
  bytes = std::max<uint64_t>(bytes, 1);
  align = std::max(align, kMinAlign);
  if (align & (align - 1)) return std::nullopt;
  const uint64_t end = base_ + size_;
  uint64_t candidate = align_up(base_, align);
  for (const auto& [address, length] : blocks_) {
    if (candidate <= address && address - candidate >= bytes) break;
    candidate = std::max(candidate, align_up(address + length, align));
  }
  if (candidate > end || end - candidate < bytes) return std::nullopt;
  blocks_.emplace(candidate, bytes);
  used_ += bytes;
  return candidate;
}

bool FirmwareHeap::free(uint64_t address) {
  const auto it = blocks_.find(address);
  if (it == blocks_.end()) return false;
  used_ -= it->second;
  blocks_.erase(it);
  return true;
}

uint64_t FirmwareHeap::largest_free() const {
  uint64_t largest = 0;
  uint64_t cursor = base_;
  for (const auto& [address, length] : blocks_) {
    largest = std::max(largest, address - cursor);
    cursor = address + length;
  }
  return std::max(largest, base_ + size_ - cursor);
}

}  // namespace gpusoc::gigathread
