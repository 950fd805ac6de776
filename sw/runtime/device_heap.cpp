#include "sw/runtime/device_heap.h"

#include <fmt/format.h>

#include "sw/runtime/status.h"

namespace gpusoc::rt {

DeviceHeap::DeviceHeap(uint64_t base, uint64_t bytes, uint64_t alignment,
                       DeviceHeapChecking checking)
    : allocator_("device memory", base, bytes, alignment, checking.red_zone_bytes),
      checking_(checking) {}

uint64_t DeviceHeap::allocate(uint64_t bytes) {
  while (!quarantine_.empty()) {
    if (const auto address = allocator_.try_allocate(bytes)) return *address;
    release_oldest();
  }
  return allocator_.allocate(bytes);
}

void DeviceHeap::free(uint64_t address) {
  if (quarantined_.count(address)) {
    throw Error(Status::InvalidValue,
                fmt::format("device memory: free of {:#x}, which was already freed", address));
  }
  const auto block = find(address);
  if (!block || block->address != address || checking_.quarantine_bytes == 0) {
    allocator_.free(address);  // the error for anything but a live allocation's start
    return;
  }
  quarantine_.push_back(*block);
  quarantined_.insert(address);
  quarantined_bytes_ += block->bytes;
  while (quarantined_bytes_ > checking_.quarantine_bytes) release_oldest();
}

std::optional<RangeAllocator::Block> DeviceHeap::find(uint64_t address) const {
  const auto block = allocator_.find(address);
  if (block && quarantined_.count(block->address)) return std::nullopt;
  return block;
}

void DeviceHeap::release_oldest() {
  const RangeAllocator::Block oldest = quarantine_.front();
  quarantine_.pop_front();
  quarantined_.erase(oldest.address);
  quarantined_bytes_ -= oldest.bytes;
  allocator_.free(oldest.address);
}

}  // namespace gpusoc::rt
