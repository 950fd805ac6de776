#include "platform/number_text.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc::platform {

std::optional<uint64_t> unsigned_integer(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  // from_chars takes no sign and no spaces, but an empty field would read as nothing parsed.
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

uint64_t integer_option(std::string_view what, std::string_view text, uint64_t min, uint64_t max) {
  const std::optional<uint64_t> value = unsigned_integer(text);
  if (!value || *value < min || *value > max)
    throw UsageError(
        fmt::format("{} '{}': expected an integer from {} to {}", what, text, min, max));
  return *value;
}

double positive_real_option(std::string_view what, std::string_view text, double max) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(value > 0) ||
      !(value <= max))
    throw UsageError(
        fmt::format("{} '{}': expected a number above 0 and at most {}", what, text, max));
  return value;
}

}  // namespace gpusoc::platform
