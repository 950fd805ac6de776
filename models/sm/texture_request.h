// What an SM sends its texture unit for one texture or surface warp instruction (GpuRequest kind
// Texture), from the PTX core's footprint of it: shared by both SM fidelities.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/common/gpu_request.h"
#include "models/ptx/launch.h"

namespace gpusoc::sm {

/// Fills `r`'s texture fields: the distinct 32-byte sectors of the footprint (sorted), its texel
/// count, and the quads (groups of 4 lanes) with a lane that took part.
inline void describe_texture_request(const ptx::TextureFootprint& f, GpuRequest& r) {
  r.kind = AccessKind::Texture;
  r.texture_sectors.clear();
  for (uint64_t a : f.addresses) {
    r.texture_sectors.push_back(a & ~uint64_t(31));
    // A surface access of up to 16 bytes, or a texel, may cross into the next sector.
    if ((a & 31) + f.bytes > 32) r.texture_sectors.push_back((a & ~uint64_t(31)) + 32);
  }
  std::sort(r.texture_sectors.begin(), r.texture_sectors.end());
  r.texture_sectors.erase(std::unique(r.texture_sectors.begin(), r.texture_sectors.end()),
                          r.texture_sectors.end());
  r.texels = uint32_t(f.addresses.size());
  r.quads = 0;
  for (unsigned q = 0; q < ptx::kWarpSize / 4; ++q) r.quads += ((f.lanes >> (4 * q)) & 0xf) != 0;
}

}  // namespace gpusoc::sm
