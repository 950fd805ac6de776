#include "models/gigathread/dispatch_policy.h"

#include <algorithm>
#include <functional>
#include <map>

#include "models/common/error.h"

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

using Factory = std::function<std::unique_ptr<CtaDispatchPolicy>(const std::vector<SmPlace>&)>;

const std::map<std::string, Factory>& registry() {
  static const std::map<std::string, Factory> policies = {
      {"round_robin", [](const auto& p) { return std::make_unique<RoundRobin>(p); }},
      {"fill", [](const auto&) { return std::make_unique<Fill>(); }},
  };
  return policies;
}

}  // namespace

std::vector<std::string> dispatch_policy_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<CtaDispatchPolicy> make_dispatch_policy(const std::string& name,
                                                        const std::vector<SmPlace>& places) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string list;
    for (const std::string& n : dispatch_policy_names()) list += (list.empty() ? "" : ", ") + n;
    throw ConfigError("unknown CTA dispatch policy '" + name + "' (policies: " + list + ")");
  }
  return it->second(places);
}

}  // namespace gpusoc::gigathread
