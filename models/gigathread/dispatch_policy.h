// Which SM gets the next CTA: one policy interface, implementations chosen by name
// (gigathread.dispatch_policy). The distributor has already narrowed the choice to SMs with room.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
/// Throws ConfigError naming the policies for any other name.
std::unique_ptr<CtaDispatchPolicy> make_dispatch_policy(const std::string& name,
                                                        const std::vector<SmPlace>& places);
std::vector<std::string> dispatch_policy_names();

}  // namespace gpusoc::gigathread
