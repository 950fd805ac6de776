// The registry of warp scheduling policies: a table of {name, factory}, so that adding a policy
// is one line here and the SM never looks at the name.
#include "models/sm/warp_scheduler.h"

#include "models/common/error.h"
#include "models/sm/warp_scheduler_policies.h"

namespace gpusoc::sm {
namespace {

struct Policy {
  const char* name;
  std::unique_ptr<WarpScheduler> (*make)(const WarpSchedulerOptions&);
};

constexpr Policy kPolicies[] = {
    {"lrr", make_lrr_scheduler},
    {"gto", make_gto_scheduler},
    {"two_level", make_two_level_scheduler},
};

}  // namespace

const std::vector<std::string>& warp_scheduler_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const Policy& p : kPolicies) all.emplace_back(p.name);
    return all;
  }();
  return names;
}

std::unique_ptr<WarpScheduler> make_warp_scheduler(const std::string& name,
                                                   const WarpSchedulerOptions& options) {
  for (const Policy& p : kPolicies)
    if (name == p.name) return p.make(options);
  std::string list;
  for (const std::string& n : warp_scheduler_names()) list += (list.empty() ? "" : ", ") + n;
  throw ConfigError("sm.scheduler = '" + name + "': unknown warp scheduler (known: " + list + ")");
}

}  // namespace gpusoc::sm
