// Config values: nested and dotted keys, validation messages, --set parsing, the dump.
#include <cstdint>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/common/param.h"
#include "tests/unit/common/temp_dir.h"

namespace gpusoc {
namespace {

using nlohmann::json;

class ConfigTest : public ::testing::Test {
 protected:
  // The message of the ConfigError `action` raises.
  template <typename Action>
  std::string error_of(Action action) {
    try {
      action();
    } catch (const ConfigError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no ConfigError";
    return "";
  }

  std::string file_error(const std::string& text) {
    const std::string file = dir.write("config.json", text);
    return error_of([&] { config.load_file(file); });
  }
  std::string set_error(const std::string& assignment) {
    return error_of([&] { config.apply_set(assignment); });
  }
  std::string path() const { return dir.file("config.json"); }

  ParamRegistry registry;
  Param<std::uint32_t> ways{registry, "cache.l1.ways", 4,
                            "ways",   "associativity", Range{1, 16}.power_of_two()};
  Param<std::uint64_t> size{registry,   "cache.l1.size_bytes", 16384, "bytes",
                            "capacity", Range::at_least(1024)};
  Param<std::string> policy{registry, "cache.l1.policy", "lru",
                            "",       "replacement",     OneOf{"lru", "fifo", "random"}};
  Param<std::int32_t> skew{registry, "core.skew", -3, "cycles", "clock skew", Range{-10, 10}};
  Param<double> clock{registry, "core.clock_mhz", 1000.0, "MHz", "clock", Range{1, 5000}};
  Param<bool> trace{registry, "core.trace", false, "", "trace every instruction"};
  Config config{registry};
  testing::TempDir dir;
};

TEST_F(ConfigTest, EveryParameterStartsAtItsDefault) {
  EXPECT_EQ(ways.get(config), 4u);
  EXPECT_EQ(size.get(config), 16384u);
  EXPECT_EQ(policy.get(config), "lru");
  EXPECT_EQ(skew.get(config), -3);
  EXPECT_EQ(clock.get(config), 1000.0);
  EXPECT_FALSE(trace.get(config));
  EXPECT_EQ(config.origin("core.trace"), "default");
}

TEST_F(ConfigTest, NestedObjectsAndDottedKeysAreEquivalent) {
  const char* forms[] = {
      R"({"cache": {"l1": {"ways": 8, "policy": "fifo"}}, "core": {"trace": true}})",
      R"({"cache.l1.ways": 8, "cache.l1.policy": "fifo", "core.trace": true})",
      R"({"cache": {"l1.ways": 8, "l1": {"policy": "fifo"}}, "core.trace": true})"};
  json first;
  for (const char* form : forms) {
    Config each(registry);
    each.load_file(dir.write("form.json", form));
    EXPECT_EQ(ways.get(each), 8u) << form;
    EXPECT_EQ(policy.get(each), "fifo") << form;
    EXPECT_TRUE(trace.get(each)) << form;
    if (first.is_null()) first = each.to_json();
    EXPECT_EQ(json(each.to_json()), first) << form;
  }
}

TEST_F(ConfigTest, SetOverridesTheFileAndLaterSetWins) {
  config.load_file(dir.write("config.json", R"({"cache.l1.ways": 8, "core.clock_mhz": 800})"));
  config.apply_set("cache.l1.ways=2");
  config.apply_set("cache.l1.ways=16");
  EXPECT_EQ(ways.get(config), 16u);
  EXPECT_EQ(config.origin("cache.l1.ways"), "--set");
  EXPECT_EQ(clock.get(config), 800.0);
  EXPECT_EQ(config.origin("core.clock_mhz"), path());
}

TEST_F(ConfigTest, SetParsesEachType) {
  config.apply_set("cache.l1.ways=8");
  config.apply_set("cache.l1.size_bytes=0x8000");
  config.apply_set("core.skew=-7");
  config.apply_set("core.clock_mhz=1.5e3");
  config.apply_set("core.trace=true");
  config.apply_set("cache.l1.policy=random");
  EXPECT_EQ(ways.get(config), 8u);
  EXPECT_EQ(size.get(config), 32768u);
  EXPECT_EQ(skew.get(config), -7);
  EXPECT_EQ(clock.get(config), 1500.0);
  EXPECT_TRUE(trace.get(config));
  EXPECT_EQ(policy.get(config), "random");
  config.apply_set("core.trace=false");
  config.apply_set("core.clock_mhz=1200");
  EXPECT_FALSE(trace.get(config));
  EXPECT_EQ(config.value("core.clock_mhz").dump(), "1200.0");
}

TEST_F(ConfigTest, SetRejectsBadSyntax) {
  EXPECT_EQ(set_error("cache.l1.ways"), "--set 'cache.l1.ways': expected NAME=VALUE");
  EXPECT_EQ(set_error("=8"), "--set '=8': expected NAME=VALUE");
  EXPECT_EQ(set_error(""), "--set '': expected NAME=VALUE");
}

TEST_F(ConfigTest, SetRejectsTextThatIsNotOfTheParametersType) {
  EXPECT_EQ(set_error("cache.l1.ways=eight"), "--set: cache.l1.ways: expected uint32, got 'eight'");
  EXPECT_EQ(set_error("cache.l1.ways=8.0"), "--set: cache.l1.ways: expected uint32, got '8.0'");
  EXPECT_EQ(set_error("cache.l1.ways="), "--set: cache.l1.ways: expected uint32, got ''");
  EXPECT_EQ(set_error("cache.l1.ways=0x"), "--set: cache.l1.ways: expected uint32, got '0x'");
  EXPECT_EQ(set_error("core.trace=yes"), "--set: core.trace: expected bool, got 'yes'");
  EXPECT_EQ(set_error("core.trace=1"), "--set: core.trace: expected bool, got '1'");
  EXPECT_EQ(set_error("core.clock_mhz=fast"), "--set: core.clock_mhz: expected float, got 'fast'");
  EXPECT_EQ(set_error("core.clock_mhz=inf"), "--set: core.clock_mhz: expected float, got 'inf'");
}

TEST_F(ConfigTest, SetValuesAreValidatedLikeFileValues) {
  EXPECT_EQ(set_error("cache.l1.ways=3"), "--set: cache.l1.ways = 3 is not a power of two");
  EXPECT_EQ(set_error("cache.l1.ways=-1"), "--set: cache.l1.ways = -1 does not fit in uint32");
  EXPECT_EQ(set_error("cache.l1.policy=a=b"),
            "--set: cache.l1.policy = \"a=b\" is not one of lru, fifo, random");
  EXPECT_EQ(set_error("cache.l1.wayz=4"),
            "--set: unknown parameter 'cache.l1.wayz' (did you mean 'cache.l1.ways'?)");
}

TEST_F(ConfigTest, UnknownKeyNamesTheFileAndTheNearestKey) {
  EXPECT_EQ(file_error(R"({"cache": {"l1": {"way": 8}}})"),
            path() + ": unknown parameter 'cache.l1.way' (did you mean 'cache.l1.ways'?)");
  EXPECT_EQ(file_error(R"({"core.clockmhz": 8})"),
            path() + ": unknown parameter 'core.clockmhz' (did you mean 'core.clock_mhz'?)");
}

TEST_F(ConfigTest, EachValidationFailureHasItsOwnMessage) {
  EXPECT_EQ(file_error(R"({"cache.l1.ways": 32})"),
            path() + ": cache.l1.ways = 32 is out of range [1, 16]");
  EXPECT_EQ(file_error(R"({"cache.l1.ways": 6})"),
            path() + ": cache.l1.ways = 6 is not a power of two");
  EXPECT_EQ(file_error(R"({"cache.l1.size_bytes": 512})"),
            path() + ": cache.l1.size_bytes = 512 is below the minimum 1024");
  EXPECT_EQ(file_error(R"({"cache.l1.policy": "plru"})"),
            path() + ": cache.l1.policy = \"plru\" is not one of lru, fifo, random");
  EXPECT_EQ(file_error(R"({"core.skew": -11})"),
            path() + ": core.skew = -11 is out of range [-10, 10]");
  EXPECT_EQ(file_error(R"({"core.skew": 3000000000})"),
            path() + ": core.skew = 3000000000 does not fit in int32");
  EXPECT_EQ(file_error(R"({"core.clock_mhz": 0.5})"),
            path() + ": core.clock_mhz = 0.5 is out of range [1, 5000]");
}

TEST_F(ConfigTest, WrongJsonTypesAreNamed) {
  EXPECT_EQ(file_error(R"({"cache.l1.ways": "8"})"),
            path() + ": cache.l1.ways: expected uint32, got string \"8\"");
  EXPECT_EQ(file_error(R"({"cache.l1.ways": 8.5})"),
            path() + ": cache.l1.ways: expected uint32, got number 8.5");
  EXPECT_EQ(file_error(R"({"cache.l1.ways": [8]})"),
            path() + ": cache.l1.ways: expected uint32, got array");
  EXPECT_EQ(file_error(R"({"cache.l1.ways": {"x": 1}})"),
            path() + ": cache.l1.ways: expected uint32, got object");
  EXPECT_EQ(file_error(R"({"cache.l1.ways": null})"),
            path() + ": cache.l1.ways: expected uint32, got null");
  EXPECT_EQ(file_error(R"({"core.trace": 1})"),
            path() + ": core.trace: expected bool, got number 1");
  EXPECT_EQ(file_error(R"({"cache.l1.policy": true})"),
            path() + ": cache.l1.policy: expected string, got boolean true");
  EXPECT_EQ(file_error(R"({"core.clock_mhz": "fast"})"),
            path() + ": core.clock_mhz: expected float, got string \"fast\"");
}

TEST_F(ConfigTest, AKeyGivenTwiceInOneFileIsAnError) {
  EXPECT_EQ(file_error(R"({"cache.l1.ways": 2, "cache": {"l1": {"ways": 4}}})"),
            path() + ": cache.l1.ways is given twice");
}

TEST_F(ConfigTest, FloatParametersAcceptIntegersAndStoreFloats) {
  config.load_file(dir.write("config.json", R"({"core.clock_mhz": 1200})"));
  EXPECT_EQ(clock.get(config), 1200.0);
  EXPECT_TRUE(config.value("core.clock_mhz").is_number_float());
}

TEST_F(ConfigTest, DumpIsNestedCompleteSortedAndLoadableAgain) {
  config.apply_set("cache.l1.ways=8");
  config.apply_set("core.clock_mhz=1200");
  const std::string expected = R"({
  "cache": {
    "l1": {
      "policy": "lru",
      "size_bytes": 16384,
      "ways": 8
    }
  },
  "core": {
    "clock_mhz": 1200.0,
    "skew": -3,
    "trace": false
  }
})";
  EXPECT_EQ(config.to_json().dump(2), expected);
  Config reloaded(registry);
  reloaded.load_file(dir.write("dump.json", expected));
  EXPECT_EQ(reloaded.to_json().dump(2), expected);
}

TEST_F(ConfigTest, UnknownNamesCannotBeRead) {
  EXPECT_THROW(config.value("cache.l2.ways"), ConfigError);
  EXPECT_THROW(config.origin("cache.l2.ways"), ConfigError);
}

}  // namespace
}  // namespace gpusoc
