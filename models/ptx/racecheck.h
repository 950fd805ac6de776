// racecheck: shared-memory hazards between threads of a CTA that no barrier orders. A read of a
// word another warp wrote, a write of a word another warp read or wrote, with no barrier (bar.sync
// and friends, or an mbarrier phase completing) between them, is a race: its outcome depends on
// how the warps are scheduled. Threads of one warp are not checked against each other (they run
// in lockstep under the reconvergence stack, and warp-synchronous code relies on it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/kernel_launch.h"

namespace gpusoc::ptx {

class SharedRaceCheck {
 public:
  explicit SharedRaceCheck(uint32_t shared_bytes) : words_((shared_bytes + 3) / 4) {}

  /// Forgets every access: a barrier released, an mbarrier phase completed, or a new CTA began.
  void new_epoch() { ++epoch_; }

  /// Records a load or store of `bytes` at `offset` by `thread` (linear index in the CTA) at PTX
  /// `line`. Returns the hazard it forms with an access of another warp since the last epoch,
  /// naming both threads and lines ("racecheck: read-after-write hazard on shared memory at
  /// offset 0x40: ..."), or empty.
  std::string access(uint32_t offset, unsigned bytes, bool write, uint32_t thread, uint32_t line,
                     const Dim3& block);

 private:
  static constexpr uint32_t kNobody = UINT32_MAX;
  struct Access {
    uint32_t thread = kNobody;
    uint32_t line = 0;
  };
  // One 4-byte word's accesses in the current epoch: the last write, and two reads from
  // different warps (enough to find a reader from a warp other than any writer's).
  struct Word {
    uint64_t epoch = 0;
    Access writer, reader, other_reader;
  };
  std::vector<Word> words_;
  uint64_t epoch_ = 1;
};

}  // namespace gpusoc::ptx
