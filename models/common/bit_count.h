// Set bits in a 32-bit mask (sectors of a packet, lanes of a warp), inline. The x86-64 baseline
// this project builds for has no POPCNT instruction, so __builtin_popcount becomes a call into
// libgcc (about 20 instructions); the memory system and the warps count bits often enough per
// packet and per instruction for the call to show in profiles.
#pragma once

#include <cstdint>

namespace gpusoc {

constexpr uint32_t count_bits(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);                 // 2-bit sums
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);  // 4-bit sums
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;                  // byte sums
  return (x * 0x01010101u) >> 24;                    // the bytes' total in the top byte
}

}  // namespace gpusoc
