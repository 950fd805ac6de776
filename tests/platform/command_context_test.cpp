// What the CLI does around a command: --stats-out written while the model's
// statistics exist, and refused rather than silently empty when they are gone.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "models/common/stat.h"
#include "platform/cli.h"
#include "platform/version.h"
#include "tests/unit/common/temp_dir.h"

namespace gpusoc::platform {
namespace {

// A command that builds a "model" with statistics inside itself, as `run` does.
int model_run(const CommandContext& context, bool write) {
  StatGroup gpu(context.stats, "gpu");
  Counter cycles(gpu, "cycles", "cycles", "cycles simulated");
  cycles += 7;
  if (write) context.write_stats();
  return 0;
}

class CommandContextTest : public ::testing::Test {
 protected:
  CommandContextTest() {
    commands.add(
        Command("model writes", "", [](const CommandContext& c) { return model_run(c, true); }));
    commands.add(
        Command("model forgets", "", [](const CommandContext& c) { return model_run(c, false); }));
    commands.add(Command("nothing", "", [](const CommandContext&) { return 3; }));
  }
  int run(std::vector<std::string> args, const std::string& stats_file) {
    args.insert(args.end(), {"--stats-out", stats_file});
    return run_cli(args, commands);
  }

  CommandRegistry commands;
  testing::TempDir dir;
};

TEST_F(CommandContextTest, ACommandWritesItsModelsStatisticsWhileTheyExist) {
  const std::string file = dir.file("stats.csv");
  EXPECT_EQ(run({"model", "writes"}, file), kExitSuccess);
  const std::string csv = testing::read_file(file);
  EXPECT_EQ(
      csv.rfind("name,value,unit,description\ngpu.cycles,7,cycles,cycles simulated\n"
                "provenance.gpusoc," +
                    std::string(gpusoc_version()) + ",,\nprovenance.commit," + gpusoc_commit() +
                    ",,\nprovenance.command_line,gpusoc model writes "
                    "--stats-out " +
                    file + ",,\n",
                0),
      0u)
      << csv;
  EXPECT_NE(csv.find("\nprovenance.configuration.sm.model,lt,,\n"), std::string::npos);
}

TEST_F(CommandContextTest, StatisticsDestroyedUnwrittenAreAnError) {
  const std::string file = dir.file("stats.json");
  EXPECT_EQ(run({"model", "forgets"}, file), kExitError);
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST_F(CommandContextTest, TheCliWritesForCommandsWithoutAModelAndKeepsTheirStatus) {
  const std::string file = dir.file("stats.json");
  EXPECT_EQ(run({"nothing"}, file), 3);
  const nlohmann::json json = nlohmann::json::parse(testing::read_file(file));
  ASSERT_EQ(json.size(), 1u);  // what produced it, and no statistics
  EXPECT_EQ(json["provenance"]["command_line"], "gpusoc nothing --stats-out " + file);
  EXPECT_EQ(json["provenance"]["gpusoc"], gpusoc_version());
}

}  // namespace
}  // namespace gpusoc::platform
