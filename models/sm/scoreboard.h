// Register dependencies of one warp: which registers have a write in flight and when it lands.
// An instruction may issue only when none of its source registers (RAW) and none of its
// destination registers (WAW) has a write pending at that cycle. Registers are numbered per warp
// across call frames (frame offset + register index, see ptx::Warp::register_frame()).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace gpusoc::sm {

class Scoreboard {
 public:
  static constexpr uint64_t kUnknown = std::numeric_limits<uint64_t>::max();  // memory: not yet

  /// A write to `reg` lands at `ready_cycle` (kUnknown: when complete() is called for `tag`).
  /// `memory`: a load writes it (the stall reason "memory" rather than "dependency").
  /// `texture`: a texture or surface instruction writes it (the stall reason "texture").
  void reserve(uint32_t reg, uint64_t ready_cycle, uint64_t tag = 0, bool memory = false,
               bool texture = false);
  /// The writes reserved with kUnknown under `tag` land at `cycle`.
  void complete(uint64_t tag, uint64_t cycle);
  /// The first cycle at or after `now` at which none of `regs` has a pending write
  /// (kUnknown while one waits on memory). Entries that landed by `now` are dropped.
  uint64_t ready_cycle(const uint32_t* regs, unsigned count, uint64_t now);
  /// What the longest wait of `regs` is for: a texture or surface instruction (reserved with
  /// `texture`), else a load (reserved with `memory`, or of unknown completion), else an
  /// arithmetic result. The stall reasons "texture", "memory" and "dependency".
  enum class Wait : uint8_t { Arithmetic, Memory, Texture };
  Wait waits_on(const uint32_t* regs, unsigned count) const;
  bool empty() const { return pending_.empty(); }
  void clear() { pending_.clear(); }

 private:
  struct Pending {
    uint32_t reg;
    uint64_t ready;
    uint64_t tag;
    bool memory;
    bool texture;
  };
  std::vector<Pending> pending_;  // few entries: a linear scan beats a map
};

}  // namespace gpusoc::sm
