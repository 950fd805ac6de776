// The generic address space of the functional core: shared and local memory appear as windows
// in the 64-bit generic space (cvta converts between them), everything else is global.
#pragma once

#include <cstdint>

namespace gpusoc::ptx {

constexpr uint64_t kSharedWindowBase = 0x00007F0000000000ull;
constexpr uint64_t kLocalWindowBase = 0x00007F0100000000ull;
constexpr uint64_t kWindowSize = 0x0000000100000000ull;  // 4 GiB each
/// Device allocations and module variables live here and above.
constexpr uint64_t kGlobalBase = 0x0000000200000000ull;
/// Device functions have addresses (for indirect calls) in a range no data uses.
constexpr uint64_t kFunctionAddressBase = 0x00007E0000000000ull;

inline bool in_shared_window(uint64_t a) {
  return a - kSharedWindowBase < kWindowSize;
}
inline bool in_local_window(uint64_t a) {
  return a - kLocalWindowBase < kWindowSize;
}

}  // namespace gpusoc::ptx
