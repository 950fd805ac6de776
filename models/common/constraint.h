// What values a parameter accepts beyond its type: a range, a power of two, or one
// of a list of names. Declared with the parameter, e.g.
//   Range{1, 64}.power_of_two()      Range::at_least(1)      OneOf{"GDDR3", "GDDR5"}
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusoc {

class Constraint {
 public:
  Constraint() = default;  // any value of the parameter's type

  // The same constraint, additionally requiring an integer power of two.
  Constraint power_of_two() const;

  // Why `value` (already of the parameter's type) is unacceptable, as a sentence
  // naming the parameter, or nullopt when it is acceptable.
  std::optional<std::string> violation(std::string_view name, const nlohmann::json& value) const;

  // Short human-readable form for the parameter documentation, "" when unconstrained.
  std::string describe() const;

  bool has_bounds() const { return !min_.is_null() || !max_.is_null(); }
  bool requires_power_of_two() const { return power_of_two_; }
  bool has_choices() const { return !choices_.empty() || choices_source_; }
  std::vector<std::string> choices() const;

 protected:
  nlohmann::json min_;  // null: unbounded; otherwise a JSON number, inclusive
  nlohmann::json max_;
  bool power_of_two_ = false;
  std::vector<std::string> choices_;
  // Asked each time: a registry's names, which policies registered from outside the catalog
  // (Registry::Registration) may join after the parameter was declared.
  std::function<std::vector<std::string>()> choices_source_;
};

// Inclusive numeric range.
class Range : public Constraint {
 public:
  Range(nlohmann::json min, nlohmann::json max);
  static Range at_least(nlohmann::json min);
};

// A string parameter that must be one of the listed names (case-sensitive).
class OneOf : public Constraint {
 public:
  OneOf(std::initializer_list<std::string> choices);
  explicit OneOf(std::vector<std::string> choices);
  // The names a registry holds when a value is checked (policies chosen by name:
  // Registry::choices()).
  explicit OneOf(std::function<std::vector<std::string>()> choices);
};

}  // namespace gpusoc
