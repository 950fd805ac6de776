#include "models/common/stat.h"

#include <cmath>

#include "models/common/stat_group.h"

namespace gpusoc {
namespace {

// JSON has no NaN or infinity; an undefined value is null.
nlohmann::ordered_json number_or_null(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

}  // namespace

Stat::Stat(StatGroup& group, std::string name, std::string unit, std::string description)
    : group_(&group),
      name_(std::move(name)),
      unit_(std::move(unit)),
      description_(std::move(description)) {
  group.add(*this);
}

Stat::~Stat() {
  if (group_ != nullptr) group_->remove(*this);
}

std::string Stat::path() const {
  const std::string group = group_ == nullptr ? "" : group_->path();
  return group.empty() ? name_ : group + "." + name_;
}

std::vector<std::pair<std::string, nlohmann::ordered_json>> Stat::fields() const {
  return {{"", to_json()}};
}

std::string Stat::summary() const {
  const nlohmann::ordered_json value = to_json();
  return value.is_null() ? "-" : value.dump();
}

nlohmann::ordered_json Scalar::to_json() const {
  return number_or_null(value_);
}

Formula::Formula(StatGroup& group, std::string name, std::string unit, std::string description,
                 std::function<double()> compute)
    : Stat(group, std::move(name), std::move(unit), std::move(description)),
      compute_(std::move(compute)) {}

nlohmann::ordered_json Formula::to_json() const {
  return number_or_null(compute_());
}

Total::Total(StatGroup& group, std::string name, std::string unit, std::string description,
             std::function<std::uint64_t()> compute)
    : Stat(group, std::move(name), std::move(unit), std::move(description)),
      compute_(std::move(compute)) {}

}  // namespace gpusoc
