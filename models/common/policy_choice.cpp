#include "models/common/policy_choice.h"

#include "models/common/error.h"

namespace gpusoc {

void PolicySettings::set(const std::string& name, const nlohmann::json& value,
                         const ParamRegistry& registry) {
  const ParamSpec* spec = registry.find(name);
  if (!spec) throw ConfigError("'" + name + "' is not a declared parameter");
  if (auto problem = spec->violation(value)) throw ConfigError(*problem);
  values_[name] = spec->normalized(value);
}

}  // namespace gpusoc
