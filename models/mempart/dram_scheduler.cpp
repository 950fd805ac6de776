// The DRAM schedulers a memory controller chooses by name: the urgency classes by which it picks,
// per bank, the request to serve (memory_controller.h states how the controller uses them).
//   fcfs:   oldest first; the oldest request to a bank holds it (it gets its PRE and ACT).
//   frfcfs: row hits (the bank holds the request's row open) first, then oldest (Rixner et al.,
//           "Memory Access Scheduling", ISCA 2000). A request that younger row hits to its bank
//           were served before `starvation_cap` times goes ahead of everything, so a stream of
//           hits cannot keep an old row miss waiting for ever.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/error.h"
#include "models/mempart/memory_controller.h"

namespace gpusoc::mempart {
namespace {

class FcfsScheduler : public DramScheduler {
 public:
  const char* name() const override { return "fcfs"; }
  uint8_t urgency(bool, uint32_t) const override { return 0; }
};

class FrFcfsScheduler : public DramScheduler {
 public:
  explicit FrFcfsScheduler(uint32_t starvation_cap) : cap_(starvation_cap) {}
  const char* name() const override { return "frfcfs"; }
  // Starved first, then row hits, then the rest.
  uint8_t urgency(bool row_hit, uint32_t bypassed) const override {
    return bypassed >= cap_ ? 0 : row_hit ? 1 : 2;
  }

 private:
  uint32_t cap_;
};

struct SchedulerEntry {
  const char* name;
  std::unique_ptr<DramScheduler> (*make)(uint32_t starvation_cap);
};

const SchedulerEntry kSchedulers[] = {
    {"fcfs",
     [](uint32_t) -> std::unique_ptr<DramScheduler> { return std::make_unique<FcfsScheduler>(); }},
    {"frfcfs",
     [](uint32_t cap) -> std::unique_ptr<DramScheduler> {
       return std::make_unique<FrFcfsScheduler>(cap);
     }},
};

}  // namespace

const std::vector<std::string>& dram_scheduler_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const SchedulerEntry& e : kSchedulers) v.emplace_back(e.name);
    return v;
  }();
  return names;
}

std::unique_ptr<DramScheduler> make_dram_scheduler(const std::string& name,
                                                   uint32_t starvation_cap) {
  for (const SchedulerEntry& e : kSchedulers) {
    if (name == e.name) return e.make(starvation_cap);
  }
  throw ConfigError(fmt::format("unknown DRAM scheduler '{}' (known: {})", name,
                                fmt::join(dram_scheduler_names(), ", ")));
}

}  // namespace gpusoc::mempart
