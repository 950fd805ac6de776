// The L2's replacement policies, chosen by name. Per-set state lives in flat arrays indexed by
// set * ways + way, so a choice costs O(ways) and allocates nothing.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/error.h"
#include "models/l2/l2_slice.h"

namespace gpusoc::l2 {
namespace {

// The candidate with the smallest stamp; ties go to the lowest way, so never-used ways (stamp 0)
// go first in way order. Written without data-dependent branches: sets are small and hot.
uint32_t oldest(const uint64_t* stamps, const std::vector<uint8_t>& candidate) {
  uint32_t best = 0;
  uint64_t best_key = ~uint64_t(0);
  for (uint32_t w = 0; w < candidate.size(); ++w) {
    const uint64_t key = candidate[w] ? stamps[w] : ~uint64_t(0);
    const bool better = key < best_key;
    best = better ? w : best;
    best_key = better ? key : best_key;
  }
  return best;
}

// Least recently used: every hit and fill stamps the way with a use counter.
class LruPolicy final : public ReplacementPolicy {
 public:
  LruPolicy(uint32_t sets, uint32_t ways) : ways_(ways), stamp_(size_t(sets) * ways, 0) {}
  const char* name() const override { return "lru"; }
  void touched(uint32_t set, uint32_t way) override {
    stamp_[size_t(set) * ways_ + way] = ++clock_;
  }
  uint32_t victim(uint32_t set, const std::vector<uint8_t>& candidate) override {
    return oldest(&stamp_[size_t(set) * ways_], candidate);
  }

 private:
  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;
};

// First in, first out: only insertions stamp a way; hits leave the order alone.
class FifoPolicy final : public ReplacementPolicy {
 public:
  FifoPolicy(uint32_t sets, uint32_t ways) : ways_(ways), stamp_(size_t(sets) * ways, 0) {}
  const char* name() const override { return "fifo"; }
  void touched(uint32_t, uint32_t) override {}
  void inserted(uint32_t set, uint32_t way) override {
    stamp_[size_t(set) * ways_ + way] = ++clock_;
  }
  uint32_t victim(uint32_t set, const std::vector<uint8_t>& candidate) override {
    return oldest(&stamp_[size_t(set) * ways_], candidate);
  }

 private:
  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;
};

// Uniform among the candidates, from a fixed-seed xorshift64* generator: runs repeat exactly.
class RandomPolicy final : public ReplacementPolicy {
 public:
  const char* name() const override { return "random"; }
  void touched(uint32_t, uint32_t) override {}
  uint32_t victim(uint32_t, const std::vector<uint8_t>& candidate) override {
    uint32_t count = 0;
    for (uint8_t c : candidate) count += c != 0;
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    uint32_t pick = uint32_t((state_ * 0x2545F4914F6CDD1DULL) >> 32) % count;
    for (uint32_t w = 0;; ++w) {
      if (candidate[w] && pick-- == 0) return w;
    }
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
  if (name == "lru") return std::make_unique<LruPolicy>(sets, ways);
  if (name == "fifo") return std::make_unique<FifoPolicy>(sets, ways);
  if (name == "random") return std::make_unique<RandomPolicy>();
  throw ConfigError(fmt::format("unknown replacement policy '{}' (known: {})", name,
                                fmt::join(replacement_policy_names(), ", ")));
}

}  // namespace gpusoc::l2
