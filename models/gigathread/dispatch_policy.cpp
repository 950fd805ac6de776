#include "models/gigathread/dispatch_policy.h"

#include <algorithm>

namespace gpusoc::gigathread {
namespace {

class RoundRobin : public CtaDispatchPolicy {
 public:
  explicit RoundRobin(const std::vector<SmPlace>& places) : rank_(places.size()) {
    // Visiting order: the first SM of every TPC of every GPC, GPCs alternating fastest.
    std::vector<uint32_t> order(places.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const SmPlace& x = places[a];
      const SmPlace& y = places[b];
      return std::tie(x.sm, x.tpc, x.gpc) < std::tie(y.sm, y.tpc, y.gpc);
    });
    for (uint32_t r = 0; r < order.size(); ++r) rank_[order[r]] = r;
  }
  uint32_t choose(const std::vector<uint32_t>& candidates) override {
    // The candidate whose rank comes first at or after the cursor, wrapping around.
    const uint32_t n = uint32_t(rank_.size());
    uint32_t best = candidates.front();
    uint32_t best_distance = n;
    for (uint32_t sm : candidates) {
      const uint32_t distance = (rank_[sm] + n - next_rank_) % n;
      if (distance < best_distance) {
        best_distance = distance;
        best = sm;
      }
    }
    next_rank_ = (rank_[best] + 1) % n;
    return best;
  }

 private:
  std::vector<uint32_t> rank_;  // position of each SM in the visiting order
  uint32_t next_rank_ = 0;
};

class Fill : public CtaDispatchPolicy {
 public:
  uint32_t choose(const std::vector<uint32_t>& candidates) override { return candidates.front(); }
};

constexpr DispatchPolicyRegistry::Entry kRoundRobin{
    "round_robin", "across GPCs, then TPCs, then the SMs of a TPC",
    [](const PolicySettings&, const std::vector<SmPlace>& places)
        -> std::unique_ptr<CtaDispatchPolicy> { return std::make_unique<RoundRobin>(places); }};
constexpr DispatchPolicyRegistry::Entry kFill{
    "fill", "the lowest-numbered SM with room",
    [](const PolicySettings&, const std::vector<SmPlace>&) -> std::unique_ptr<CtaDispatchPolicy> {
      return std::make_unique<Fill>();
    }};

}  // namespace

DispatchPolicyRegistry& dispatch_policies() {
  static DispatchPolicyRegistry registry("gigathread.dispatch_policy", "CTA dispatch policy",
                                         {kRoundRobin, kFill});
  return registry;
}

}  // namespace gpusoc::gigathread
