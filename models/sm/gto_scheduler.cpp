// Greedy-then-oldest: keep issuing from the warp that issued last until it stalls, then fall back
// to the oldest warp. Favouring old warps lets them finish and free their CTA's resources.
#include <algorithm>
#include <limits>

#include "models/sm/warp_scheduler_policies.h"

namespace gpusoc::sm {
namespace {

class GtoScheduler : public WarpScheduler {
 public:
  const char* name() const override { return "gto"; }
  void warp_added(uint32_t slot, uint64_t age) override {
    // Kept in age order as warps come and go, so that order() never sorts.
    auto at = std::upper_bound(by_age_.begin(), by_age_.end(), age,
                               [](uint64_t a, const Entry& e) { return a < e.age; });
    by_age_.insert(at, Entry{age, slot});
  }
  void warp_removed(uint32_t slot) override {
    by_age_.erase(std::find_if(by_age_.begin(), by_age_.end(),
                               [slot](const Entry& e) { return e.slot == slot; }));
    if (slot == greedy_) greedy_ = kNone;
  }
  void order(const std::vector<uint32_t>& live, std::vector<uint32_t>& out) override {
    (void)live;  // by_age_ holds exactly the live warps
    out.clear();
    if (greedy_ != kNone) out.push_back(greedy_);
    for (const Entry& e : by_age_)
      if (e.slot != greedy_) out.push_back(e.slot);
  }
  void issued(uint32_t slot) override { greedy_ = slot; }

 private:
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  struct Entry {
    uint64_t age;
    uint32_t slot;
  };
  std::vector<Entry> by_age_;  // the live warps, oldest first (equal ages: in arrival order)
  uint32_t greedy_ = kNone;    // the warp that issued last, while it lives
};

}  // namespace

constexpr WarpSchedulerRegistry::Entry kGtoScheduler{
    "gto", "greedy-then-oldest", [](const PolicySettings&) -> std::unique_ptr<WarpScheduler> {
      return std::make_unique<GtoScheduler>();
    }};

}  // namespace gpusoc::sm
