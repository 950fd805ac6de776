// Configuration files: includes, their order and nesting, cycles, reserved keys and
// file-level errors. Values are checked through a Config over a small registry.
#include <cstdint>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/config_file.h"
#include "models/common/error.h"
#include "models/common/param.h"
#include "tests/unit/common/temp_dir.h"

namespace gpusoc {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class ConfigFileTest : public ::testing::Test {
 protected:
  // The message of the ConfigError that loading `file` raises.
  std::string load_error(const std::string& file) {
    try {
      config.load_file(file);
    } catch (const ConfigError& e) {
      return e.what();
    }
    ADD_FAILURE() << "loading " << file << " raised no ConfigError";
    return "";
  }

  ParamRegistry registry;
  Param<std::uint32_t> ways{registry, "cache.ways", 4, "ways", "associativity"};
  Param<std::uint32_t> sets{registry, "cache.sets", 64, "sets", "sets"};
  Param<double> clock{registry, "core.clock_mhz", 1000.0, "MHz", "clock"};
  Config config{registry};
  testing::TempDir dir;
};

// JSON keeps the last of two equal keys silently; a configuration must not: one of them is a typo.
TEST_F(ConfigFileTest, AKeyGivenTwiceInOneObjectIsAnErrorNamingItsPath) {
  const std::string file =
      dir.write("twice.json", R"({"cache": {"ways": 2, "sets": 64, "ways": 4}})");
  EXPECT_EQ(load_error(file), file + ": key 'cache.ways' is given twice");
  // The same key in different objects is not a duplicate.
  config.load_file(dir.write("apart.json", R"({"cache": {"ways": 2}, "core": {"clock_mhz": 1}})"));
}

// Thousands of levels would overflow the stack of anything that walks the settings; the parse
// stops at the limit, naming the path so far.
TEST_F(ConfigFileTest, NestingBeyondThirtyTwoLevelsIsRefused) {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += R"({"a":)";
  deep += "1" + std::string(5000, '}');
  const std::string error = load_error(dir.write("deep.json", deep));
  EXPECT_THAT(error, StartsWith(dir.file("deep.json") + ": nested deeper than 32 levels at 'a.a."));
  std::string ok = R"({"cache": {"ways": 3}, "x": )";
  for (int i = 0; i < 30; ++i) ok += "[";
  ok += std::string(30, ']') + "}";
  EXPECT_THAT(load_error(dir.write("ok.json", ok)), HasSubstr("unknown parameter 'x'"));
}

TEST_F(ConfigFileTest, IncludingFileOverridesTheIncludedOne) {
  dir.write("base.json", R"({"cache": {"ways": 2, "sets": 128}})");
  const std::string top = dir.write("top.json", R"({"include": "base.json", "cache.ways": 8})");
  config.load_file(top);
  EXPECT_EQ(ways.get(config), 8u);
  EXPECT_EQ(sets.get(config), 128u);
  EXPECT_EQ(config.origin("cache.ways"), top);
  EXPECT_EQ(config.origin("cache.sets"), dir.file("base.json"));
  EXPECT_EQ(config.origin("core.clock_mhz"), "default");
}

TEST_F(ConfigFileTest, IncludesApplyInTheOrderListed) {
  dir.write("a.json", R"({"cache.ways": 2, "cache.sets": 16})");
  dir.write("b.json", R"({"cache.ways": 16})");
  config.load_file(dir.write("top.json", R"({"include": ["a.json", "b.json"]})"));
  EXPECT_EQ(ways.get(config), 16u);
  EXPECT_EQ(sets.get(config), 16u);
}

TEST_F(ConfigFileTest, NestedIncludesAreRelativeToTheIncludingFile) {
  dir.write("common/leaf.json", R"({"cache.sets": 32, "core.clock_mhz": 700})");
  dir.write("common/mid.json", R"({"include": "leaf.json", "cache.sets": 256})");
  dir.write("other.json", R"({"cache.ways": 1})");
  dir.write("machines/top.json", R"({"include": ["../common/mid.json", "../other.json"]})");
  config.load_file(dir.file("machines/top.json"));
  EXPECT_EQ(sets.get(config), 256u);
  EXPECT_EQ(clock.get(config), 700.0);
  EXPECT_EQ(ways.get(config), 1u);
  EXPECT_EQ(config.origin("cache.ways"), dir.file("other.json"));
}

TEST_F(ConfigFileTest, DocumentsComeIncludesFirst) {
  dir.write("leaf.json", R"({"cache.sets": 1})");
  dir.write("mid.json", R"({"include": "leaf.json", "description": "m", "cache.sets": 2})");
  const std::string top = dir.write("top.json", R"({"include": "mid.json", "cache.ways": 2})");
  const std::vector<ConfigDocument> documents = read_config_file(top);
  ASSERT_EQ(documents.size(), 3u);
  EXPECT_EQ(documents[0].path, dir.file("leaf.json"));
  EXPECT_EQ(documents[1].path, dir.file("mid.json"));
  EXPECT_EQ(documents[1].settings, nlohmann::json::parse(R"({"cache.sets": 2})"));
  EXPECT_EQ(documents[2].path, top);
}

TEST_F(ConfigFileTest, AFileIncludedTwiceWithoutACycleIsFine) {
  dir.write("base.json", R"({"cache.ways": 2})");
  dir.write("left.json", R"({"include": "base.json"})");
  dir.write("right.json", R"({"include": "base.json", "cache.sets": 8})");
  config.load_file(dir.write("top.json", R"({"include": ["left.json", "right.json"]})"));
  EXPECT_EQ(ways.get(config), 2u);
  EXPECT_EQ(sets.get(config), 8u);
}

TEST_F(ConfigFileTest, IncludeCycleIsAnError) {
  const std::string a = dir.write("a.json", R"({"include": "b.json"})");
  const std::string b = dir.write("b.json", R"({"include": "a.json"})");
  EXPECT_EQ(load_error(a), b + ": include cycle: " + a + " -> " + b + " -> " + a);
}

TEST_F(ConfigFileTest, SelfIncludeIsACycle) {
  const std::string a = dir.write("a.json", R"({"include": "./a.json"})");
  EXPECT_EQ(load_error(a), a + ": include cycle: " + a + " -> " + a);
}

TEST_F(ConfigFileTest, MissingFilesAreNamed) {
  EXPECT_EQ(load_error(dir.file("none.json")),
            "cannot open config file '" + dir.file("none.json") + "'");
  const std::string top = dir.write("top.json", R"({"include": "gone.json"})");
  EXPECT_EQ(load_error(top), top + ": cannot open included file '" + dir.file("gone.json") + "'");
}

TEST_F(ConfigFileTest, InvalidJsonNamesTheFileAndPosition) {
  const std::string bad = dir.write("bad.json", "{\n  \"cache.ways\": 4,\n}\n");
  const std::string message = load_error(bad);
  EXPECT_THAT(message, StartsWith(bad + ": invalid JSON: "));
  EXPECT_THAT(message, HasSubstr("line 3"));
  EXPECT_THAT(message, Not(HasSubstr("[json.exception")));
}

TEST_F(ConfigFileTest, TopLevelMustBeAnObject) {
  const std::string list = dir.write("list.json", "[1, 2]");
  EXPECT_EQ(load_error(list), list + ": the top level must be a JSON object");
}

TEST_F(ConfigFileTest, ReservedKeysAreCheckedAndNotParameters) {
  config.load_file(dir.write("ok.json", R"({"description": ["two", "lines"], "include": []})"));
  EXPECT_EQ(config.origin("cache.ways"), "default");
  const std::string number = dir.write("number.json", R"({"description": 3})");
  EXPECT_EQ(load_error(number), number + ": \"description\" must be a string or a list of strings");
  const std::string include = dir.write("include.json", R"({"include": {"file": "x"}})");
  EXPECT_EQ(load_error(include),
            include + ": \"include\" must be a file name or a list of file names");
}

TEST_F(ConfigFileTest, ReservedKeysAreOnlyReservedAtTheTopLevel) {
  const std::string file = dir.write("nested.json", R"({"cache": {"description": "x"}})");
  EXPECT_EQ(load_error(file),
            file + ": unknown parameter 'cache.description' (did you mean 'cache.sets'?)");
}

TEST_F(ConfigFileTest, UnknownKeyInAnIncludedFileNamesThatFile) {
  const std::string base = dir.write("base.json", R"({"cache": {"way": 8}})");
  const std::string top = dir.write("top.json", R"({"include": "base.json"})");
  EXPECT_EQ(load_error(top), base + ": unknown parameter 'cache.way' (did you mean 'cache.ways'?)");
}

}  // namespace
}  // namespace gpusoc
