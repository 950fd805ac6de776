#include "models/gigathread/launch_records.h"

#include <string>

namespace gpusoc::gigathread {

struct LaunchRecords::Record : StatGroup {
  Record(StatGroup& parent, uint32_t grid_id)
      : StatGroup(parent, "grid" + std::to_string(grid_id)) {}
  Counter grid{*this, "grid_id", "", "the grid's number, in the order the distributor took them"};
  Text kernel{*this, "kernel", "", "the kernel launched, as its source names it"};
  Counter channel{*this, "channel", "", "the channel (the runtime's stream) it came from"};
  Scalar start{*this, "start_ns", "ns", "simulated time its first CTA started"};
  Scalar end{*this, "end_ns", "ns", "simulated time its last CTA finished"};
  Counter ctas{*this, "ctas", "CTAs", "CTAs run"};
  Counter warps{*this, "warps", "warps", "warps run"};
  Counter warp_instructions{*this, "warp_instructions", "instructions", "warp instructions"};
  Counter thread_instructions{*this, "thread_instructions", "instructions",
                              "thread instructions (active lanes)"};
  Scalar occupancy{*this, "achieved_occupancy", "fraction",
                   "resident warps over what the SMs could hold of the kernel, over its time"};
  Text status{*this, "status", "", "how it ended: None, or the error code (docs/commands.md)"};
  std::deque<Counter> counts;  // LaunchCounters' growth over the launch
};

LaunchRecords::LaunchRecords(StatGroup& parent, uint64_t max_records)
    : group_(parent, "launches"),
      max_records_(max_records),
      unrecorded_(group_, "unrecorded", "launches",
                  "launches past gigathread.launch_records, counted but not kept") {}

LaunchRecords::~LaunchRecords() = default;

void LaunchRecords::started(uint32_t grid_id, const std::string& kernel) {
  if (!counters_ || records_.size() >= max_records_) return;
  counters_->totals(kernel, at_start_[grid_id]);
}

void LaunchRecords::record(uint32_t grid_id, const GridRequest& request, const GridResult& result) {
  std::vector<uint64_t> before;
  const auto start = at_start_.find(grid_id);
  if (start != at_start_.end()) {
    before = std::move(start->second);
    at_start_.erase(start);
  }
  if (records_.size() >= max_records_) {
    ++unrecorded_;
    return;
  }
  auto r = std::make_unique<Record>(group_, grid_id);
  const cmd::LaunchStatsRecord& s = result.stats;
  r->grid += grid_id;
  r->kernel.set(request.kernel ? request.kernel->name : "");
  r->channel += request.channel;
  r->start.set(double(s.start_ps) / 1e3);
  r->end.set(double(s.end_ps) / 1e3);
  r->ctas += s.ctas;
  r->warps += s.warps;
  r->warp_instructions += s.warp_instructions;
  r->thread_instructions += s.thread_instructions;
  const double capacity = double(s.max_resident_warps) * double(s.end_ps - s.start_ps);
  r->occupancy.set(capacity > 0 ? double(s.occupancy_warp_ps) / capacity : 0.0);
  r->status.set(cmd::error_name(result.error));
  if (counters_ && !before.empty() && request.kernel) {
    std::vector<uint64_t> after;
    counters_->totals(request.kernel->name, after);
    const auto& names = counters_->names();
    for (size_t i = 0; i < names.size() && i < after.size(); ++i) {
      r->counts.emplace_back(*r, names[i].name, names[i].unit, names[i].description);
      r->counts.back() += after[i] - before[i];
    }
  }
  records_.push_back(std::move(r));
}

}  // namespace gpusoc::gigathread
