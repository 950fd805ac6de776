#include "platform/command_line.h"

#include <algorithm>

#include "models/common/error.h"
#include "models/common/spelling.h"
#include "platform/number_text.h"

namespace gpusoc::platform {
namespace {

constexpr double kMaxWallSeconds = 1e7;  // about four months

bool is_option(const std::string& token) {
  return token.size() > 1 && token[0] == '-';
}

std::string join(const std::vector<std::string>& words, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < words.size(); ++i) out += (i ? " " : "") + words[i];
  return out;
}

std::size_t word_count(const std::string& name) {
  return static_cast<std::size_t>(std::count(name.begin(), name.end(), ' ')) + 1;
}

// The longest command named by the leading words.
const Command& resolve(const std::vector<std::string>& words, const CommandRegistry& commands) {
  for (std::size_t used = words.size(); used > 0; --used) {
    if (const Command* command = commands.find(join(words, used))) return *command;
  }
  std::vector<std::string> subcommands;
  std::vector<std::string> names;
  for (const Command* command : commands.all()) {
    names.push_back(command->name());
    if (command->name().rfind(words[0] + " ", 0) == 0) subcommands.push_back(command->name());
  }
  if (words.size() == 1 && !subcommands.empty()) {
    std::string list;
    for (const std::string& name : subcommands) list += (list.empty() ? "" : ", ") + name;
    throw UsageError("'" + words[0] + "' needs a subcommand: " + list);
  }
  // Compare each command name with as many of the given words as it has.
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& name : names) {
    const std::size_t distance = edit_distance(join(words, word_count(name)), name);
    if (best.empty() || distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  std::string message = "unknown command '" + join(words, words.size()) + "'";
  if (!best.empty()) message += " (did you mean '" + best + "'?)";
  throw UsageError(message + "; see 'gpusoc --help'");
}

const OptionSpec& find_option(const std::string& name, const Command& command) {
  std::vector<std::string> known;
  for (const auto* list : {&command.options(), &global_options()}) {
    for (const OptionSpec& spec : *list) {
      if (spec.name == name) return spec;
      known.push_back("--" + spec.name);
    }
  }
  known.push_back("--help");
  throw UsageError("unknown option '--" + name + "' for '" + command.name() + "' (did you mean '" +
                   closest_spelling("--" + name, known) + "'?)");
}

void check_arg_count(const Command& command, const std::vector<std::string>& args) {
  if (args.size() > command.max_args()) {
    throw UsageError("'" + command.name() + "': unexpected argument '" + args[command.max_args()] +
                     "'");
  }
  if (args.size() < command.min_args()) {
    throw UsageError("'" + command.name() + "' expects " + command.args_usage());
  }
}

void fill_common(const OptionValues& values, CommonOptions& common) {
  common.config_file = values.get("config");
  common.sets = values.all("set");
  common.log_level = values.get("log-level").value_or(common.log_level);
  common.log_rules = values.all("log");
  common.stats_out = values.get("stats-out");
  if (const auto seconds = values.get("max-wall"))
    common.max_wall_seconds = positive_real_option("--max-wall", *seconds, kMaxWallSeconds);
  if (values.has("progress") && values.has("quiet"))
    throw UsageError("--progress and --quiet contradict each other: give one");
  if (values.has("progress")) common.progress = ProgressMode::On;
  if (values.has("quiet")) common.progress = ProgressMode::Off;
}

}  // namespace

const std::vector<OptionSpec>& global_options() {
  static const std::vector<OptionSpec> options{
      {"config", "FILE", "configuration file (JSON; may include others)"},
      {"set", "NAME=VALUE", "override one parameter; repeatable, later wins", true},
      {"log-level", "LEVEL",
       "log level of every module: trace, debug, info (default), warn, "
       "error, critical, off"},
      {"log", "MODULE=LEVEL", "log level of the modules MODULE matches, e.g. sm=debug; repeatable",
       true},
      {"stats-out", "FILE",
       "write statistics to FILE: .json, .csv or .txt (summary table), with the version, "
       "commit, command line and whole configuration that produced them"},
      {"max-wall", "SECONDS", "stop the run with an error after this much wall-clock time"},
      {"progress", "",
       "show the run's progress on stderr even where stderr is not a terminal (on a terminal "
       "it shows by default once a run takes over a second)"},
      {"quiet", "", "no progress on stderr, even on a terminal"}};
  return options;
}

CommandLine parse_command_line(const std::vector<std::string>& tokens,
                               const CommandRegistry& commands) {
  CommandLine line;
  std::vector<std::string> words;
  for (const std::string& token : tokens) {
    if (is_option(token)) break;
    words.push_back(token);
  }
  if (tokens.empty() || tokens[0] == "--help" || tokens[0] == "-h") {
    line.help = true;
    return line;
  }
  if (words.empty()) {
    throw UsageError("expected a command before '" + tokens[0] + "'; see 'gpusoc --help'");
  }
  if (words[0] == "help") {
    line.help = true;
    if (words.size() > 1) {
      line.command = &resolve(std::vector<std::string>(words.begin() + 1, words.end()), commands);
    }
    return line;
  }
  line.command = &resolve(words, commands);
  const std::size_t used = word_count(line.command->name());
  OptionValues values;  // global and command options together, split below
  bool positional_only = false;
  for (std::size_t i = used; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    if (positional_only || !is_option(token)) {
      line.args.push_back(token);
    } else if (token == "--") {
      positional_only = true;
    } else if (token == "--help" || token == "-h") {
      line.help = true;
    } else if (token.rfind("--", 0) != 0) {
      throw UsageError("unknown option '" + token + "'; options are long, e.g. --config");
    } else {
      const std::size_t equals = token.find('=');
      const std::string name = token.substr(2, equals == std::string::npos ? equals : equals - 2);
      const OptionSpec& spec = find_option(name, *line.command);
      std::string value;
      if (spec.value_name.empty()) {
        if (equals != std::string::npos) throw UsageError("option '--" + name + "' takes no value");
      } else if (equals != std::string::npos) {
        value = token.substr(equals + 1);
      } else if (i + 1 < tokens.size()) {
        value = tokens[++i];
      } else {
        throw UsageError("option '--" + name + "' needs a value (" + spec.value_name + ")");
      }
      if (!spec.repeatable && values.has(name)) {
        throw UsageError("option '--" + name + "' is given more than once");
      }
      values.add(name, std::move(value));
    }
  }
  if (line.help) return line;
  check_arg_count(*line.command, line.args);
  fill_common(values, line.common);
  for (const OptionSpec& spec : line.command->options()) {
    for (std::string& value : values.all(spec.name)) line.options.add(spec.name, std::move(value));
  }
  return line;
}

}  // namespace gpusoc::platform
