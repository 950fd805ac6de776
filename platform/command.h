// gpusoc subcommands and how they join the program.
//
// Adding a subcommand, e.g. `gpusoc ptx check FILE...`:
//  1. Write platform/cmd_ptx.cpp with a function `int check(const CommandContext& ctx)`
//     (return the exit status; throw gpusoc::Error or a subclass to fail with one line)
//     and, at namespace scope, its registration:
//       const CommandRegistration kCheck{
//           Command("ptx check", "parse and check PTX files", check).args("FILE...", 1)};
//     Options of its own: .option({"format", "FORMAT", "text or json"}); read them with
//     ctx.options.get("format"). A command that builds a model with statistics hangs
//     its StatGroups under ctx.stats and calls ctx.write_stats() before the model goes.
//  2. Add one line to platform/platform.cmake: gpusoc_cli_command(cmd_ptx.cpp DEPS <libs>).
// The registration object runs at static initialization and puts the command in the
// CommandRegistry; `gpusoc --help` lists it, the parser dispatches to it. Command
// files are sources of the executable itself, so the linker never drops them.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/progress.h"
#include "models/common/stat_group.h"

namespace gpusoc::platform {

// "--name VALUE" (also "--name=VALUE"), or a flag "--name" when value_name is empty.
struct OptionSpec {
  std::string name;        // without the leading "--"
  std::string value_name;  // "FILE", shown in help
  std::string help;
  bool repeatable = false;
};

// The values given on the command line, per option name, in order.
class OptionValues {
 public:
  void add(const std::string& name, std::string value) {
    values_[name].push_back(std::move(value));
  }
  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  std::optional<std::string> get(std::string_view name) const;  // the last given
  std::vector<std::string> all(std::string_view name) const;

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
};

// The options every command accepts (command_line.h lists them).
struct CommonOptions {
  std::optional<std::string> config_file;
  std::vector<std::string> sets;  // "NAME=VALUE", applied in order
  std::string log_level = "info";
  std::vector<std::string> log_rules;  // "MODULE=LEVEL"
  std::optional<std::string> stats_out;
  std::optional<double> max_wall_seconds;
  ProgressMode progress = ProgressMode::Auto;  // --progress, --quiet
};

// What a command gets: everything already parsed, loaded and validated.
class CommandContext {
 public:
  CommandContext(const Config& config, const CommonOptions& common, const OptionValues& options,
                 StatGroup& stats, const std::vector<std::string>& args,
                 std::string command_line = "")
      : config(config),
        common(common),
        options(options),
        stats(stats),
        args(args),
        command_line(std::move(command_line)) {}

  // Writes the statistics tree to --stats-out (nothing without that option). A command
  // whose stats live in its own objects (a model built and run inside the command)
  // calls this once the simulation is over, before those objects go; for any other
  // command the CLI calls it after the command returns.
  void write_stats() const;
  // A command with a report of its own (memtrace) writes it to --stats-out instead of the
  // statistics tree: the JSON as it is (.json), flattened to dotted names (.csv), or `summary`
  // (.txt).
  void write_report(const nlohmann::ordered_json& report, const std::string& summary) const;
  bool stats_written() const { return stats_written_; }
  // What produced the statistics, written into every statistics file: the gpusoc version and
  // commit, the command line, and the whole resolved configuration.
  nlohmann::ordered_json provenance() const;

  const Config& config;  // defaults, --config file, --set overrides
  const CommonOptions& common;
  const OptionValues& options;           // the command's own options
  StatGroup& stats;                      // root of the statistics tree
  const std::vector<std::string>& args;  // positional arguments after the command name
  const std::string command_line;        // the whole command, as a shell would take it back

 private:
  mutable bool stats_written_ = false;
};

class Command {
 public:
  using Run = std::function<int(const CommandContext&)>;
  static constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();

  // `name` is one or more words: "run", "config dump".
  Command(std::string name, std::string summary, Run run);

  Command& option(OptionSpec spec);
  // Positional arguments: `usage` for help ("FILE..."), how many are accepted.
  Command& args(std::string usage, std::size_t min, std::size_t max = kUnbounded);

  const std::string& name() const { return name_; }
  const std::string& summary() const { return summary_; }
  const std::vector<OptionSpec>& options() const { return options_; }
  const std::string& args_usage() const { return args_usage_; }
  std::size_t min_args() const { return min_args_; }
  std::size_t max_args() const { return max_args_; }
  int run(const CommandContext& context) const { return run_(context); }

 private:
  std::string name_;
  std::string summary_;
  Run run_;
  std::vector<OptionSpec> options_;
  std::string args_usage_;
  std::size_t min_args_ = 0;
  std::size_t max_args_ = 0;
};

class CommandRegistry {
 public:
  static CommandRegistry& instance();

  // Throws std::logic_error when the name is taken.
  void add(Command command);
  const Command* find(std::string_view name) const;
  std::vector<const Command*> all() const;  // sorted by name

 private:
  std::map<std::string, Command, std::less<>> commands_;
};

// Define one at namespace scope per command; see the top of this file.
struct CommandRegistration {
  explicit CommandRegistration(Command command) {
    CommandRegistry::instance().add(std::move(command));
  }
};

}  // namespace gpusoc::platform
