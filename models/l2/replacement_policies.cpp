// The L2's replacement policies and their catalog (models/common/registry.h). Per-set state lives
// in flat arrays indexed by set * ways + way, so a choice costs O(ways) and allocates nothing.
#include <cstring>

#include "models/l2/l2_slice.h"

namespace gpusoc::l2 {
namespace {

// Evicts the least recently used candidate (LRU: hits and fills are uses) or the first filled
// (FIFO: fills only). Per set, its ways in order of use, the latest first: a victim is found
// from the back, where candidates nearly always are, and a use moves its way to the front (a
// few bytes). Never-used ways start at the back in way order, so the lowest goes first.
class RecencyPolicy final : public ReplacementPolicy {
 public:
  RecencyPolicy(uint32_t sets, uint32_t ways, bool hits_count)
      : ways_(ways), hits_count_(hits_count), order_(size_t(sets) * ways) {
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = uint8_t(ways - 1 - i % ways);
  }
  const char* name() const override { return hits_count_ ? "lru" : "fifo"; }
  void touched(uint32_t set, uint32_t way) override {
    if (hits_count_) to_front(set, way);
  }
  void inserted(uint32_t set, uint32_t way) override { to_front(set, way); }
  uint32_t victim(uint32_t set, uint64_t candidates) override {
    const uint8_t* order = &order_[size_t(set) * ways_];
    uint32_t i = ways_ - 1;
    while (i > 0 && !(candidates >> order[i] & 1)) --i;
    return order[i];
  }

 private:
  void to_front(uint32_t set, uint32_t way) {
    uint8_t* order = &order_[size_t(set) * ways_];
    uint32_t i = 0;
    while (order[i] != way) ++i;
    std::memmove(order + 1, order, i);
    order[0] = uint8_t(way);
  }
  uint32_t ways_;
  bool hits_count_;
  std::vector<uint8_t> order_;  // ways x sets (ways <= 64)
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

using Entry = ReplacementRegistry::Entry;
constexpr Entry kLru{
    "lru", "least recently used",
    [](const PolicySettings&, uint32_t sets, uint32_t ways) -> std::unique_ptr<ReplacementPolicy> {
      return std::make_unique<RecencyPolicy>(sets, ways, true);
    }};
constexpr Entry kFifo{
    "fifo", "first filled, first evicted",
    [](const PolicySettings&, uint32_t sets, uint32_t ways) -> std::unique_ptr<ReplacementPolicy> {
      return std::make_unique<RecencyPolicy>(sets, ways, false);
    }};
constexpr Entry kRandom{
    "random", "uniform, from a fixed seed",
    [](const PolicySettings&, uint32_t, uint32_t) -> std::unique_ptr<ReplacementPolicy> {
      return std::make_unique<RandomPolicy>();
    }};

}  // namespace

ReplacementRegistry& replacement_policies() {
  static ReplacementRegistry registry("l2.replacement", "replacement policy",
                                      {kLru, kFifo, kRandom});
  return registry;
}

}  // namespace gpusoc::l2
