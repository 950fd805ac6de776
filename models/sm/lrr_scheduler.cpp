// Loose round-robin: every cycle the warps are tried in slot order, starting after the one that
// issued last, so each warp gets its turn without the scheduler tracking who is ready.
#include "models/sm/warp_scheduler_policies.h"

namespace gpusoc::sm {
namespace {

class LrrScheduler : public WarpScheduler {
 public:
  const char* name() const override { return "lrr"; }
  void warp_added(uint32_t, uint64_t) override {}
  void warp_removed(uint32_t) override {}
  void order(const std::vector<uint32_t>& live, std::vector<uint32_t>& out) override {
    out.clear();
    append_round_robin(
        live, next_, [](uint32_t) { return true; }, out);
  }
  void issued(uint32_t slot) override { next_ = slot + 1; }

 private:
  uint32_t next_ = 0;  // the slot after the one that issued last
};

}  // namespace

constexpr WarpSchedulerRegistry::Entry kLrrScheduler{
    "lrr", "loose round-robin", [](const PolicySettings&) -> std::unique_ptr<WarpScheduler> {
      return std::make_unique<LrrScheduler>();
    }};

}  // namespace gpusoc::sm
