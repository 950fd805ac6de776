// xbar.* reaches CrossbarConfig: defaults are the struct's, settings arrive, bad values are
// one error naming the key, and the arbiter choices are the registry's names.
#include <gtest/gtest.h>

#include <string>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/xbar/xbar_params.h"

namespace gpusoc::xbar {
namespace {

std::string error_setting(const std::string& assignment) {
  try {
    Config config;
    config.apply_set(assignment);
    crossbar_config_from(config);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(XbarParams, DefaultsAreTheStructsDefaults) {
  const CrossbarConfig c = crossbar_config_from(Config{});
  const CrossbarConfig d;
  EXPECT_EQ(c.width_bytes, d.width_bytes);
  EXPECT_EQ(c.latency, d.latency);
  EXPECT_EQ(c.input_buffer, d.input_buffer);
  EXPECT_EQ(c.output_buffer, d.output_buffer);
  EXPECT_EQ(c.header_bytes, d.header_bytes);
  EXPECT_EQ(c.arbiter.name, d.arbiter.name);
  EXPECT_TRUE(c.arbiter.settings.value("xbar.islip_iterations").is_null());  // rr has none
}

TEST(XbarParams, SettingsReachTheConfig) {
  Config config;
  for (const char* set :
       {"xbar.width_bytes=64", "xbar.latency=5", "xbar.input_buffer=16", "xbar.output_buffer=3",
        "xbar.header_bytes=12", "xbar.arbiter=islip", "xbar.islip_iterations=3"}) {
    config.apply_set(set);
  }
  const CrossbarConfig c = crossbar_config_from(config);
  EXPECT_EQ(c.width_bytes, 64u);
  EXPECT_EQ(c.latency, 5u);
  EXPECT_EQ(c.input_buffer, 16u);
  EXPECT_EQ(c.output_buffer, 3u);
  EXPECT_EQ(c.header_bytes, 12u);
  EXPECT_EQ(c.arbiter.name, "islip");
  EXPECT_EQ(c.arbiter.settings.value("xbar.islip_iterations"), 3);
}

TEST(XbarParams, BadValuesNameTheKey) {
  for (const std::string key : {"xbar.latency", "xbar.width_bytes", "xbar.input_buffer",
                                "xbar.output_buffer", "xbar.islip_iterations"}) {
    const std::string why = error_setting(key + "=0");
    EXPECT_NE(why.find(key), std::string::npos) << why;
  }
  const std::string why = error_setting("xbar.arbiter=wavefront");
  EXPECT_NE(why.find("xbar.arbiter"), std::string::npos) << why;
}

}  // namespace
}  // namespace gpusoc::xbar
