#include "models/sm/scoreboard.h"

#include <algorithm>

namespace gpusoc::sm {
namespace {

bool contains(const uint32_t* regs, unsigned count, uint32_t reg) {
  return std::find(regs, regs + count, reg) != regs + count;
}

}  // namespace

void Scoreboard::reserve(uint32_t reg, uint64_t ready_cycle, uint64_t tag, bool memory,
                         bool texture) {
  pending_.push_back(Pending{reg, ready_cycle, tag, memory || ready_cycle == kUnknown, texture});
}

void Scoreboard::complete(uint64_t tag, uint64_t cycle) {
  for (Pending& p : pending_)
    if (p.ready == kUnknown && p.tag == tag) p.ready = cycle;
}

uint64_t Scoreboard::ready_cycle(const uint32_t* regs, unsigned count, uint64_t now) {
  uint64_t ready = now;
  for (size_t i = 0; i < pending_.size();) {
    const Pending& p = pending_[i];
    if (p.ready <= now) {  // landed: drop it (order does not matter, so swap with the last)
      pending_[i] = pending_.back();
      pending_.pop_back();
      continue;
    }
    if (contains(regs, count, p.reg)) ready = std::max(ready, p.ready);
    ++i;
  }
  return ready;
}

Scoreboard::Wait Scoreboard::waits_on(const uint32_t* regs, unsigned count) const {
  Wait w = Wait::Arithmetic;
  for (const Pending& p : pending_) {
    if (!p.memory || !contains(regs, count, p.reg)) continue;
    if (p.texture) return Wait::Texture;
    w = Wait::Memory;
  }
  return w;
}

}  // namespace gpusoc::sm
