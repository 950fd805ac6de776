// A policy as a block's resolved configuration holds it: the implementation's name and the values
// of the parameters that implementation declares itself (Registry::Entry::params). A block copies
// its PolicyChoice from the Config once (Registry::choose) and builds the policy from it
// (Registry::make); the policy reads its own parameters from the settings, so that adding a policy
// with parameters touches no struct or file of the block that uses it.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/param.h"

namespace gpusoc {

class PolicySettings {
 public:
  /// The value of `param`: as configured, or its default when it was not resolved from a Config
  /// (a policy built by name alone, in a test or a tool, gets its documented defaults).
  template <typename T>
  T get(const Param<T>& param) const {
    const auto it = values_.find(param.name());
    return it == values_.end() ? param.default_value() : it->second.template get<T>();
  }
  /// Sets a declared parameter by name, checked against its declaration in `registry` (type and
  /// constraint): ConfigError naming it otherwise.
  void set(const std::string& name, const nlohmann::json& value,
           const ParamRegistry& registry = ParamRegistry::instance());
  /// The value set for `name`; null when it was not (the policy reads the default).
  nlohmann::json value(const std::string& name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? nlohmann::json() : it->second;
  }
  /// The parameters set, by name.
  std::vector<std::string> names() const {
    std::vector<std::string> all;
    for (const auto& [name, value] : values_) all.push_back(name);
    return all;
  }

 private:
  std::map<std::string, nlohmann::json, std::less<>> values_;
};

struct PolicyChoice {
  PolicyChoice() = default;
  // Implicit, so that a bare name (in tests and tools) chooses the policy with its defaults.
  PolicyChoice(std::string policy)
      : name(std::move(policy)) {}                    // NOLINT(google-explicit-constructor)
  PolicyChoice(const char* policy) : name(policy) {}  // NOLINT(google-explicit-constructor)

  std::string name;
  PolicySettings settings;
};

}  // namespace gpusoc
