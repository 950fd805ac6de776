#include "platform/cli.h"

#include <iostream>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/logging.h"
#include "models/common/progress.h"
#include "models/common/stats_report.h"
#include "models/common/text_table.h"
#include "models/common/wall_deadline.h"
#include "platform/command_line.h"
#include "platform/version.h"

namespace gpusoc::platform {
namespace {

std::string option_table(const std::vector<OptionSpec>& options) {
  std::vector<std::vector<std::string>> rows;
  for (const OptionSpec& spec : options) {
    const std::string value = spec.value_name.empty() ? "" : " " + spec.value_name;
    rows.push_back({"  --" + spec.name + value, spec.help});
  }
  rows.push_back({"  -h, --help", "show help"});
  return aligned_table(rows);
}

constexpr const char* kExitStatusHelp =
    "exit status: 0 success, 1 error (configuration, model, files), 2 usage error\n";

void configure_logging(const CommonOptions& common) {
  LogLevels levels(LogLevels::parse_level(common.log_level));
  for (const std::string& rule : common.log_rules) levels.add_rule(rule);
  set_log_levels(levels);
}

Config load_config(const CommonOptions& common) {
  Config config;
  if (common.config_file) config.load_file(*common.config_file);
  for (const std::string& assignment : common.sets) config.apply_set(assignment);
  return config;
}

// Length of the UTF-8 sequence at text[i], or 0 when it is not one.
size_t utf8_length(const std::string& text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const size_t n = lead >= 0xf0 && lead < 0xf5 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (n == 0 || lead >= 0xf5 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  return n;
}

// Messages quote what the user gave, which may be the bytes of a binary file: anything that is not
// printable text reaches the terminal as \xNN.
std::string printable(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t') {
      out += text[i++];
    } else if (const size_t n = c >= 0x80 ? utf8_length(text, i) : 0) {
      out.append(text, i, n);
      i += n;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  return out;
}

// The command line as a shell takes it back: "gpusoc run vecadd --set 'a=b c'".
std::string shell_words(const std::vector<std::string>& args) {
  std::string text = "gpusoc";
  for (const std::string& a : args) {
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
                                         "OPQRSTUVWXYZ0123456789-_=.,:/+@%") == std::string::npos;
    text += ' ';
    if (plain) {
      text += a;
      continue;
    }
    text += '\'';
    for (const char c : a) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += '\'';
  }
  return text;
}

int run_command(const CommandLine& line, const std::vector<std::string>& args,
                const CommandRegistry& commands) {
  if (line.help) {
    std::cout << (line.command == nullptr ? general_help(commands) : command_help(*line.command));
    return kExitSuccess;
  }
  if (line.common.max_wall_seconds) arm_wall_deadline(*line.common.max_wall_seconds);
  configure_logging(line.common);
  set_progress_mode(line.common.progress);
  // Checked now, so that a long simulation does not end in an unwritable file name.
  if (line.common.stats_out && !stats_format_of(*line.common.stats_out)) {
    throw UsageError("--stats-out '" + *line.common.stats_out +
                     "': the file name must end in .json, .csv or .txt");
  }
  const Config config = load_config(line.common);
  StatGroup stats;
  const CommandContext context(config, line.common, line.options, stats, line.args,
                               shell_words(args));
  const int status = line.command->run(context);
  progress_done();
  if (!context.stats_written()) {
    // Stats that came and went unwritten would leave a silently empty file.
    if (line.common.stats_out && stats.lost_members()) {
      throw Error("'" + line.command->name() +
                  "' destroyed its statistics before writing them: it must call "
                  "write_stats() while its model exists");
    }
    context.write_stats();
  }
  return status;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, const CommandRegistry& commands) {
  if (args.empty()) {  // nothing asked: the usage, as an error (a script that lost its words)
    std::cerr << general_help(commands);
    return kExitUsage;
  }
  if (args.size() == 1 && args[0] == "--version") {
    std::cout << "gpusoc " << gpusoc_version() << " (commit " << gpusoc_commit() << ")\n";
    return kExitSuccess;
  }
  try {
    return run_command(parse_command_line(args, commands), args, commands);
  } catch (const UsageError& e) {
    progress_done();  // the error on a line of its own
    std::cerr << "gpusoc: error: " << printable(e.what()) << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    progress_done();  // the error on a line of its own
    std::cerr << "gpusoc: error: " << printable(e.what()) << "\n";
    return kExitError;
  } catch (...) {
    progress_done();  // the error on a line of its own
    std::cerr << "gpusoc: error: unknown exception\n";
    return kExitError;
  }
}

std::string general_help(const CommandRegistry& commands) {
  std::vector<std::vector<std::string>> rows;
  for (const Command* command : commands.all()) {
    const std::string args = command->args_usage().empty() ? "" : " " + command->args_usage();
    rows.push_back({"  " + command->name() + args, command->summary()});
  }
  rows.push_back({"  help [COMMAND]", "show help, for one command if named"});
  rows.push_back({"  --version", "the gpusoc version and the commit it was built from"});
  return "usage: gpusoc <command> [options] [args]\n\ncommands:\n" + aligned_table(rows) +
         "\noptions of every command:\n" + option_table(global_options()) + "\n" + kExitStatusHelp;
}

std::string command_help(const Command& command) {
  const std::string args = command.args_usage().empty() ? "" : " " + command.args_usage();
  std::string out =
      "usage: gpusoc " + command.name() + " [options]" + args + "\n\n" + command.summary() + "\n";
  if (!command.options().empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const OptionSpec& spec : command.options()) {
      rows.push_back(
          {"  --" + spec.name + (spec.value_name.empty() ? "" : " " + spec.value_name), spec.help});
    }
    out += "\noptions:\n" + aligned_table(rows);
  }
  return out + "\noptions of every command:\n" + option_table(global_options()) + "\n" +
         kExitStatusHelp;
}

}  // namespace gpusoc::platform
