// The DRAM schedulers a memory controller chooses by name: the priority order in which it walks
// a queue (memory_controller.cpp issues the first request whose next command may go).
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
  void order(const std::vector<MemRequest>& queue, const DramChannel&,
             std::vector<uint32_t>& out) override {
    out.clear();
    for (uint32_t i = 0; i < queue.size(); ++i) out.push_back(i);
  }
};

bool same_bank(const MemRequest& a, const MemRequest& b) {
  return a.rank == b.rank && a.bank_group == b.bank_group && a.bank == b.bank;
}

class FrFcfsScheduler : public DramScheduler {
 public:
  explicit FrFcfsScheduler(uint32_t starvation_cap) : cap_(starvation_cap) {}
  const char* name() const override { return "frfcfs"; }

  void order(const std::vector<MemRequest>& queue, const DramChannel& channel,
             std::vector<uint32_t>& out) override {
    out.clear();
    // Three passes in arrival order (no sort): starved, row hits, the rest.
    hit_.clear();
    for (uint32_t i = 0; i < queue.size(); ++i) {
      hit_.push_back(hit(queue[i], channel));
      if (bypassed_[i] >= cap_) out.push_back(i);
    }
    for (uint32_t i = 0; i < queue.size(); ++i) {
      if (bypassed_[i] < cap_ && hit_[i]) out.push_back(i);
    }
    for (uint32_t i = 0; i < queue.size(); ++i) {
      if (bypassed_[i] < cap_ && !hit_[i]) out.push_back(i);
    }
  }

  void arrived(const std::vector<MemRequest>&) override { bypassed_.push_back(0); }

  void served(const std::vector<MemRequest>& queue, size_t index, bool row_hit) override {
    if (row_hit) {
      for (size_t i = 0; i < index; ++i) bypassed_[i] += same_bank(queue[i], queue[index]);
    }
    bypassed_.erase(bypassed_.begin() + ptrdiff_t(index));
  }

 private:
  static bool hit(const MemRequest& r, const DramChannel& channel) {
    return channel.is_open(r.rank, r.bank_group, r.bank) &&
           channel.open_row(r.rank, r.bank_group, r.bank) == r.row;
  }

  uint32_t cap_;
  std::vector<uint32_t> bypassed_;  // per queued request, in queue order
  std::vector<uint8_t> hit_;        // order()'s scratch: per queued request, a row hit
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
