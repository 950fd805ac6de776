// Shared-memory bank conflicts: shared memory is `banks` banks of `bank_bytes` each, word w in
// bank w % banks. Lanes reading the same word are served by one broadcast; lanes touching
// different words of one bank are served one word per cycle. The conflict degree (cycles the
// access takes) is the largest number of distinct words any bank must deliver; an access wider
// than a bank word touches several consecutive words (as 64- and 128-bit accesses do).
#pragma once

#include <cstdint>

#include "models/ptx/inst.h"

namespace gpusoc::sm {

struct SharedMemoryBanks {
  uint32_t banks = 32;      // power of two
  uint32_t bank_bytes = 4;  // power of two

  /// Cycles the access takes (1 without conflicts; 0 when no lane takes part).
  uint32_t conflict_degree(const uint64_t* addresses, ptx::LaneMask lanes, unsigned bytes) const;
};

}  // namespace gpusoc::sm
