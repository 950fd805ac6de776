// TLM bindings that can run through base-protocol checkers: a module assembling a platform binds
// every initiator to its target through here, and when checking is on (the tests turn it on)
// each binding gets its own ProtocolChecker in between.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/common/protocol_checker.h"

namespace gpusoc {

class CheckedBindings {
 public:
  explicit CheckedBindings(bool check) : check_(check) {}

  /// Binds `initiator` to `target`, through a checker named "check_<label>" when checking.
  /// Call during elaboration, inside the constructor of the module that owns the binding.
  template <typename Initiator, typename Target>
  void connect(Initiator& initiator, Target& target, const std::string& label) {
    if (!check_) {
      initiator.bind(target);
      return;
    }
    checkers_.push_back(std::make_unique<ProtocolChecker>(("check_" + label).c_str()));
    initiator.bind(checkers_.back()->target);
    checkers_.back()->initiator.bind(target);
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
};

}  // namespace gpusoc
