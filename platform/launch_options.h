// Command-line values of kernel launches, shared by `gpusoc launch` and `gpusoc ptx info`:
// dimensions ("X[,Y,Z]") and byte counts, each checked against its range with the option's
// name in the error (UsageError).
#pragma once

#include <cstdint>
#include <string>

#include "models/common/kernel_launch.h"
#include "platform/command.h"

namespace gpusoc::platform {

/// "X", "X,Y" or "X,Y,Z": positive integers, each at most its dimension of `max`.
Dim3 parse_dim3(const std::string& option, const std::string& text, const Dim3& max);
/// A count of bytes from 0 to `max`.
uint64_t parse_bytes(const std::string& option, const std::string& text, uint64_t max);

/// --debug (the runtime's debug configuration), --memcheck on|off and --racecheck on|off, which
/// `run` and `launch` take; add them to a command with with_checking_options.
Command& with_checking_options(Command& command);
/// Whether kernels run under memcheck: as --memcheck says, else on with --debug.
bool memcheck_option(const OptionValues& options);
/// Whether kernels run under racecheck: as --racecheck says (off by default).
bool racecheck_option(const OptionValues& options);
/// `device` (ptx::DeviceOptions or rt::RuntimeOptions) with memcheck and racecheck as the
/// command line asks.
template <typename DeviceOptions>
DeviceOptions with_checking(DeviceOptions device, const OptionValues& options) {
  device.memcheck = memcheck_option(options);
  device.racecheck = racecheck_option(options);
  return device;
}

}  // namespace gpusoc::platform
