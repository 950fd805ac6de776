#include "models/common/param_registry.h"

#include <stdexcept>

#include "models/common/spelling.h"

namespace gpusoc {
namespace {

// Top-level keys with a meaning of their own in configuration files.
constexpr std::string_view kReservedKeys[] = {"description", "include"};

bool valid_component(std::string_view component) {
  if (component.empty()) return false;
  for (const char c : component) {
    const bool word =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!word) return false;
  }
  return true;
}

bool valid_name(std::string_view name) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = name.find('.', start);
    if (!valid_component(name.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

ParamRegistry& ParamRegistry::instance() {
  static ParamRegistry registry;
  return registry;
}

void ParamRegistry::add(ParamSpec spec) {
  const std::string& name = spec.name;
  if (!valid_name(name)) {
    throw std::logic_error("parameter name '" + name +
                           "' must be dot-separated words of letters, digits and '_'");
  }
  const std::string_view top = std::string_view(name).substr(0, name.find('.'));
  for (const std::string_view reserved : kReservedKeys) {
    if (top == reserved) throw std::logic_error("parameter name '" + name + "' is reserved");
  }
  if (specs_.count(name) != 0) {
    throw std::logic_error("parameter '" + name + "' is declared twice");
  }
  // Nested JSON needs every parameter to be a leaf: no parameter may be another's group.
  const auto after = specs_.lower_bound(name + ".");
  if (after != specs_.end() && after->first.compare(0, name.size() + 1, name + ".") == 0) {
    throw std::logic_error("parameter '" + name + "' is the group of '" + after->first + "'");
  }
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    if (specs_.count(name.substr(0, dot)) != 0) {
      throw std::logic_error("parameter '" + name + "' lies inside parameter '" +
                             name.substr(0, dot) + "'");
    }
  }
  if (spec.constraint.has_choices() && spec.type != ParamType::kString) {
    throw std::logic_error("parameter '" + name + "': only string parameters have choices");
  }
  if (auto problem = spec.violation(spec.default_value)) {
    throw std::logic_error("default of " + *problem);
  }
  spec.default_value = spec.normalized(spec.default_value);
  std::string key = name;
  specs_.emplace(std::move(key), std::move(spec));
}

const ParamSpec* ParamRegistry::find(std::string_view name) const {
  const auto it = specs_.find(name);
  return it == specs_.end() ? nullptr : &it->second;
}

std::vector<const ParamSpec*> ParamRegistry::all() const {
  std::vector<const ParamSpec*> out;
  out.reserve(specs_.size());
  for (const auto& [name, spec] : specs_) out.push_back(&spec);
  return out;
}

std::string ParamRegistry::nearest(std::string_view name) const {
  std::vector<std::string> names;
  names.reserve(specs_.size());
  for (const auto& [declared, spec] : specs_) names.push_back(declared);
  return closest_spelling(name, names);
}

}  // namespace gpusoc
