// Numbers on the command line. Each is written whole (no sign, no trailing text, no overflow)
// and checked against its range; anything else is a UsageError that names the option and the
// range, so "--requests -1" never becomes 2^64-1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpusoc::platform {

/// Decimal digits, or 0x and hex digits, that fit 64 bits; nothing otherwise.
std::optional<uint64_t> unsigned_integer(std::string_view text);

/// An integer from `min` to `max`; `what` names the option in the error ("--requests").
uint64_t integer_option(std::string_view what, std::string_view text, uint64_t min, uint64_t max);

/// A finite number above 0 and at most `max`.
double positive_real_option(std::string_view what, std::string_view text, double max);

}  // namespace gpusoc::platform
