// Host reference for sw/kernels/thread_ids.cu (tests/kernels/thread_ids_test.cpp, the
// thread_ids app): the special registers every thread must have seen. Exact.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/ptx/device.h"

namespace gpusoc::apps::reference {

constexpr int kThreadIdWords = 16;  // words per thread record

struct ThreadIdCheck {
  uint64_t wrong_words = 0;
  std::string first;  // the first wrong word, in words; empty when none
};

/// Checks thread_ids' output for a grid x block launch on a device with `sms` SMs: %tid,
/// %ntid, %ctaid, %nctaid and %laneid exactly; %smid the same for every thread of a block and
/// below %nsmid; %nsmid == sms; and the lanes in each thread's warp.
inline ThreadIdCheck check_thread_ids(const std::vector<uint32_t>& got, Dim3 grid, Dim3 block,
                                      uint32_t sms) {
  ThreadIdCheck c;
  const uint64_t per_block = block.count();
  auto expect = [&](uint32_t have, uint32_t want, uint64_t b, uint32_t t, const char* what) {
    if (have == want) return;
    if (c.wrong_words++ == 0)
      c.first = std::string(what) + " of block " + std::to_string(b) + " thread " +
                std::to_string(t) + ": " + std::to_string(have) + ", want " + std::to_string(want);
  };
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx) {
        const uint64_t b = bx + grid.x * (by + uint64_t(grid.y) * bz);
        const uint32_t sm = got[(b * per_block) * kThreadIdWords + 13];
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx) {
              const uint32_t t = tx + block.x * (ty + block.y * tz);
              const uint32_t* o = &got[(b * per_block + t) * kThreadIdWords];
              const uint32_t warp_threads = std::min<uint64_t>(32, per_block - t / 32 * 32);
              const uint32_t want[13] = {tx, ty, tz,     block.x, block.y, block.z, bx,
                                         by, bz, grid.x, grid.y,  grid.z,  t % 32};
              const char* names[13] = {"%tid.x",   "%tid.y",    "%tid.z",    "%ntid.x",
                                       "%ntid.y",  "%ntid.z",   "%ctaid.x",  "%ctaid.y",
                                       "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
                                       "%laneid"};
              for (int j = 0; j < 13; ++j) expect(o[j], want[j], b, t, names[j]);
              expect(o[13], sm, b, t, "%smid (differs inside the block)");
              expect(o[13] < sms, 1, b, t, "%smid < %nsmid");
              expect(o[14], sms, b, t, "%nsmid");
              expect(o[15], warp_threads, b, t, "lanes in the warp");
            }
      }
  return c;
}

}  // namespace gpusoc::apps::reference
