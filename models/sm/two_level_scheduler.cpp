// Two-level scheduling (Narasiman et al., MICRO 2011): round-robin over a small active set of
// warps only. A warp that starts waiting on memory drops to the pending set and the oldest ready
// pending warp takes its place, so the active warps reach their long-latency loads at different
// times instead of all together, and the scheduler looks at fewer warps.
#include "models/common/param.h"
#include "models/sm/warp_scheduler_policies.h"

namespace gpusoc::sm {
namespace {

class TwoLevelScheduler : public WarpScheduler {
 public:
  explicit TwoLevelScheduler(uint32_t active_limit) : limit_(active_limit) {}
  const char* name() const override { return "two_level"; }

  void warp_added(uint32_t slot, uint64_t age) override {
    if (slot >= slots_.size()) slots_.resize(slot + 1);
    slots_[slot] = Slot{age, true, false, false};
    rebalance();  // takes the new warp in if there is room
  }
  void warp_removed(uint32_t slot) override {
    if (!present(slot)) return;
    if (slots_[slot].active) --active_count_;
    slots_[slot] = Slot{};
    rebalance();
  }
  void order(const std::vector<uint32_t>& live, std::vector<uint32_t>& out) override {
    // Every warp waits (rebalance() keeps ready ones active): take waiting ones rather than offer
    // nothing, so that the SM never starves even if it does not report the end of a wait.
    if (active_count_ == 0) {
      Slot* s;
      while (active_count_ < limit_ && (s = oldest_pending(true))) activate(*s);
    }
    out.clear();
    append_round_robin(
        live, next_, [this](uint32_t s) { return s < slots_.size() && slots_[s].active; }, out);
  }
  void issued(uint32_t slot) override { next_ = slot + 1; }
  bool orders_every_warp() const override { return false; }
  void long_latency_wait(uint32_t slot, bool waiting) override {
    if (!present(slot)) return;
    Slot& s = slots_[slot];
    s.waiting = waiting;
    if (waiting && s.active) deactivate(s);
    rebalance();
  }

 private:
  struct Slot {
    uint64_t age = 0;
    bool present = false;
    bool active = false;
    bool waiting = false;  // on a long-latency operation
  };

  bool present(uint32_t slot) const { return slot < slots_.size() && slots_[slot].present; }
  void activate(Slot& s) {
    s.active = true;
    ++active_count_;
  }
  void deactivate(Slot& s) {
    s.active = false;
    --active_count_;
  }
  /// The oldest warp outside the active set (only one not waiting, unless told); null if none.
  Slot* oldest_pending(bool waiting_too) {
    Slot* oldest = nullptr;
    for (Slot& s : slots_)
      if (s.present && !s.active && (waiting_too || !s.waiting) && (!oldest || s.age < oldest->age))
        oldest = &s;
    return oldest;
  }
  Slot* waiting_active() {
    for (Slot& s : slots_)
      if (s.active && s.waiting) return &s;
    return nullptr;
  }
  /// Keeps the invariant: a ready pending warp exists only while the active set is full of ready
  /// warps (waiting ones, taken in by order(), give way to it).
  void rebalance() {
    while (Slot* ready = oldest_pending(false)) {
      if (active_count_ == limit_) {
        Slot* idle = waiting_active();
        if (!idle) return;
        deactivate(*idle);
      }
      activate(*ready);
    }
  }

  uint32_t limit_;
  std::vector<Slot> slots_;  // per warp slot
  uint32_t active_count_ = 0;
  uint32_t next_ = 0;  // round-robin: the slot after the one that issued last
};

const Param<uint32_t> kActiveWarps{"sm.two_level_active_warps", 8, "warps",
                                   "size of the two_level scheduler's active set, per block",
                                   Range{1, 64}};

}  // namespace

constexpr WarpSchedulerRegistry::Entry kTwoLevelScheduler{
    "two_level",
    "round-robin within an active set; a warp waiting on memory is swapped out",
    [](const PolicySettings& settings) -> std::unique_ptr<WarpScheduler> {
      return std::make_unique<TwoLevelScheduler>(settings.get(kActiveWarps));
    },
    {&kActiveWarps}};

}  // namespace gpusoc::sm
