// Command-line values of kernel launches, shared by `gpusoc launch` and `gpusoc ptx info`:
// dimensions ("X[,Y,Z]") and byte counts, each checked against its range with the option's
// name in the error (UsageError).
#pragma once

#include <cstdint>
#include <string>

#include "models/common/kernel_launch.h"

namespace gpusoc::platform {

/// "X", "X,Y" or "X,Y,Z": positive integers, each at most its dimension of `max`.
Dim3 parse_dim3(const std::string& option, const std::string& text, const Dim3& max);
/// A count of bytes from 0 to `max`.
uint64_t parse_bytes(const std::string& option, const std::string& text, uint64_t max);

}  // namespace gpusoc::platform
