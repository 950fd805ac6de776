// The L2's replacement policies, chosen by name. Per-set state lives in flat arrays indexed by
// set * ways + way, so a choice costs O(ways) and allocates nothing.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/error.h"
#include "models/l2/l2_slice.h"

namespace gpusoc::l2 {
namespace {

// The candidate with the smallest stamp; ties go to the lowest way, so never-used ways (stamp 0)
// go first in way order. Each candidate is one number, its stamp above its way (ways <= 64;
// stamps count accesses, far below 2^58), and the least wins.
uint32_t oldest(const uint64_t* stamps, uint64_t candidates) {
  uint64_t least = ~uint64_t(0);
  for (; candidates != 0; candidates &= candidates - 1) {
    const uint32_t w = uint32_t(__builtin_ctzll(candidates));
    least = std::min(least, stamps[w] << 6 | w);
  }
  return uint32_t(least & 63);
}

// Evicts the way with the oldest stamp. LRU stamps on every hit and fill; FIFO only on fills, so
// hits leave the order alone.
class StampPolicy final : public ReplacementPolicy {
 public:
  StampPolicy(uint32_t sets, uint32_t ways, bool stamp_hits)
      : ways_(ways), stamp_hits_(stamp_hits), stamp_(size_t(sets) * ways, 0) {}
  const char* name() const override { return stamp_hits_ ? "lru" : "fifo"; }
  void touched(uint32_t set, uint32_t way) override {
    if (stamp_hits_) stamp(set, way);
  }
  void inserted(uint32_t set, uint32_t way) override { stamp(set, way); }
  uint32_t victim(uint32_t set, uint64_t candidates) override {
    return oldest(&stamp_[size_t(set) * ways_], candidates);
  }

 private:
  void stamp(uint32_t set, uint32_t way) { stamp_[size_t(set) * ways_ + way] = ++clock_; }
  uint32_t ways_;
  bool stamp_hits_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;
};

// Uniform among the candidates, from a fixed-seed xorshift64* generator: runs repeat exactly.
class RandomPolicy final : public ReplacementPolicy {
 public:
  const char* name() const override { return "random"; }
  void touched(uint32_t, uint32_t) override {}
  uint32_t victim(uint32_t, uint64_t candidates) override {
    const uint32_t count = uint32_t(__builtin_popcountll(candidates));
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    uint32_t pick = uint32_t((state_ * 0x2545F4914F6CDD1DULL) >> 32) % count;
    for (; pick > 0; --pick) candidates &= candidates - 1;  // drop the pick lowest candidates
    return uint32_t(__builtin_ctzll(candidates));
  }

 private:
  uint64_t state_ = 0x9E3779B97F4A7C15ULL;
};

}  // namespace

const std::vector<std::string>& replacement_policy_names() {
  static const std::vector<std::string> names{"lru", "fifo", "random"};
  return names;
}

std::unique_ptr<ReplacementPolicy> make_replacement_policy(const std::string& name, uint32_t sets,
                                                           uint32_t ways) {
  if (name == "lru") return std::make_unique<StampPolicy>(sets, ways, true);
  if (name == "fifo") return std::make_unique<StampPolicy>(sets, ways, false);
  if (name == "random") return std::make_unique<RandomPolicy>();
  throw ConfigError(fmt::format("unknown replacement policy '{}' (known: {})", name,
                                fmt::join(replacement_policy_names(), ", ")));
}

}  // namespace gpusoc::l2
