// Declaring and reading a model parameter.
//
// Declare it once, at namespace scope in the .cpp of the module that reads it:
//   static const Param<std::uint32_t> kWarpSize{
//       "sm.warp_size", 32, "threads", "threads per warp", Range{1, 64}.power_of_two()};
// and copy it into the module's resolved struct when the module is built:
//   spec.warp_size = kWarpSize.get(config);
// Hot paths read the struct, never the Config.
//
// The declaration lives in the same .cpp as the get() that reads it: whatever links
// the reader links the declaration, so the registry, `config doc` and validation see
// every parameter the binary can use.
#pragma once

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/param_registry.h"

namespace gpusoc {

/// What every Param is, whatever its type: a name (a policy's registry entry lists its own
/// parameters by pointer to this).
class ParamBase {
 public:
  const std::string& name() const { return name_; }

 protected:
  explicit ParamBase(std::string name) : name_(std::move(name)) {}
  ~ParamBase() = default;

 private:
  std::string name_;
};

template <typename T>
class Param : public ParamBase {
 public:
  Param(std::string name, T default_value, std::string unit, std::string description,
        Constraint constraint = {})
      : Param(ParamRegistry::instance(), std::move(name), std::move(default_value), std::move(unit),
              std::move(description), std::move(constraint)) {}

  // Declares into a given registry; tests use their own.
  Param(ParamRegistry& registry, std::string name, T default_value, std::string unit,
        std::string description, Constraint constraint = {})
      : ParamBase(name), default_(default_value) {
    registry.add(ParamSpec{std::move(name), param_type_of<T>(), nlohmann::json(default_value),
                           std::move(unit), std::move(description), std::move(constraint)});
  }

  Param(const Param&) = delete;
  Param& operator=(const Param&) = delete;

  // The value after defaults, files and --set; validated when the Config was built.
  T get(const Config& config) const { return config.value(name()).template get<T>(); }

  const T& default_value() const { return default_; }

 private:
  T default_;
};

}  // namespace gpusoc
