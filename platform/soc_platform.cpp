#include "platform/soc_platform.h"

#include <fmt/format.h>

#include <tlm>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/common/picoseconds.h"
#include "models/common/progress.h"
#include "models/common/timeline.h"
#include "models/common/wall_deadline.h"
#include "models/host/host_system.h"
#include "platform/gpu_soc.h"
#include "platform/timeline_sampler.h"

namespace gpusoc::platform {

struct SocPlatform::Impl {
  Impl(const Config& config, StatGroup& stats)
      : host("host", host::HostConfig::from_config(config), stats, check_tlm_protocol(config)),
        gpu("gpu", config, stats),
        timeline(TimelineSettings::from_config(config)) {
    gpu.connect(host.config_initiator, gpu.endpoint().config_target, "link_config");
    gpu.connect(host.mem_initiator, gpu.endpoint().mem_target, "link_memory");
    gpu.connect(gpu.endpoint().dma_initiator, host.upstream_target, "link_upstream");
  }
  host::HostSystem host;
  GpuSoc gpu;
  TimelineSettings timeline;
  std::unique_ptr<TimelineSampler> sampler;  // while a --timeline is recorded
};

namespace {

// SystemC elaborates once per simulation context: the context a platform was built in.
const sc_core::sc_simcontext* built_in = nullptr;

const Param<double> kQuantumNs{"platform.quantum_ns", 1000.0, "ns",
                               "the platform's temporal decoupling quantum (tlm_global_quantum), "
                               "which the SMs use unless sm.lt.quantum_ns or sm.cycle.quantum_ns "
                               "is set; a GPU built into another platform follows that one's",
                               Range{0.001, 1e9}};

// The progress line of a run: kernels done and running, and the running kernels' CTAs, from
// whose rate the time left in them is estimated.
class KernelProgress {
 public:
  explicit KernelProgress(const gigathread::CtaDispatcher& dispatcher) : dispatcher_(dispatcher) {}
  ProgressLine line() {
    const auto p = dispatcher_.progress();
    ProgressLine line;
    line.simulated_s = sc_core::sc_time_stamp().to_seconds();
    line.work = fmt::format("kernels: {} done", p.grids_done);
    if (p.grids_running == 0) return line;
    line.work +=
        fmt::format(", {} running, CTAs {} of {}", p.grids_running, p.ctas_done, p.ctas_total);
    if (p.grids_done != grids_done_ || p.ctas_total != ctas_total_) remaining_.reset();
    grids_done_ = p.grids_done;
    ctas_total_ = p.ctas_total;
    line.remaining_s = remaining_.estimate(p.ctas_done, p.ctas_total);
    return line;
  }

 private:
  const gigathread::CtaDispatcher& dispatcher_;
  RemainingTime remaining_;
  uint64_t grids_done_ = 0, ctas_total_ = 0;
};

}  // namespace

std::unique_ptr<SocPlatform::Impl> SocPlatform::build(const Config& config, StatGroup& stats) {
  const sc_core::sc_simcontext* context = sc_core::sc_get_curr_simcontext();
  if (built_in == context || sc_core::sc_get_status() != sc_core::SC_ELABORATION) {
    throw UsageError(
        "a process builds one SocPlatform (SystemC elaborates a design once, and this one has "
        "been built or run already): run further host programs on the same platform, one "
        "after the other, with SocPlatform::run");
  }
  built_in = context;
  tlm::tlm_global_quantum::instance().set(sc_core::sc_time(kQuantumNs.get(config), sc_core::SC_NS));
  return std::make_unique<SocPlatform::Impl>(config, stats);
}

SocPlatform::SocPlatform(const Config& config, StatGroup& stats) : impl_(build(config, stats)) {}

SocPlatform::~SocPlatform() = default;

sc_core::sc_time SocPlatform::run(std::function<void(host::HostBus&)> program) {
  sc_core::sc_time returned;
  impl_->host.set_program([&](host::HostBus& bus) {
    program(bus);
    bus.sync();
    returned = bus.now();
  });
  // The host program's end stops the simulation; SystemC would announce that as news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  // Simulated time runs in slices so that --max-wall is checked between them, here on the main
  // stack rather than inside a SystemC process. The slices change no event's order.
  sc_core::sc_time slice(10, sc_core::SC_US);
  // A --timeline samples its counters between slices, each slice one sampling interval.
  Timeline* timeline = Timeline::active();
  if (timeline) {
    slice = std::min(slice, sc_core::sc_time(impl_->timeline.interval_ns, sc_core::SC_NS));
    if (!impl_->sampler || !impl_->sampler->samples(*timeline))
      impl_->sampler = std::make_unique<TimelineSampler>(impl_->gpu, *timeline,
                                                         impl_->gpu.spec().clock.shader_mhz);
  }
  KernelProgress progress(impl_->gpu.dispatcher());
  do {
    sc_core::sc_start(slice);  // SC_RUN_TO_TIME: time moves on even between sparse events
    check_wall_deadline();
    if (timeline) impl_->sampler->sample(Picoseconds().now());
    progress_tick([&] { return progress.line(); });
  } while (!impl_->host.cpu.finished() && sc_core::sc_pending_activity());
  progress_last([&] { return progress.line(); });
  impl_->host.cpu.rethrow_program_error();
  return returned;
}

}  // namespace gpusoc::platform

namespace gpusoc::platform {

GpuSoc& SocPlatform::gpu() {
  return impl_->gpu;
}

size_t SocPlatform::protocol_checkers() const {
  return impl_->host.protocol_checkers() + impl_->gpu.protocol_checkers();
}

size_t SocPlatform::protocol_violations() const {
  return impl_->host.protocol_violations() + impl_->gpu.protocol_violations();
}

}  // namespace gpusoc::platform
