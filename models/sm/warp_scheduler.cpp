// The catalog of warp scheduling policies (models/common/registry.h says why a catalog): adding a
// policy is its own file and one line here; the SM never looks at the name.
#include "models/sm/warp_scheduler.h"

#include "models/sm/warp_scheduler_policies.h"

namespace gpusoc::sm {

WarpSchedulerRegistry& warp_schedulers() {
  static WarpSchedulerRegistry registry("sm.scheduler", "warp scheduler",
                                        {kLrrScheduler, kGtoScheduler, kTwoLevelScheduler});
  return registry;
}

}  // namespace gpusoc::sm
