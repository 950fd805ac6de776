// The GigaThread engine's CTA work distributor: turns each grid the command processor hands it
// into CTAs and places them on SMs with room (threads, warps, registers, shared memory, CTA
// slots), by the configured policy. Grids from different channels share the SMs; a slot freed
// by a retiring CTA is refilled at once, oldest grid first.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/common/config.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/gigathread/dispatch_policy.h"
#include "models/gigathread/grid_executor.h"
#include "models/gigathread/launch_records.h"
#include "models/gigathread/sm_occupancy.h"
#include "models/sm/sm_interface.h"

namespace gpusoc::gigathread {

struct DispatcherConfig {
  SmLimits limits;
  std::vector<SmPlace> places;  // one per SM, in SM order
  PolicyChoice policy = "round_robin";
  ptx::LaunchWatchdog watchdog;
  std::shared_ptr<const ptx::SimtModel> simt_model = ptx::default_simt_model();  // as the SMs run
  uint64_t launch_records = 10000;  // launches whose statistics are kept one by one
  /// Reads gigathread.dispatch_policy and gigathread.watchdog_*; the platform
  /// fills limits and places from the GPU specification.
  static DispatcherConfig from_config(const Config& config);
};

class CtaDispatcher : public sc_core::sc_module,
                      public GridExecutor,
                      private sm::CtaRetirementListener {
 public:
  sc_core::sc_export<GridExecutor> grid_in;

  CtaDispatcher(sc_core::sc_module_name name, const DispatcherConfig& config,
                StatGroup& stats_parent);
  ~CtaDispatcher() override;

  /// SMs are added in SM order, one per entry of config.places.
  void add_sm(sm::StreamingMultiprocessor& sm);
  /// Where device printf output goes (default: standard output).
  void set_printf_sink(std::function<void(const std::string&)> sink);

  GridResult run_grid(const GridRequest& request) override;

  /// A reset: every grid fails with LaunchFailed (`why`), its CTAs dropped where they are; each
  /// launch returns once its CTAs have left the SMs.
  void fail_all(const std::string& why);
  /// No grid is running.
  bool idle() const { return active_.empty(); }

  /// How far the grids are, for progress reports: grids ended so far, grids running, and the
  /// running grids' CTAs retired and in all.
  struct Progress {
    uint64_t grids_done = 0;
    uint32_t grids_running = 0;
    uint64_t ctas_done = 0, ctas_total = 0;
  };
  Progress progress() const;
  /// Further counts for the per-launch records (cycle-level SMs, L2, texture caches).
  void set_launch_counters(const LaunchCounters* counters) { launches_.set_counters(counters); }
  /// Threads resident on the SMs over what they can hold (a timeline's occupancy samples).
  double resident_thread_fraction() const;
  /// The SMs, in SM order.
  const std::vector<sm::StreamingMultiprocessor*>& sms() const { return sms_; }

  /// CTAs of a kernel with these needs one SM can hold at once (0: not even one), and why not.
  uint32_t ctas_per_sm(const GridRequest& request, std::string* limiting = nullptr) const;

 private:
  struct ActiveGrid;
  struct SmUsage {
    uint32_t threads = 0, ctas = 0, registers = 0, shared = 0;
  };
  CtaNeeds needs_of(const GridRequest& request) const;
  bool fits(const SmUsage& used, const CtaNeeds& needs) const;
  std::string check(const GridRequest& request, cmd::ErrorCode& code) const;
  void dispatch();
  void cta_retired(sm::GridWork& grid, uint32_t sm, const sm::CtaReport& report) override;

  DispatcherConfig config_;
  std::unique_ptr<CtaDispatchPolicy> policy_;
  std::vector<sm::StreamingMultiprocessor*> sms_;
  std::vector<SmUsage> usage_;
  std::list<std::unique_ptr<ActiveGrid>> active_;  // in arrival order
  std::function<void(const std::string&)> printf_sink_;
  uint32_t next_grid_id_ = 1;

  StatGroup stats_;
  Counter grids_, ctas_, refused_, faulted_, reset_;
  LaunchRecords launches_;
};

}  // namespace gpusoc::gigathread
