// The effective configuration: every registered parameter's value after defaults,
// the configuration file (with its includes) and --set overrides, in that order.
// Each value is validated against its declaration when it is applied, so a Config
// only ever holds acceptable values and the error names the key and its origin.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/common/param_registry.h"

namespace gpusoc {

class Config {
 public:
  // Every parameter at its default.
  explicit Config(const ParamRegistry& registry = ParamRegistry::instance());

  // Applies `file` and its includes. Nested objects and dotted keys are equivalent:
  // {"sm": {"warp_size": 32}} is {"sm.warp_size": 32}. A key given twice in one file
  // is an error.
  void load_file(const std::filesystem::path& file);

  // Applies one "--set NAME=VALUE". VALUE is read as the parameter's type: true/false,
  // a decimal or 0x-hex integer, a decimal float, or the text itself for strings.
  void apply_set(std::string_view assignment);

  // Applies one value; `origin` names where it came from in error messages.
  void set(std::string_view name, const nlohmann::json& value, const std::string& origin);

  // The value of a registered parameter; throws ConfigError for an unknown name.
  const nlohmann::json& value(std::string_view name) const;

  // Where the value came from: "default", a file path, or "--set".
  std::string origin(std::string_view name) const;

  // Every parameter as nested JSON, sorted by name; loadable as a config file.
  nlohmann::ordered_json to_json() const;

  const ParamRegistry& registry() const { return registry_; }

 private:
  struct Setting {
    nlohmann::json value;
    std::string origin;
  };

  void apply_object(const nlohmann::json& object, const std::string& prefix,
                    const std::string& origin, std::set<std::string>& seen);
  const ParamSpec& spec(std::string_view name, const std::string& origin) const;

  const ParamRegistry& registry_;
  std::map<std::string, Setting, std::less<>> settings_;  // only values that were set
};

}  // namespace gpusoc
