// Which SM gets the next CTA: one policy interface, implementations chosen by name
// (gigathread.dispatch_policy). The distributor has already narrowed the choice to SMs with room.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/registry.h"

namespace gpusoc::gigathread {

/// Where an SM sits in the chip.
struct SmPlace {
  uint32_t gpc = 0, tpc = 0, sm = 0;  // tpc within its GPC, sm within its TPC
};

class CtaDispatchPolicy {
 public:
  virtual ~CtaDispatchPolicy() = default;
  /// Picks one of `candidates` (SM indices with room for the CTA, ascending, never empty).
  virtual uint32_t choose(const std::vector<uint32_t>& candidates) = 0;
};

/// "round_robin": spreads consecutive CTAs across GPCs first, then TPCs, then the SMs of a TPC,
///   continuing after the SM chosen last (the default; how the GigaThread engine balances work).
/// "fill": the lowest-numbered SM with room, packing CTAs onto as few SMs as possible.
using DispatchPolicyRegistry = Registry<CtaDispatchPolicy, const std::vector<SmPlace>&>;
/// The policies gigathread.dispatch_policy names, built for the SMs' places.
DispatchPolicyRegistry& dispatch_policies();

}  // namespace gpusoc::gigathread
