// Parsing `gpusoc <command> [options] [args]`.
//
// The command's words come first ("config dump"); after them, options and positional
// arguments mix freely, and "--" makes everything after it positional. Options are
// long ("--name VALUE" or "--name=VALUE"); -h is --help. Anything unknown or
// malformed is a UsageError naming the culprit, with a suggestion when one is close.
#pragma once

#include <string>
#include <vector>

#include "platform/command.h"

namespace gpusoc::platform {

struct CommandLine {
  const Command* command = nullptr;  // null only for general help
  bool help = false;                 // "help [COMMAND]", --help or no arguments at all
  CommonOptions common;
  OptionValues options;  // the command's own options
  std::vector<std::string> args;
};

// The options every command accepts.
const std::vector<OptionSpec>& global_options();

// `tokens` are argv[1..]. Throws UsageError.
CommandLine parse_command_line(const std::vector<std::string>& tokens,
                               const CommandRegistry& commands);

}  // namespace gpusoc::platform
