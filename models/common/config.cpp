#include "models/common/config.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "models/common/config_file.h"
#include "models/common/error.h"

namespace gpusoc {
namespace {

// A --set integer: optional '-', decimal or 0x-hex digits, nothing else.
std::optional<nlohmann::json> parse_integer(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  std::uint64_t magnitude = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!negative) return nlohmann::json(magnitude);
  constexpr std::uint64_t kMostNegative = std::uint64_t{1} << 63;
  if (magnitude > kMostNegative) return std::nullopt;
  return nlohmann::json(magnitude == kMostNegative ? std::numeric_limits<std::int64_t>::min()
                                                   : -static_cast<std::int64_t>(magnitude));
}

std::optional<nlohmann::json> parse_float(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return nlohmann::json(value);
}

std::optional<nlohmann::json> parse_as(ParamType type, std::string_view text) {
  switch (type) {
    case ParamType::kBool:
      if (text == "true") return nlohmann::json(true);
      if (text == "false") return nlohmann::json(false);
      return std::nullopt;
    case ParamType::kFloat:
      return parse_float(text);
    case ParamType::kString:
      return nlohmann::json(std::string(text));
    default:
      return parse_integer(text);
  }
}

constexpr const char* kSetOrigin = "--set";

}  // namespace

Config::Config(const ParamRegistry& registry) : registry_(registry) {}

void Config::load_file(const std::filesystem::path& file) {
  for (const ConfigDocument& document : read_config_file(file)) {
    std::set<std::string> seen;
    apply_object(document.settings, "", document.path, seen);
  }
}

void Config::apply_object(const nlohmann::json& object, const std::string& prefix,
                          const std::string& origin, std::set<std::string>& seen) {
  for (const auto& [key, value] : object.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    // An object is a group of parameters unless a parameter has this very name, in
    // which case it is a wrong value for that parameter and set() says so.
    if (value.is_object() && registry_.find(name) == nullptr) {
      apply_object(value, name, origin, seen);
      continue;
    }
    if (!seen.insert(name).second) throw ConfigError(origin + ": " + name + " is given twice");
    set(name, value, origin);
  }
}

void Config::apply_set(std::string_view assignment) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    throw ConfigError(fmt::format("{} '{}': expected NAME=VALUE", kSetOrigin, assignment));
  }
  const std::string_view name = assignment.substr(0, equals);
  const std::string_view text = assignment.substr(equals + 1);
  const ParamSpec& declared = spec(name, kSetOrigin);
  // Configuration files are UTF-8 (the JSON parser checks); a --set value must be too, or the
  // text would end up in the configuration dump and messages as bytes no JSON can hold.
  try {
    (void)nlohmann::json(std::string(text)).dump();
  } catch (const nlohmann::json::type_error&) {
    throw ConfigError(fmt::format("{}: {}: the value is not UTF-8 text", kSetOrigin, name));
  }
  const std::optional<nlohmann::json> value = parse_as(declared.type, text);
  if (!value) {
    throw ConfigError(fmt::format("{}: {}: expected {}, got '{}'", kSetOrigin, name,
                                  type_name(declared.type), text));
  }
  set(name, *value, kSetOrigin);
}

void Config::set(std::string_view name, const nlohmann::json& value, const std::string& origin) {
  const ParamSpec& declared = spec(name, origin);
  if (auto problem = declared.violation(value)) throw ConfigError(origin + ": " + *problem);
  settings_[declared.name] = Setting{declared.normalized(value), origin};
}

const nlohmann::json& Config::value(std::string_view name) const {
  const ParamSpec& declared = spec(name, "");
  const auto it = settings_.find(name);
  return it == settings_.end() ? declared.default_value : it->second.value;
}

std::string Config::origin(std::string_view name) const {
  spec(name, "");
  const auto it = settings_.find(name);
  return it == settings_.end() ? "default" : it->second.origin;
}

nlohmann::ordered_json Config::to_json() const {
  nlohmann::ordered_json root = nlohmann::ordered_json::object();
  for (const ParamSpec* declared : registry_.all()) {
    nlohmann::ordered_json* node = &root;
    std::size_t start = 0;
    for (std::size_t dot; (dot = declared->name.find('.', start)) != std::string::npos;
         start = dot + 1) {
      node = &(*node)[declared->name.substr(start, dot - start)];
    }
    (*node)[declared->name.substr(start)] = nlohmann::ordered_json(value(declared->name));
  }
  return root;
}

const ParamSpec& Config::spec(std::string_view name, const std::string& origin) const {
  if (const ParamSpec* declared = registry_.find(name)) return *declared;
  std::string message =
      fmt::format("{}unknown parameter '{}'", origin.empty() ? "" : origin + ": ", name);
  const std::string suggestion = registry_.nearest(name);
  if (!suggestion.empty()) message += " (did you mean '" + suggestion + "'?)";
  throw ConfigError(message);
}

}  // namespace gpusoc
