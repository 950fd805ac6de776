// --timeline FILE on `run` and `launch`: the run as Chrome trace-event JSON, for Perfetto's UI
// or chrome://tracing (docs/observability.md).
#pragma once

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "models/common/timeline.h"
#include "platform/command.h"
#include "platform/timeline_sampler.h"

namespace gpusoc::platform {

inline OptionSpec timeline_option() {
  return {"timeline", "FILE",
          "write the run's timeline to FILE (Chrome trace-event JSON: Perfetto, "
          "chrome://tracing): host API calls, packets, copies, kernels, CTAs per SM, counters"};
}

/// The timeline --timeline asks for, recording from construction (blocks find it through
/// Timeline::active()) until finish() writes it or the object goes (an error: nothing written).
class TimelineRecording {
 public:
  explicit TimelineRecording(const CommandContext& ctx) : ctx_(ctx) {
    if (!ctx.options.get("timeline")) return;
    timeline_ = std::make_unique<Timeline>(TimelineSettings::from_config(ctx.config).max_events);
    Timeline::set_active(timeline_.get());
  }
  ~TimelineRecording() {
    if (timeline_) Timeline::set_active(nullptr);
  }
  TimelineRecording(const TimelineRecording&) = delete;
  TimelineRecording& operator=(const TimelineRecording&) = delete;

  /// Stops recording, writes the file and says where it went.
  void finish() {
    if (!timeline_) return;
    Timeline::set_active(nullptr);
    const std::string file = *ctx_.options.get("timeline");
    timeline_->write(file);
    std::cout << fmt::format(
        "  timeline {} events written to {}{}\n", timeline_->events(), file,
        timeline_->dropped()
            ? fmt::format(" ({} past timeline.max_events dropped)", timeline_->dropped())
            : std::string());
    timeline_.reset();
  }

 private:
  const CommandContext& ctx_;
  std::unique_ptr<Timeline> timeline_;
};

}  // namespace gpusoc::platform
