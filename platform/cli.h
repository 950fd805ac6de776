// The gpusoc program: parse the command line, set up logging, load and validate the
// configuration, run the command, write statistics.
//
// Every failure ends in one line on stderr, "gpusoc: error: <message>", and an exit
// status: 0 success; 1 an error in the configuration, the model, or reading and
// writing files; 2 a usage error (unknown command or option, missing value, bad
// --log level, unsupported --stats-out extension).
#pragma once

#include <string>
#include <vector>

#include "platform/command.h"

namespace gpusoc::platform {

constexpr int kExitSuccess = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

// `args` are argv[1..]; commands come from `commands`. Never throws.
int run_cli(const std::vector<std::string>& args, const CommandRegistry& commands);

// `gpusoc --help`.
std::string general_help(const CommandRegistry& commands);

// `gpusoc help COMMAND`.
std::string command_help(const Command& command);

}  // namespace gpusoc::platform
