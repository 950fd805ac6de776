#include "models/ptx/cta_runner.h"

#include <fmt/format.h>

#include "models/common/bit_count.h"
#include "models/common/wall_deadline.h"

namespace gpusoc::ptx {
namespace {
// Instructions a warp runs before the next one gets a turn: long enough to be cheap, short
// enough that warps spinning on each other's flags make progress.
constexpr uint64_t kWarpSlice = 1024;
}  // namespace

CtaRunner::CtaRunner(const LaunchContext& launch) : launch_(launch) {
  cta_.num_threads = uint32_t(launch.block.count());
  cta_.num_warps = (cta_.num_threads + kWarpSize - 1) / kWarpSize;
  cta_.dynamic_shared_base = launch.kernel->dynamic_shared_base;
  cta_.shared.resize(launch.cta_shared_bytes());
  if (launch.racecheck) {
    racecheck_ = std::make_unique<SharedRaceCheck>(launch.cta_shared_bytes());
    cta_.racecheck = racecheck_.get();
  }
  warps_.resize(cta_.num_warps);
  for (uint32_t w = 0; w < cta_.num_warps; ++w) {
    const uint32_t n = std::min(kWarpSize, cta_.num_threads - w * kWarpSize);
    lanes_.push_back(n == kWarpSize ? kFullMask : (LaneMask(1) << n) - 1);
  }
}

uint32_t CtaRunner::live_threads() const {
  uint32_t live = 0;
  for (size_t w = 0; w < warps_.size(); ++w) {
    live += count_bits(lanes_[w] & ~warps_[w].finished_lanes());
  }
  return live;
}

void CtaRunner::arrive(uint32_t w) {
  const Warp::BarrierArrival& a = warps_[w].barrier();
  Barrier& b = barriers_[a.id];
  b.arrived += a.threads;
  b.voters += count_bits(a.lanes);
  b.true_lanes += a.red_true_lanes;
  if (a.count) b.expected = a.count;
  if (a.waits) {
    b.waiting.push_back(w);
  } else {
    warps_[w].release_barrier(0);
    released_.push_back(w);
  }
}

void CtaRunner::release_completed() {
  const uint32_t live = live_threads();
  for (Barrier& b : barriers_) {
    if (b.arrived == 0) continue;
    const uint32_t expected = b.expected ? b.expected : live;
    if (b.arrived < expected) continue;
    for (uint32_t w : b.waiting) {
      const Warp::BarrierArrival& a = warps_[w].barrier();
      uint32_t result = 0;
      switch (a.red_op) {
        case BarRedOp::Popc:
          result = b.true_lanes;
          break;
        case BarRedOp::And:
          result = b.true_lanes == b.voters;
          break;
        case BarRedOp::Or:
          result = b.true_lanes != 0;
          break;
      }
      warps_[w].release_barrier(result);
      released_.push_back(w);
    }
    b = Barrier{};
    if (racecheck_) racecheck_->new_epoch();  // what came before the barrier is ordered
  }
}

std::string CtaRunner::warp_report() const {
  std::string report = "; its warps:";
  for (const Warp& w : warps_) {
    if (w.state() != Warp::State::Done) report += "\n  " + w.describe();
  }
  return report;
}

void CtaRunner::stuck(const std::string& why) const {
  throw ExecutionError(fmt::format("kernel '{}' block ({},{},{}): watchdog: {}{}",
                                   launch_.kernel->name, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z,
                                   why, warp_report()));
}

void CtaRunner::deadlock() const {
  for (size_t id = 0; id < barriers_.size(); ++id) {
    const Barrier& b = barriers_[id];
    if (b.waiting.empty()) continue;
    throw ExecutionError(fmt::format(
        "kernel '{}' block ({},{},{}): deadlock at barrier {}: {} threads arrived, {} expected, "
        "and no other thread can run{}",
        launch_.kernel->name, cta_.ctaid.x, cta_.ctaid.y, cta_.ctaid.z, id, b.arrived,
        b.expected ? b.expected : live_threads(), warp_report()));
  }
  throw ExecutionError(fmt::format("kernel '{}': deadlock with no thread able to run{}",
                                   launch_.kernel->name, warp_report()));
}

bool CtaRunner::any_ready() const {
  for (const Warp& w : warps_) {
    if (w.state() == Warp::State::Ready) return true;
  }
  return false;
}

void CtaRunner::start(Dim3 ctaid, uint32_t sm_id, SparseMemory* global,
                      GlobalAccessObserver* observer) {
  cta_.ctaid = ctaid;
  cta_.sm_id = sm_id;
  cta_.global = global ? global : launch_.global;
  cta_.observer = observer;
  barriers_ = {};
  released_.clear();
  if (racecheck_) racecheck_->new_epoch();
  done_warps_ = 0;
  for (uint32_t w = 0; w < warps_.size(); ++w) {
    warps_[w].start(launch_, cta_, w, lanes_[w]);
    done_warps_ += warps_[w].state() == Warp::State::Done;
  }
}

uint64_t CtaRunner::step(uint32_t w, uint64_t budget) {
  released_.clear();
  Warp& warp = warps_[w];
  const uint64_t ran = warp.run(budget);
  launch_.executed_warp_instructions += ran;
  const LaunchWatchdog& watchdog = launch_.watchdog;
  if (watchdog.launch_instructions &&
      launch_.executed_warp_instructions > watchdog.launch_instructions) {
    stuck(
        fmt::format("the launch ran more than {} warp instructions "
                    "(gigathread.watchdog_warp_instructions)",
                    watchdog.launch_instructions));
  }
  if (watchdog.no_progress_instructions && warp.state() == Warp::State::Ready &&
      warp.warp_instructions() - warp.progress_at() > watchdog.no_progress_instructions) {
    stuck(
        fmt::format("warp {} made no forward progress in {} instructions "
                    "(gigathread.watchdog_no_progress_instructions)",
                    w, watchdog.no_progress_instructions));
  }
  // Only a warp that arrived at a barrier or finished can complete a barrier (a finishing warp
  // no longer counts) or leave the CTA without a runnable warp.
  if (warp.state() == Warp::State::Ready) return ran;
  if (warp.state() == Warp::State::AtBarrier) arrive(w);
  if (warp.state() == Warp::State::Done) ++done_warps_;
  release_completed();
  if (!finished() && !any_ready()) deadlock();
  return ran;
}

const Inst* CtaRunner::next_instruction(uint32_t w) {
  Warp& warp = warps_[w];
  if (warp.state() != Warp::State::Ready) return nullptr;
  const Inst* in = warp.next_instruction();
  if (warp.state() == Warp::State::Done) {  // it fell off the end of the kernel
    released_.clear();
    ++done_warps_;
    release_completed();
    if (!finished() && !any_ready()) deadlock();
  }
  return in;
}

void CtaRunner::add_stats(LaunchStats& stats) const {
  for (const Warp& w : warps_) {
    stats.warp_instructions += w.warp_instructions();
    stats.thread_instructions += w.thread_instructions();
  }
  stats.warps += warps_.size();
  stats.ctas += 1;
}

void CtaRunner::run(Dim3 ctaid, uint32_t sm_id, LaunchStats& stats) {
  start(ctaid, sm_id);
  while (!finished()) {
    check_wall_deadline();  // the functional device's run has no other place to stop
    for (uint32_t w = 0; w < warps_.size(); ++w) {
      if (warps_[w].state() == Warp::State::Ready) step(w, kWarpSlice);
    }
  }
  add_stats(stats);
}

}  // namespace gpusoc::ptx
