#include "models/sm/coalescer.h"

namespace gpusoc::sm {
namespace {

// Sectors lo..hi; unsigned wrap-around makes hi == 31 come out right, as (2 << 31) is 0.
uint32_t sector_range(uint64_t lo, uint64_t hi) {
  return (uint32_t(2) << hi) - (uint32_t(1) << lo);
}

}  // namespace

void coalesce(const uint64_t* addresses, ptx::LaneMask lanes, unsigned bytes,
              const CoalescerGeometry& geometry, std::vector<LineRequest>& out) {
  out.clear();
  if (bytes == 0) return;
  const uint64_t line_bytes = geometry.line_bytes;
  const uint64_t offset_mask = line_bytes - 1;
  const unsigned shift = unsigned(__builtin_ctz(geometry.sector_bytes));
  const uint64_t last_sector = offset_mask >> shift;
  const bool may_fit = bytes <= line_bytes;
  const uint64_t last_fitting_offset = line_bytes - bytes;  // when may_fit
  // Lines listed so far lie in [lowest, highest]: a line outside is new without a search, so
  // monotonic patterns (unit stride, stride N, either direction) never search.
  uint64_t lowest = ~uint64_t(0);
  uint64_t highest = 0;
  size_t recent = 0;  // the entry touched last

  for (ptx::LaneMask rest = lanes; rest != 0;) {
    // One lane's access, line by line (more than one when it straddles).
    const unsigned lane = unsigned(__builtin_ctz(rest));
    const ptx::LaneMask bit = ptx::LaneMask(1) << lane;
    rest &= rest - 1;
    const uint64_t first = addresses[lane];
    const uint64_t last = first + bytes - 1;
    const uint64_t last_line = last & ~offset_mask;
    uint64_t lo = (first & offset_mask) >> shift;
    for (uint64_t line = first & ~offset_mask;; line += line_bytes, lo = 0) {
      const bool final = line == last_line;
      const uint32_t sectors = sector_range(lo, final ? (last - line) >> shift : last_sector);
      if (out.empty() || line < lowest || line > highest) {
        recent = out.size();
        out.push_back({line, sectors, bit});
        if (line < lowest) lowest = line;
        if (line > highest) highest = line;
      } else {
        if (out[recent].line_address != line) {
          recent = 0;
          while (recent < out.size() && out[recent].line_address != line) ++recent;
          if (recent == out.size()) out.push_back({line, 0, 0});
        }
        out[recent].sector_mask |= sectors;
        out[recent].lanes |= bit;
      }
      if (final) break;
    }
    if (!may_fit) continue;
    // The following lanes whose access lies within that line, in locals: the usual case.
    const uint64_t line = out[recent].line_address;
    uint32_t sectors = 0;
    ptx::LaneMask more = 0;
    while (rest != 0) {
      const unsigned next = unsigned(__builtin_ctz(rest));
      const uint64_t offset = addresses[next] - line;  // huge when below the line
      if (offset > last_fitting_offset) break;
      sectors |= sector_range(offset >> shift, (offset + bytes - 1) >> shift);
      more |= ptx::LaneMask(1) << next;
      rest &= rest - 1;
    }
    out[recent].sector_mask |= sectors;
    out[recent].lanes |= more;
  }
}

}  // namespace gpusoc::sm
