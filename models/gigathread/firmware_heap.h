// The firmware heap: the top of VRAM, reserved for the .global and .const variables of the
// modules the command processor loads. A first-fit allocator over [base, base + size); blocks
// are freed when the module that owns them is gone.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace gpusoc::gigathread {

class FirmwareHeap {
 public:
  FirmwareHeap(uint64_t base, uint64_t size) : base_(base), size_(size) {}

  /// The lowest address of a free gap that holds `bytes` (at least 1) at `align` (a power of
  /// two, at least kMinAlign is used), or nullopt when none does.
  std::optional<uint64_t> allocate(uint64_t bytes, uint64_t align);
  /// Frees a block allocate() returned; false (and nothing freed) for any other address.
  bool free(uint64_t address);

  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  uint64_t used_bytes() const { return used_; }
  uint64_t largest_free() const;  // the biggest gap, for error messages

  static constexpr uint64_t kMinAlign = 16;

 private:
  uint64_t base_, size_;
  uint64_t used_ = 0;
  std::map<uint64_t, uint64_t> blocks_;  // address -> bytes, live blocks
};

}  // namespace gpusoc::gigathread
