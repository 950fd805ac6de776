// Log levels per module, the line format with simulation time, the compiled-out
// debug macros, and ModelError.
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include "models/common/error.h"
#include "models/common/logging.h"

namespace gpusoc {
namespace {

using spdlog::level::level_enum;

TEST(LogLevelsTest, PatternsMatchWholeConsecutiveComponents) {
  struct Case {
    const char* pattern;
    const char* module;
    bool matches;
  };
  const Case cases[] = {
      {"sm", "sm", true},
      {"sm", "sm.0", true},
      {"sm", "gpu.sm", true},
      {"sm", "gpu.sm.l1d", true},
      {"sm", "smx", false},
      {"sm", "gpu.smx3", false},
      {"sm", "gpu.sm3", true},
      {"sm", "gpu.sm3.l1d", true},
      {"sm3", "gpu.sm3", true},
      {"sm3", "gpu.sm31", false},
      {"sm3", "gpu.sm", false},
      {"sm.l1d", "gpu.sm3.l1d", true},
      {"sm.l1d", "gpu.sm3.tex.l1d", false},
      {"gpu.sm", "gpu.sm3", true},
      {"l1", "gpu.sm3.l1d", false},
      {"gpu.sm3.l1d", "gpu.sm3", false},
      {"xbar", "gpu.xbar", true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(LogLevels::matches(c.pattern, c.module), c.matches)
        << c.pattern << " vs " << c.module;
  }
}

TEST(LogLevelsTest, DefaultAppliesWhereNoRuleMatches) {
  LogLevels levels(spdlog::level::warn);
  levels.add_rule("sm=debug");
  EXPECT_EQ(levels.level_for("gpu.sm3"), spdlog::level::debug);
  EXPECT_EQ(levels.level_for("gpu.xbar"), spdlog::level::warn);
  EXPECT_EQ(LogLevels().level_for("anything"), spdlog::level::info);
}

TEST(LogLevelsTest, MoreComponentsWinThenTheLaterRule) {
  LogLevels later_wins;
  later_wins.add_rule("gpu=warn");
  later_wins.add_rule("sm=debug");
  EXPECT_EQ(later_wins.level_for("gpu.sm3"), spdlog::level::debug);
  EXPECT_EQ(later_wins.level_for("gpu.xbar"), spdlog::level::warn);

  LogLevels reversed;
  reversed.add_rule("sm=debug");
  reversed.add_rule("gpu=warn");
  EXPECT_EQ(reversed.level_for("gpu.sm3"), spdlog::level::warn);

  LogLevels specific;
  specific.add_rule("gpu.sm=trace");
  specific.add_rule("sm=error");
  EXPECT_EQ(specific.level_for("gpu.sm3.l1d"), spdlog::level::trace);
  EXPECT_EQ(specific.level_for("cluster.sm0"), spdlog::level::err);
}

TEST(LogLevelsTest, ParsesEveryLevelName) {
  EXPECT_EQ(LogLevels::parse_level("trace"), spdlog::level::trace);
  EXPECT_EQ(LogLevels::parse_level("debug"), spdlog::level::debug);
  EXPECT_EQ(LogLevels::parse_level("info"), spdlog::level::info);
  EXPECT_EQ(LogLevels::parse_level("warn"), spdlog::level::warn);
  EXPECT_EQ(LogLevels::parse_level("error"), spdlog::level::err);
  EXPECT_EQ(LogLevels::parse_level("critical"), spdlog::level::critical);
  EXPECT_EQ(LogLevels::parse_level("off"), spdlog::level::off);
  try {
    LogLevels::parse_level("loud");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown log level 'loud' (expected one of trace, debug, info, warn, error, "
                 "critical, off)");
  }
}

TEST(LogLevelsTest, RejectsMalformedRules) {
  LogLevels levels;
  for (const char* rule : {"sm", "=debug", "sm..l1=debug", ".sm=debug", "sm=loud", "sm="}) {
    EXPECT_THROW(levels.add_rule(rule), UsageError) << rule;
  }
}

// Loggers are process-wide: each test captures them and restores stderr afterwards.
class LoggingTest : public ::testing::Test {
 protected:
  LoggingTest() { set_log_sink(std::make_shared<spdlog::sinks::ostream_sink_mt>(captured)); }
  ~LoggingTest() override {
    set_log_sink(std::make_shared<spdlog::sinks::stderr_sink_mt>());
    set_log_levels(LogLevels());
    set_time_source(nullptr);
  }
  std::ostringstream captured;
};

TEST_F(LoggingTest, LinesCarrySimulationTimeModuleAndLevel) {
  const Logger log = logger("gpu.sm3");
  log->info("launched {} CTAs", 4);
  set_time_source([] { return "1250 ns"; });
  log->warn("stalled");
  EXPECT_EQ(captured.str(),
            "[-] [gpu.sm3] [info] launched 4 CTAs\n"
            "[1250 ns] [gpu.sm3] [warning] stalled\n");
}

TEST_F(LoggingTest, LevelsApplyToExistingAndNewLoggers) {
  const Logger early = logger("gpu.xbar");
  LogLevels levels(spdlog::level::warn);
  levels.add_rule("sm=info");
  set_log_levels(levels);
  const Logger late = logger("gpu.sm0");
  early->info("hidden");
  late->info("shown");
  early->error("also shown");
  EXPECT_EQ(captured.str(),
            "[-] [gpu.sm0] [info] shown\n"
            "[-] [gpu.xbar] [error] also shown\n");
  EXPECT_EQ(logger("gpu.sm0"), late) << "one logger per module";
}

TEST_F(LoggingTest, DebugMacrosAreCompiledOutUnlessEnabled) {
  LogLevels levels;
  levels.add_rule("sm=trace");
  set_log_levels(levels);
  const Logger log = logger("gpu.sm1");
  int evaluated = 0;
  GPUSOC_DEBUG(log, "debug {}", ++evaluated);
  GPUSOC_TRACE(log, "trace {}", ++evaluated);
#if GPUSOC_LOG_DEBUG_ENABLED
  EXPECT_EQ(evaluated, 2);
  EXPECT_EQ(captured.str(), "[-] [gpu.sm1] [debug] debug 1\n[-] [gpu.sm1] [trace] trace 2\n");
#else
  EXPECT_EQ(evaluated, 0) << "arguments must not even be evaluated";
  EXPECT_EQ(captured.str(), "");
#endif
}

TEST_F(LoggingTest, DebugMacrosRespectTheModuleLevel) {
  const Logger log = logger("gpu.sm2");  // default level: info
  int evaluated = 0;
  GPUSOC_DEBUG(log, "debug {}", ++evaluated);
  EXPECT_EQ(evaluated, 0);
  EXPECT_EQ(captured.str(), "");
}

TEST(ModelErrorTest, NamesTheModule) {
  const ModelError error("gpu.sm3.lsu", "misaligned 8-byte access at 0x1004");
  EXPECT_STREQ(error.what(), "gpu.sm3.lsu: misaligned 8-byte access at 0x1004");
  EXPECT_EQ(error.module(), "gpu.sm3.lsu");
  EXPECT_NE(dynamic_cast<const Error*>(&error), nullptr);
}

}  // namespace
}  // namespace gpusoc
