// Parsing the gpusoc command line against a registry of test commands.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "platform/command_line.h"

namespace gpusoc::platform {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

int nothing(const CommandContext&) {
  return 0;
}

class CommandLineTest : public ::testing::Test {
 protected:
  CommandLineTest() {
    commands.add(Command("config dump", "dump", nothing));
    commands.add(Command("config doc", "doc", nothing).option({"format", "FORMAT", "format"}));
    commands.add(Command("ptx check", "check", nothing)
                     .args("FILE...", 1)
                     .option({"strict", "", "warnings are errors"}));
    commands.add(Command("run", "run", nothing).args("KERNEL", 1, 1));
  }

  CommandLine parse(const std::vector<std::string>& tokens) {
    return parse_command_line(tokens, commands);
  }

  std::string error_of(const std::vector<std::string>& tokens) {
    try {
      parse(tokens);
    } catch (const UsageError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no UsageError";
    return "";
  }

  CommandRegistry commands;
};

TEST_F(CommandLineTest, FindsTheLongestCommandNamedByTheLeadingWords) {
  EXPECT_EQ(parse({"config", "dump"}).command, commands.find("config dump"));
  const CommandLine run = parse({"run", "sgemm"});
  EXPECT_EQ(run.command, commands.find("run"));
  EXPECT_THAT(run.args, ElementsAre("sgemm"));
  const CommandLine check = parse({"ptx", "check", "a.ptx", "--strict", "b.ptx"});
  EXPECT_EQ(check.command, commands.find("ptx check"));
  EXPECT_THAT(check.args, ElementsAre("a.ptx", "b.ptx"));
  EXPECT_TRUE(check.options.has("strict"));
}

TEST_F(CommandLineTest, CommonOptionsAreParsedForEveryCommand) {
  const CommandLine line =
      parse({"run", "--config", "configs/small.json", "k", "--set", "sm.warp_size=32",
             "--set=memory.partitions=2", "--log-level", "debug", "--log", "sm=trace", "--log",
             "xbar=off", "--stats-out", "out.json"});
  EXPECT_EQ(line.common.config_file, "configs/small.json");
  EXPECT_THAT(line.common.sets, ElementsAre("sm.warp_size=32", "memory.partitions=2"));
  EXPECT_EQ(line.common.log_level, "debug");
  EXPECT_THAT(line.common.log_rules, ElementsAre("sm=trace", "xbar=off"));
  EXPECT_EQ(line.common.stats_out, "out.json");
  EXPECT_THAT(line.args, ElementsAre("k"));
  EXPECT_FALSE(line.options.has("set")) << "only the command's own options are in options";
}

TEST_F(CommandLineTest, DefaultsWhenNoOptionIsGiven) {
  const CommandLine line = parse({"config", "dump"});
  EXPECT_FALSE(line.common.config_file.has_value());
  EXPECT_THAT(line.common.sets, IsEmpty());
  EXPECT_EQ(line.common.log_level, "info");
  EXPECT_FALSE(line.common.stats_out.has_value());
  EXPECT_FALSE(line.help);
}

TEST_F(CommandLineTest, CommandOptionsTakeValuesEitherWay) {
  EXPECT_EQ(parse({"config", "doc", "--format", "markdown"}).options.get("format"), "markdown");
  EXPECT_EQ(parse({"config", "doc", "--format=markdown"}).options.get("format"), "markdown");
}

TEST_F(CommandLineTest, DoubleDashEndsOptions) {
  EXPECT_THAT(parse({"ptx", "check", "--", "--strict", "-x"}).args, ElementsAre("--strict", "-x"));
}

TEST_F(CommandLineTest, HelpInEveryForm) {
  for (const std::vector<std::string>& tokens :
       std::vector<std::vector<std::string>>{{}, {"--help"}, {"-h"}, {"help"}}) {
    const CommandLine line = parse(tokens);
    EXPECT_TRUE(line.help);
    EXPECT_EQ(line.command, nullptr);
  }
  EXPECT_EQ(parse({"help", "config", "doc"}).command, commands.find("config doc"));
  const CommandLine asked = parse({"run", "--help"});
  EXPECT_TRUE(asked.help) << "help wins over the missing KERNEL";
  EXPECT_EQ(asked.command, commands.find("run"));
}

TEST_F(CommandLineTest, UnknownCommandsGetASuggestion) {
  EXPECT_EQ(error_of({"rnu"}), "unknown command 'rnu' (did you mean 'run'?); see 'gpusoc --help'");
  EXPECT_EQ(error_of({"config", "dupm"}),
            "unknown command 'config dupm' (did you mean 'config dump'?); see 'gpusoc --help'");
  EXPECT_EQ(error_of({"cnfig", "dump"}),
            "unknown command 'cnfig dump' (did you mean 'config dump'?); see 'gpusoc --help'");
  EXPECT_EQ(error_of({"config"}), "'config' needs a subcommand: config doc, config dump");
  EXPECT_EQ(error_of({"help", "rnu"}),
            "unknown command 'rnu' (did you mean 'run'?); see 'gpusoc --help'");
}

TEST_F(CommandLineTest, OptionErrorsAreNamed) {
  EXPECT_EQ(error_of({"config", "doc", "--frmat", "x"}),
            "unknown option '--frmat' for 'config doc' (did you mean '--format'?)");
  EXPECT_EQ(error_of({"config", "dump", "--format", "x"}),
            "unknown option '--format' for 'config dump' (did you mean '--config'?)");
  EXPECT_EQ(error_of({"config", "dump", "--config"}), "option '--config' needs a value (FILE)");
  EXPECT_EQ(error_of({"ptx", "check", "a", "--strict=yes"}), "option '--strict' takes no value");
  EXPECT_EQ(error_of({"config", "dump", "--config", "a", "--config", "b"}),
            "option '--config' is given more than once");
  EXPECT_EQ(error_of({"config", "dump", "-c"}),
            "unknown option '-c'; options are long, e.g. --config");
  EXPECT_EQ(error_of({"--config", "a.json", "config", "dump"}),
            "expected a command before '--config'; see 'gpusoc --help'");
}

TEST_F(CommandLineTest, PositionalArgumentsAreCounted) {
  EXPECT_EQ(error_of({"config", "dump", "extra"}), "'config dump': unexpected argument 'extra'");
  EXPECT_EQ(error_of({"run"}), "'run' expects KERNEL");
  EXPECT_EQ(error_of({"run", "a", "b"}), "'run': unexpected argument 'b'");
  EXPECT_EQ(error_of({"ptx", "check"}), "'ptx check' expects FILE...");
}

TEST_F(CommandLineTest, ACommandNameIsRegisteredOnce) {
  EXPECT_THROW(commands.add(Command("run", "again", nothing)), std::logic_error);
}

}  // namespace
}  // namespace gpusoc::platform
