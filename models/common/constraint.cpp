#include "models/common/constraint.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace gpusoc {
namespace {

// long double holds every int64, uint64 and double exactly on the hosts we build for,
// so one comparison serves all numeric parameter types.
long double as_number(const nlohmann::json& value) {
  if (value.is_number_unsigned()) return static_cast<long double>(value.get<std::uint64_t>());
  if (value.is_number_integer()) return static_cast<long double>(value.get<std::int64_t>());
  return static_cast<long double>(value.get<double>());
}

bool is_power_of_two(const nlohmann::json& value) {
  if (!value.is_number_integer()) return false;
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    return v != 0 && (v & (v - 1)) == 0;
  }
  const auto v = value.get<std::int64_t>();
  return v > 0 && (v & (v - 1)) == 0;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

// A value as the message quotes it: JSON text, with bytes that are not UTF-8 replaced (a --set
// value may be any bytes; dump() would throw on them).
std::string shown(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

Constraint Constraint::power_of_two() const {
  Constraint copy = *this;
  copy.power_of_two_ = true;
  return copy;
}

std::optional<std::string> Constraint::violation(std::string_view name,
                                                 const nlohmann::json& value) const {
  if (value.is_number()) {
    const long double v = as_number(value);
    const bool below = !min_.is_null() && v < as_number(min_);
    const bool above = !max_.is_null() && v > as_number(max_);
    if ((below || above) && !min_.is_null() && !max_.is_null()) {
      return fmt::format("{} = {} is out of range [{}, {}]", name, shown(value), min_.dump(),
                         max_.dump());
    }
    if (below)
      return fmt::format("{} = {} is below the minimum {}", name, shown(value), min_.dump());
    if (above)
      return fmt::format("{} = {} exceeds the maximum {}", name, shown(value), max_.dump());
  }
  if (power_of_two_ && !is_power_of_two(value)) {
    return fmt::format("{} = {} is not a power of two", name, shown(value));
  }
  if (has_choices()) {
    const std::vector<std::string> names = choices();
    if (std::find(names.begin(), names.end(), value.get<std::string>()) == names.end())
      return fmt::format("{} = {} is not one of {}", name, shown(value), join(names));
  }
  return std::nullopt;
}

std::string Constraint::describe() const {
  std::vector<std::string> parts;
  if (!min_.is_null() && !max_.is_null()) {
    parts.push_back(min_.dump() + ".." + max_.dump());
  } else if (!min_.is_null()) {
    parts.push_back(">= " + min_.dump());
  } else if (!max_.is_null()) {
    parts.push_back("<= " + max_.dump());
  }
  if (power_of_two_) parts.push_back("power of 2");
  if (has_choices()) parts.push_back("one of " + join(choices()));
  return join(parts);
}

Range::Range(nlohmann::json min, nlohmann::json max) {
  const auto bound = [](const nlohmann::json& b) { return b.is_null() || b.is_number(); };
  if (!bound(min) || !bound(max)) throw std::invalid_argument("Range bounds must be numbers");
  if (!min.is_null() && !max.is_null() && as_number(min) > as_number(max)) {
    throw std::invalid_argument("Range minimum exceeds its maximum");
  }
  min_ = std::move(min);
  max_ = std::move(max);
}

Range Range::at_least(nlohmann::json min) {
  return Range(std::move(min), nullptr);
}

OneOf::OneOf(std::initializer_list<std::string> choices) {
  choices_ = choices;
}

OneOf::OneOf(std::vector<std::string> choices) {
  choices_ = std::move(choices);
}

OneOf::OneOf(std::function<std::vector<std::string>()> choices) {
  choices_source_ = std::move(choices);
}

std::vector<std::string> Constraint::choices() const {
  return choices_source_ ? choices_source_() : choices_;
}

}  // namespace gpusoc
