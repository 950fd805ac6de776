// TLM bindings that can run through base-protocol checkers: a module assembling a platform binds
// every initiator to its target through here, and when checking is on (the tests turn it on)
// each binding gets its own ProtocolChecker in between. Sockets of different bus widths (a
// VP's 64-bit sockets and gpusoc's 32-bit ones) are joined by a BusWidthBridge, with the
// checker on the bridge's 32-bit side.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/common/bus_width_bridge.h"
#include "models/common/protocol_checker.h"

namespace gpusoc {

class CheckedBindings {
 public:
  explicit CheckedBindings(bool check) : check_(check) {}

  /// Binds `initiator` to `target`, through a checker named "check_<label>" when checking (on the
  /// 32-bit side, where the widths differ: through "bridge_<label>").
  /// Call during elaboration, inside the constructor of the module that owns the binding.
  template <typename Initiator, typename Target>
  void connect(Initiator& initiator, Target& target, const std::string& label) {
    constexpr unsigned from = socket_width<Initiator>(), to = socket_width<Target>();
    if constexpr (from == to && from != 32) {
      initiator.bind(target);  // the checker's sockets are 32 bits wide
    } else if constexpr (from == to) {
      if (!check_) {
        initiator.bind(target);
        return;
      }
      checkers_.push_back(std::make_unique<ProtocolChecker>(("check_" + label).c_str()));
      initiator.bind(checkers_.back()->target);
      checkers_.back()->initiator.bind(target);
    } else {
      auto bridge = std::make_unique<BusWidthBridge<from, to>>(("bridge_" + label).c_str());
      if constexpr (to == 32) {
        initiator.bind(bridge->target);
        connect(bridge->initiator, target, label);
      } else {
        connect(initiator, bridge->target, label);
        bridge->initiator.bind(target);
      }
      bridges_.push_back(std::move(bridge));
    }
  }

  bool checking() const { return check_; }
  size_t checkers() const { return checkers_.size(); }
  /// Violations every checker found so far.
  size_t violations() const {
    size_t n = 0;
    for (const auto& c : checkers_) n += c->violations().size();
    return n;
  }

 private:
  bool check_;
  std::vector<std::unique_ptr<ProtocolChecker>> checkers_;
  std::vector<std::unique_ptr<sc_core::sc_module>> bridges_;
};

}  // namespace gpusoc
