#include "models/common/log_levels.h"

#include <algorithm>
#include <utility>

#include "models/common/error.h"

namespace gpusoc {
namespace {

std::vector<std::string_view> components(std::string_view name) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t dot; (dot = name.find('.', start)) != std::string_view::npos; start = dot + 1) {
    out.push_back(name.substr(start, dot - start));
  }
  out.push_back(name.substr(start));
  return out;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// "sm" matches "sm" and, as an instance, "sm3"; "sm3" matches only "sm3".
bool component_matches(std::string_view pattern, std::string_view component) {
  if (pattern == component) return true;
  if (pattern.empty() || is_digit(pattern.back()) || component.size() <= pattern.size() ||
      component.substr(0, pattern.size()) != pattern) {
    return false;
  }
  const std::string_view index = component.substr(pattern.size());
  return std::all_of(index.begin(), index.end(), is_digit);
}

constexpr std::pair<std::string_view, spdlog::level::level_enum> kLevels[] = {
    {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug},
    {"info", spdlog::level::info},   {"warn", spdlog::level::warn},
    {"error", spdlog::level::err},   {"critical", spdlog::level::critical},
    {"off", spdlog::level::off}};

}  // namespace

void LogLevels::add_rule(std::string_view assignment) {
  const std::size_t equals = assignment.find('=');
  const std::string_view pattern = assignment.substr(0, equals);
  const std::vector<std::string_view> parts = components(pattern);
  const bool well_formed =
      equals != std::string_view::npos &&
      std::none_of(parts.begin(), parts.end(), [](std::string_view part) { return part.empty(); });
  if (!well_formed) {
    throw UsageError("--log '" + std::string(assignment) +
                     "': expected MODULE=LEVEL, e.g. sm=debug");
  }
  rules_.push_back(
      {std::string(pattern), parts.size(), parse_level(assignment.substr(equals + 1))});
}

LogLevels::Level LogLevels::level_for(std::string_view module) const {
  const Rule* best = nullptr;
  for (const Rule& rule : rules_) {
    if (matches(rule.pattern, module) && (best == nullptr || rule.components >= best->components)) {
      best = &rule;
    }
  }
  return best == nullptr ? default_ : best->level;
}

LogLevels::Level LogLevels::parse_level(std::string_view text) {
  std::string accepted;
  for (const auto& [name, level] : kLevels) {
    if (text == name) return level;
    accepted += (accepted.empty() ? "" : ", ") + std::string(name);
  }
  throw UsageError("unknown log level '" + std::string(text) + "' (expected one of " + accepted +
                   ")");
}

bool LogLevels::matches(std::string_view pattern, std::string_view module) {
  const std::vector<std::string_view> want = components(pattern);
  const std::vector<std::string_view> have = components(module);
  for (std::size_t start = 0; start + want.size() <= have.size(); ++start) {
    bool all = true;
    for (std::size_t i = 0; i < want.size() && all; ++i)
      all = component_matches(want[i], have[start + i]);
    if (all) return true;
  }
  return false;
}

}  // namespace gpusoc
