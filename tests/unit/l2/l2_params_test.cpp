// l2.* and rop.* as the configuration gives them, and configurations the slice refuses, each
// with an error naming its key.
#include <gtest/gtest.h>

#include <string>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/l2/l2_params.h"
#include "tests/unit/l2/l2_harness.h"

namespace gpusoc::l2 {
namespace {

std::string problem_with(void (*change)(L2Config&)) {
  L2Config c = testing::small_config();
  change(c);
  return c.problem("l2");
}

void expect_names(const std::string& message, const std::string& key) {
  EXPECT_EQ(message.rfind(key, 0), 0u) << message;
}

TEST(L2Params, DefaultsAreL2ConfigsAndSettingsReachTheConfig) {
  Config config;
  const L2Config d = l2_config_from(config);
  const L2Config expected;
  EXPECT_EQ(d.size_bytes, expected.size_bytes);
  EXPECT_EQ(d.ways, expected.ways);
  EXPECT_EQ(d.line_bytes, expected.line_bytes);
  EXPECT_EQ(d.hit_latency, expected.hit_latency);
  EXPECT_EQ(d.mshrs, expected.mshrs);
  EXPECT_EQ(d.replacement.name, expected.replacement.name);
  config.apply_set("l2.size_bytes=65536");
  config.apply_set("l2.ways=8");
  config.apply_set("l2.hit_latency=20");
  config.apply_set("l2.bytes_per_cycle=32");
  config.apply_set("l2.mshr_merges=4");
  config.apply_set("l2.reply_queue=16");
  config.apply_set("l2.replacement=fifo");
  config.apply_set("rop.latency=20");
  config.apply_set("rop.ops_per_cycle=2");
  const L2Config c = l2_config_from(config);
  EXPECT_EQ(c.size_bytes, 65536u);
  EXPECT_EQ(c.ways, 8u);
  EXPECT_EQ(c.hit_latency, 20u);
  EXPECT_EQ(c.bytes_per_cycle, 32u);
  EXPECT_EQ(c.mshr_merges, 4u);
  EXPECT_EQ(c.reply_queue, 16u);
  EXPECT_EQ(c.replacement.name, "fifo");
  const mempart::RopConfig r = rop_config_from(config);
  EXPECT_EQ(r.latency, 20u);
  EXPECT_EQ(r.ops_per_cycle, 2u);
}

TEST(L2Params, ASizeThatIsNoWholeNumberOfSetsIsAnErrorNamingTheKey) {
  Config config;
  config.apply_set("l2.size_bytes=3000");
  try {
    l2_config_from(config);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    expect_names(e.what(), "l2.size_bytes");
  }
}

TEST(L2Params, EachBadValueNamesItsKey) {
  expect_names(problem_with([](L2Config& c) { c.ways = 0; }), "l2.ways");
  expect_names(problem_with([](L2Config& c) {  // a set's ways are one 64-bit word
                 c.ways = 65;
                 c.size_bytes = uint64_t(c.line_bytes) * 65;
               }),
               "l2.ways");
  expect_names(problem_with([](L2Config& c) { c.ways = 16; }), "l2.size_bytes");
  expect_names(problem_with([](L2Config& c) { c.line_bytes = 48; }), "l2.line_bytes");
  expect_names(problem_with([](L2Config& c) { c.line_bytes = 2048; }), "l2.line_bytes");
  expect_names(problem_with([](L2Config& c) { c.sector_bytes = 64; }), "l2.sector_bytes");
  expect_names(problem_with([](L2Config& c) { c.hit_latency = 0; }), "l2.hit_latency");
  expect_names(problem_with([](L2Config& c) { c.bytes_per_cycle = 0; }), "l2.bytes_per_cycle");
  expect_names(problem_with([](L2Config& c) { c.mshrs = 0; }), "l2.mshrs");
  expect_names(problem_with([](L2Config& c) { c.mshr_merges = 0; }), "l2.mshr_merges");
  expect_names(problem_with([](L2Config& c) { c.input_queue = 0; }), "l2.input_queue");
  expect_names(problem_with([](L2Config& c) { c.memory_queue = 1; }), "l2.memory_queue");
  expect_names(problem_with([](L2Config& c) { c.reply_queue = 0; }), "l2.reply_queue");
  expect_names(problem_with([](L2Config& c) { c.replacement = "mru"; }), "l2.replacement");
  EXPECT_EQ(problem_with([](L2Config& c) {
              c.size_bytes = 0;
              c.ways = 0;
              c.memory_queue = 1;
            }),
            "");  // without a cache, geometry is moot and one memory slot will do
  EXPECT_EQ(problem_with([](L2Config&) {}), "");
}

TEST(L2Params, TheSliceRefusesABadConfigNamingItsOwnPrefix) {
  L2Config c = testing::small_config();
  c.mshrs = 0;
  StatGroup stats;
  mempart::Rop rop({}, stats);
  try {
    L2Slice slice(c, rop, stats, "gpu.l2.slice3");
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    expect_names(e.what(), "gpu.l2.slice3.mshrs");
  }
}

}  // namespace
}  // namespace gpusoc::l2
