// How a warp whose threads took different paths runs them (sm.simt_model): a policy chosen by
// name from simt_models() (models/common/registry.h). The warp keeps its divergence tree either
// way (warp_simt.cpp); the policy makes the decisions in which the models differ, and the warp
// asks once per start.
//  - stack: the reconvergence stack of pre-Volta GPUs. One path runs until it reaches its
//    reconvergence point (the branch's immediate post-dominator); the others wait. Threads that
//    spin on a flag set by another path of their own warp never finish: the SIMT deadlock
//    watchdog (its own parameter, sm.simt_deadlock_instructions) reports them.
//  - independent: independent thread scheduling (Volta and later). Divergent paths still
//    reconverge at the immediate post-dominator, but a warp may switch between its waiting paths:
//    it moves on to the next one (round-robin) after every taken backward branch, so a spinning
//    path lets the others make progress. Paths inside a called function switch only among
//    themselves until the call returns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "models/common/registry.h"

namespace gpusoc::ptx {

class SimtModel {
 public:
  virtual ~SimtModel() = default;
  virtual const char* name() const = 0;
  /// A path took a backward branch (a loop, perhaps a spin): whether the next waiting path of
  /// its function activation gets its turn.
  virtual bool yields_on_backward_branch() const = 0;
  /// Warp instructions one path may run while another path of the warp waits without a turn
  /// before the launch fails with a SIMT deadlock (ExecutionError); 0: never.
  virtual uint64_t deadlock_instructions() const = 0;
};

using SimtModelRegistry = Registry<SimtModel>;
/// The models sm.simt_model names: stack, independent.
SimtModelRegistry& simt_models();

/// The model `choice` names, to share between the launches that use it.
std::shared_ptr<const SimtModel> make_simt_model(const PolicyChoice& choice);
/// The reconvergence stack without the deadlock watchdog: the bare core's default.
std::shared_ptr<const SimtModel> default_simt_model();

}  // namespace gpusoc::ptx
