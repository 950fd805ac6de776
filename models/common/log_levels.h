// Which level each module logs at, from --log-level and --log.
//
// --log-level LEVEL sets every module's level. --log PATTERN=LEVEL overrides it for
// the modules PATTERN matches. A module name and a pattern are dot-separated
// components; the pattern matches when its components appear consecutively in the
// module's name:
//   "sm" matches "sm", "sm.0", "gpu.sm", "gpu.sm.l1d"   but not "smx"
// and a pattern component that does not end in a digit also matches itself followed
// by an instance number:
//   "sm" matches "gpu.sm3";  "sm3" matches "gpu.sm3" but not "gpu.sm31";  "sm.l1d" matches
//   "gpu.sm3.l1d"
// When several patterns match a module, the one with the most components wins, and
// among those the one given last. LEVEL is trace, debug, info, warn, error, critical
// or off.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <spdlog/common.h>

namespace gpusoc {

class LogLevels {
 public:
  using Level = spdlog::level::level_enum;

  explicit LogLevels(Level default_level = spdlog::level::info) : default_(default_level) {}

  // "PATTERN=LEVEL", as given to --log; throws UsageError when malformed.
  void add_rule(std::string_view assignment);

  Level level_for(std::string_view module) const;

  // Throws UsageError naming the accepted levels.
  static Level parse_level(std::string_view text);

  static bool matches(std::string_view pattern, std::string_view module);

 private:
  struct Rule {
    std::string pattern;
    std::size_t components;
    Level level;
  };
  Level default_;
  std::vector<Rule> rules_;
};

}  // namespace gpusoc
