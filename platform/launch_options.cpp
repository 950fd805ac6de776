#include "platform/launch_options.h"

#include <fmt/format.h>

#include "models/common/error.h"
#include "platform/number_text.h"

namespace gpusoc::platform {
namespace {

bool parse_integer(const std::string& text, uint64_t min, uint64_t max, uint64_t& out) {
  const std::optional<uint64_t> value = unsigned_integer(text);
  if (!value || *value < min || *value > max) return false;
  out = *value;
  return true;
}

}  // namespace

Dim3 parse_dim3(const std::string& option, const std::string& text, const Dim3& limit) {
  uint64_t v[3] = {1, 1, 1};
  const uint64_t max[3] = {limit.x, limit.y, limit.z};
  size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (!parse_integer(part, 1, max[i], v[i]))
      throw UsageError(
          fmt::format("--{} '{}': expected X[,Y,Z], positive integers up to {}, {} "
                      "and {}",
                      option, text, max[0], max[1], max[2]));
    if (comma == std::string::npos) return Dim3(uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2]));
    start = comma + 1;
  }
  throw UsageError(fmt::format("--{} '{}': at most three dimensions", option, text));
}

uint64_t parse_bytes(const std::string& option, const std::string& text, uint64_t max) {
  return integer_option("--" + option, text, 0, max);
}

Command& with_checking_options(Command& command) {
  return command
      .option({"debug", "",
               "the runtime's debug configuration: memcheck on (--memcheck off turns it off)"})
      .option({"memcheck", "on|off",
               "check every global and constant access of every kernel against the live "
               "allocations (docs/memcheck.md); on with --debug"})
      .option({"racecheck", "on|off",
               "report shared-memory accesses of different warps with no barrier between them "
               "(docs/memcheck.md); off by default"});
}

namespace {

std::optional<bool> on_off(const OptionValues& options, const char* name) {
  const auto value = options.get(name);
  if (!value) return std::nullopt;
  if (*value == "on") return true;
  if (*value == "off") return false;
  throw UsageError(fmt::format("--{} '{}': expected on or off", name, *value));
}

}  // namespace

bool memcheck_option(const OptionValues& options) {
  return on_off(options, "memcheck").value_or(options.has("debug"));
}

bool racecheck_option(const OptionValues& options) {
  return on_off(options, "racecheck").value_or(false);
}

}  // namespace gpusoc::platform
