// The LSU's coalescer: a warp's per-lane addresses become the 128-byte lines they touch, each
// with a mask of the 32-byte sectors needed. Accesses that straddle a sector or line boundary
// touch both. Lines are listed in the order of the lowest lane that touches them, so the
// result is deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "models/common/bit_count.h"
#include "models/ptx/inst.h"

namespace gpusoc::sm {

struct LineRequest {
  uint64_t line_address;  // aligned to line_bytes
  uint32_t sector_mask;   // bit i: sector i of the line (line_bytes / sector_bytes sectors)
  ptx::LaneMask lanes;    // lanes whose access touches this line
};

struct CoalescerGeometry {
  uint32_t line_bytes = 128;   // power of two
  uint32_t sector_bytes = 32;  // power of two, divides line_bytes, at most 32 sectors a line
};

/// Fills `out` (cleared first) with the lines that `addresses[lane]` for lanes in `lanes`, each
/// `bytes` wide, touch. Allocates nothing once `out` has grown.
void coalesce(const uint64_t* addresses, ptx::LaneMask lanes, unsigned bytes,
              const CoalescerGeometry& geometry, std::vector<LineRequest>& out);

/// Sectors in a mask.
inline unsigned sector_count(uint32_t mask) { return count_bits(mask); }

}  // namespace gpusoc::sm
