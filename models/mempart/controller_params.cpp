#include "models/mempart/controller_params.h"

#include <string>

#include "models/common/error.h"
#include "models/common/param.h"

namespace gpusoc::mempart {
namespace {

const ControllerConfig kDefaults;

const Param<std::string> kScheduler{"memory.controller.scheduler", kDefaults.scheduler.name, "",
                                    "DRAM command scheduler: " + dram_schedulers().describe(),
                                    dram_schedulers().choices()};
const Param<std::string> kPagePolicy{"memory.controller.page_policy", kDefaults.page_policy.name,
                                     "", "page policy: " + page_policies().describe(),
                                     page_policies().choices()};
const Param<uint32_t> kReadQueue{"memory.controller.read_queue", kDefaults.read_queue, "requests",
                                 "read queue entries per channel", Range{1, 4096}};
const Param<uint32_t> kWriteQueue{"memory.controller.write_queue", kDefaults.write_queue,
                                  "requests", "write queue entries per channel", Range{1, 4096}};
const Param<uint32_t> kWriteHigh{"memory.controller.write_high", kDefaults.write_high, "requests",
                                 "queued writes at which the controller starts draining them "
                                 "(at most write_queue)",
                                 Range{1, 4096}};
const Param<uint32_t> kWriteLow{"memory.controller.write_low", kDefaults.write_low, "requests",
                                "queued writes at which a drain stops (below write_high)",
                                Range{0, 4095}};
const Param<std::string> kRefresh{"memory.controller.refresh", kDefaults.refresh.name, "",
                                  "refresh policy: " + refresh_policies().describe(),
                                  refresh_policies().choices()};

}  // namespace

ControllerConfig controller_config_from(const Config& config) {
  ControllerConfig c;
  c.scheduler = dram_schedulers().choose(config);
  c.page_policy = page_policies().choose(config);
  c.read_queue = kReadQueue.get(config);
  c.write_queue = kWriteQueue.get(config);
  c.write_high = kWriteHigh.get(config);
  c.write_low = kWriteLow.get(config);
  c.refresh = refresh_policies().choose(config);
  if (const std::string why = c.problem("memory.controller"); !why.empty()) throw ConfigError(why);
  return c;
}

}  // namespace gpusoc::mempart
