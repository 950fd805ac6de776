#include "sw/runtime/pinned_memory.h"

#include <cstring>

#include <fmt/format.h>

#include "sw/runtime/status.h"

namespace gpusoc::rt {

PinnedMemory::PinnedMemory(uint64_t address, uint8_t* pointer, uint64_t bytes)
    : pointer_(pointer), allocator_("pinned host memory", address, bytes, kAlignment) {}

std::optional<PinnedMemory::Block> PinnedMemory::try_allocate(uint64_t bytes, uint64_t alignment) {
  const auto address = allocator_.try_allocate(bytes, alignment);
  if (!address) return std::nullopt;
  Block block{*address, pointer(*address), bytes};
  std::memset(block.pointer, 0, bytes);  // fence words and records must start at zero
  return block;
}

PinnedMemory::Block PinnedMemory::allocate(uint64_t bytes, uint64_t alignment) {
  const uint64_t address = allocator_.allocate(bytes, alignment);
  Block block{address, pointer(address), bytes};
  std::memset(block.pointer, 0, bytes);
  return block;
}

void PinnedMemory::free(uint64_t address) {
  allocator_.free(address);
}

std::optional<uint64_t> PinnedMemory::address_of(const void* p, uint64_t bytes,
                                                 const char* what) const {
  const auto* byte = static_cast<const uint8_t*>(p);
  // Compared as integers: p usually points into some other object entirely.
  const uintptr_t begin = reinterpret_cast<uintptr_t>(pointer_);
  const uintptr_t at = reinterpret_cast<uintptr_t>(byte);
  if (at < begin || at - begin >= allocator_.total_bytes()) return std::nullopt;
  const uint64_t address = allocator_.base() + (at - begin);
  const auto block = allocator_.find(address);
  if (!block) return std::nullopt;
  if (bytes > block->bytes - (address - block->address)) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: host range [{:#x}, +{}) runs past the end of its pinned buffer "
                            "[{:#x}, +{})",
                            what, address, bytes, block->address, block->bytes));
  }
  return address;
}

}  // namespace gpusoc::rt
