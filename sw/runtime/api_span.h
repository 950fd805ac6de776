// A call of the runtime's API on the timeline (--timeline: the host group's "API calls" track),
// from its start to its return in the simulated host's time. Costs a load and a branch without
// a timeline.
#pragma once

#include <cstdint>
#include <string>

#include "models/common/picoseconds.h"
#include "models/common/timeline.h"
#include "models/host/host_bus.h"

namespace gpusoc::rt {

class ApiSpan {
 public:
  ApiSpan(host::HostBus& bus, const char* name, std::string detail = {})
      : bus_(bus), name_(name), timeline_(Timeline::active()) {
    if (!timeline_) return;
    detail_ = std::move(detail);
    start_ps_ = Picoseconds().of(bus_.now());
  }
  ~ApiSpan() {
    // The timeline may have ended while the call blocked (a run stopped by --max-wall).
    if (timeline_ && timeline_ == Timeline::active())
      timeline_->span(timeline_->track("host", "API calls"), name_, start_ps_,
                      Picoseconds().of(bus_.now()), detail_);
  }
  ApiSpan(const ApiSpan&) = delete;
  ApiSpan& operator=(const ApiSpan&) = delete;

 private:
  host::HostBus& bus_;
  const char* name_;
  Timeline* timeline_;
  std::string detail_;
  uint64_t start_ps_ = 0;
};

}  // namespace gpusoc::rt
