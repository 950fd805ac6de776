#include "models/gigathread/cta_dispatcher.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/common/picoseconds.h"
#include "models/common/progress.h"
#include "models/common/timeline.h"
#include "models/ptx/program.h"

namespace gpusoc::gigathread {
namespace {

const Param<std::string> kPolicy{
    "gigathread.dispatch_policy", "round_robin", "",
    "how the CTA distributor picks an SM for each CTA: " + dispatch_policies().describe(),
    dispatch_policies().choices()};
const ptx::LaunchWatchdog kWatchdogDefaults;
const Param<uint64_t> kWatchdog{"gigathread.watchdog_warp_instructions",
                                kWatchdogDefaults.launch_instructions, "instructions",
                                "stops a launch that runs more warp instructions than this with "
                                "a launch failure and a report of its warps (an endless loop "
                                "that stores as it goes, say); 0: no limit",
                                Range{0, 1e18}};
const Param<uint64_t> kNoProgress{
    "gigathread.watchdog_no_progress_instructions", kWatchdogDefaults.no_progress_instructions,
    "instructions",
    "stops a launch with a report of its warps when one warp runs this many instructions "
    "without forward progress (no store to global or shared memory, no atomic that changed "
    "memory, no barrier passed, no thread exiting): an endless loop, a spin on a flag nothing "
    "sets; 0: no check",
    Range{0, 1e18}};
const Param<uint64_t> kLaunchRecords{
    "gigathread.launch_records", DispatcherConfig{}.launch_records, "launches",
    "launches whose statistics are kept one by one (gpu.cta_dispatcher.launches.grid<ID>); "
    "later ones are only counted, so that a run of many launches keeps its statistics small",
    Range{0, 1e9}};

}  // namespace

DispatcherConfig DispatcherConfig::from_config(const Config& config) {
  DispatcherConfig c;
  c.policy = dispatch_policies().choose(config);
  c.watchdog.launch_instructions = kWatchdog.get(config);
  c.watchdog.no_progress_instructions = kNoProgress.get(config);
  c.launch_records = kLaunchRecords.get(config);
  return c;
}

struct CtaDispatcher::ActiveGrid {
  GridRequest request;
  sm::GridWork work;
  CtaNeeds needs;
  uint64_t total = 0, issued = 0, resident = 0;
  sc_core::sc_event done;
  GridResult result;
  bool started = false;
};

CtaDispatcher::CtaDispatcher(sc_core::sc_module_name name, const DispatcherConfig& config,
                             StatGroup& stats_parent)
    : sc_module(name),
      grid_in("grid_in"),
      config_(config),
      policy_(dispatch_policies().make(config.policy, config.places)),
      printf_sink_([](const std::string& s) {
        progress_clear();  // device printf on a line of its own
        std::fputs(s.c_str(), stdout);
      }),
      stats_(stats_parent, basename()),
      grids_(stats_, "grids", "grids", "grids run to completion or failure"),
      ctas_(stats_, "ctas", "CTAs", "CTAs placed on SMs"),
      refused_(stats_, "refused_launches", "grids",
               "launches refused before running (bad dimensions, no room on an SM)"),
      faulted_(stats_, "faulted_grids", "grids", "grids stopped by a fault in a CTA"),
      reset_(stats_, "reset_grids", "grids", "grids failed by a reset of the GPU"),
      launches_(stats_, config.launch_records) {
  if (!config_.simt_model) throw ModelError(basename(), "no SIMT model configured");
  grid_in.bind(*this);
}

CtaDispatcher::~CtaDispatcher() = default;

double CtaDispatcher::resident_thread_fraction() const {
  uint64_t threads = 0;
  for (const SmUsage& u : usage_) threads += u.threads;
  const double capacity = double(config_.limits.max_threads) * double(usage_.size());
  return capacity > 0 ? double(threads) / capacity : 0.0;
}

CtaDispatcher::Progress CtaDispatcher::progress() const {
  Progress p;
  p.grids_done = grids_.value();
  for (const auto& grid : active_) {
    ++p.grids_running;
    p.ctas_done += grid->issued - grid->resident;
    p.ctas_total += grid->total;
  }
  return p;
}

void CtaDispatcher::add_sm(sm::StreamingMultiprocessor& sm) {
  sm.set_listener(*this);
  sms_.push_back(&sm);
  usage_.emplace_back();
}

void CtaDispatcher::set_printf_sink(std::function<void(const std::string&)> sink) {
  printf_sink_ = std::move(sink);
}

CtaNeeds CtaDispatcher::needs_of(const GridRequest& r) const {
  const uint32_t reserved = config_.limits.reserved_shared_per_cta;
  return cta_needs(config_.limits, r.registers_per_thread, r.block.count(),
                   ptx::reserved_shared_begin(*r.kernel, r.dynamic_shared_bytes, reserved));
}

uint32_t CtaDispatcher::ctas_per_sm(const GridRequest& request, std::string* limiting) const {
  const CtaFit fit = gigathread::ctas_per_sm(config_.limits, needs_of(request));
  if (limiting) *limiting = fit.limiting;
  return fit.ctas;
}

std::string CtaDispatcher::check(const GridRequest& r, cmd::ErrorCode& code) const {
  const SmLimits& l = config_.limits;
  code = cmd::ErrorCode::InvalidLaunchConfig;
  if (std::string why = ptx::dimension_problem(*r.kernel, r.grid, r.block, l.max_threads_per_cta);
      !why.empty())
    return why;
  code = cmd::ErrorCode::LaunchOutOfResources;
  if (std::string why = ptx::resource_problem(*r.kernel, r.dynamic_shared_bytes,
                                              l.max_shared_per_cta, l.stack_bytes_per_thread);
      !why.empty())
    return why;
  std::string limiting;
  if (ctas_per_sm(r, &limiting) == 0)
    return fmt::format("a CTA of {} threads does not fit an SM, for its {}", r.block.count(),
                       limiting);
  code = cmd::ErrorCode::None;
  return {};
}

bool CtaDispatcher::fits(const SmUsage& u, const CtaNeeds& n) const {
  const SmLimits& l = config_.limits;
  return u.ctas < l.max_ctas && u.threads + n.threads <= l.max_threads &&
         u.registers + n.registers <= l.registers && u.shared + n.shared <= l.shared_memory_bytes;
}

GridResult CtaDispatcher::run_grid(const GridRequest& request) {
  cmd::ErrorCode code;
  const std::string problem = check(request, code);
  if (code != cmd::ErrorCode::None) {
    ++refused_;
    GridResult refused;
    refused.error = code;
    refused.message = fmt::format("launch of '{}': {}", request.kernel->name, problem);
    return refused;
  }
  auto grid = std::make_unique<ActiveGrid>();
  grid->request = request;
  grid->needs = needs_of(request);
  grid->total = request.grid.count();
  ptx::LaunchContext& l = grid->work.launch;
  l.program = request.program.get();
  l.kernel = request.kernel;
  l.grid = request.grid;
  l.block = request.block;
  l.dynamic_shared_bytes = request.dynamic_shared_bytes;
  l.params = request.params;
  l.num_sms = uint32_t(sms_.size());
  l.stack_bytes_per_thread = config_.limits.stack_bytes_per_thread;
  l.reserved_shared_bytes = config_.limits.reserved_shared_per_cta;
  l.grid_id = next_grid_id_++;
  l.watchdog = config_.watchdog;
  l.simt_model = config_.simt_model;
  l.memcheck = request.memcheck;
  l.racecheck = request.racecheck;
  l.printf_sink = printf_sink_;
  const uint32_t warps_per_cta = grid->needs.threads / ptx::kWarpSize;
  grid->result.stats.max_resident_warps =
      uint64_t(ctas_per_sm(request)) * warps_per_cta * sms_.size();
  ActiveGrid& g = *grid;
  launches_.started(l.grid_id, request.kernel->name);
  active_.push_back(std::move(grid));
  dispatch();
  wait(g.done);
  GridResult result = std::move(g.result);
  if (!g.started)  // failed before any CTA ran (a reset): it ends where it started, now
    result.stats.start_ps = result.stats.end_ps = Picoseconds().now();
  launches_.record(g.work.launch.grid_id, g.request, result);
  if (Timeline* t = Timeline::active()) {
    t->span(t->track("kernels", fmt::format("channel {}", request.channel)), request.kernel->name,
            result.stats.start_ps, result.stats.end_ps,
            fmt::format("grid {}: {} CTAs, {} warp instructions{}", g.work.launch.grid_id,
                        result.stats.ctas, result.stats.warp_instructions,
                        result.error == cmd::ErrorCode::None
                            ? ""
                            : std::string(", ") + cmd::error_name(result.error)));
  }
  active_.remove_if([&](const auto& a) { return a.get() == &g; });
  ++grids_;
  return result;
}

void CtaDispatcher::fail_all(const std::string& why) {
  bool failed_any = false;
  for (auto& grid : active_) {
    if (grid->work.failed) continue;
    failed_any = true;
    ++reset_;
    grid->work.failed = true;
    grid->result.error = cmd::ErrorCode::LaunchFailed;
    grid->result.message = fmt::format("launch of '{}': {}", grid->request.kernel->name, why);
    if (grid->resident == 0) grid->done.notify(sc_core::SC_ZERO_TIME);
  }
  if (failed_any)
    for (sm::StreamingMultiprocessor* sm : sms_) sm->grid_failed();
}

void CtaDispatcher::dispatch() {
  std::vector<uint32_t> candidates;
  for (auto& grid : active_) {
    while (grid->issued < grid->total && !grid->work.failed) {
      candidates.clear();
      for (uint32_t s = 0; s < sms_.size(); ++s) {
        if (fits(usage_[s], grid->needs)) candidates.push_back(s);
      }
      if (candidates.empty()) break;
      const uint32_t s = policy_->choose(candidates);
      SmUsage& u = usage_[s];
      ++u.ctas;
      u.threads += grid->needs.threads;
      u.registers += grid->needs.registers;
      u.shared += grid->needs.shared;
      const ptx::Dim3& dims = grid->request.grid;
      const uint64_t i = grid->issued++;
      ++grid->resident;
      ++ctas_;
      sms_[s]->launch_cta(grid->work, ptx::Dim3(uint32_t(i % dims.x), uint32_t(i / dims.x % dims.y),
                                                uint32_t(i / dims.x / dims.y)));
    }
  }
}

void CtaDispatcher::cta_retired(sm::GridWork& work, uint32_t sm, const sm::CtaReport& report) {
  auto it = std::find_if(active_.begin(), active_.end(),
                         [&](const auto& a) { return &a->work == &work; });
  ActiveGrid& grid = **it;
  SmUsage& u = usage_[sm];
  --u.ctas;
  u.threads -= grid.needs.threads;
  u.registers -= grid.needs.registers;
  u.shared -= grid.needs.shared;
  --grid.resident;

  cmd::LaunchStatsRecord& s = grid.result.stats;
  const Picoseconds ps;
  const uint64_t start = ps.of(report.start), end = ps.of(report.end);
  if (Timeline* t = Timeline::active()) {
    t->span_in_lane("SMs", fmt::format("SM {} CTA slot", sm), grid.request.kernel->name, start, end,
                    fmt::format("grid {}, CTA ({},{},{})", work.launch.grid_id, report.ctaid.x,
                                report.ctaid.y, report.ctaid.z));
  }
  if (!grid.started || start < s.start_ps) s.start_ps = start;
  s.end_ps = std::max<uint64_t>(s.end_ps, end);
  grid.started = true;
  s.warp_instructions += report.stats.warp_instructions;
  s.thread_instructions += report.stats.thread_instructions;
  s.ctas += report.stats.ctas;
  s.warps += report.stats.warps;
  s.occupancy_warp_ps += report.stats.warps * (end - start);
  if (report.failed && grid.result.error == cmd::ErrorCode::None) {
    grid.result.error = cmd::ErrorCode::LaunchFailed;
    grid.result.message = report.message;
    ++faulted_;
  }
  const bool over = grid.work.failed || grid.issued == grid.total;
  if (over && grid.resident == 0) grid.done.notify(sc_core::SC_ZERO_TIME);
  dispatch();
}

}  // namespace gpusoc::gigathread
