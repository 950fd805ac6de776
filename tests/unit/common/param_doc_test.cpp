// The parameter reference in both forms, for a small registry.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "models/common/param.h"
#include "models/common/param_doc.h"

namespace gpusoc {
namespace {

class ParamDocTest : public ::testing::Test {
 protected:
  ParamRegistry registry;
  Param<std::uint32_t> ways{registry, "cache.ways",    4,
                            "ways",   "associativity", Range{1, 16}.power_of_two()};
  Param<std::string> policy{
      registry, "cache.policy", "lru", "", "replacement | victim choice", OneOf{"lru", "fifo"}};
  Param<double> clock{registry, "core.clock_mhz", 1000.0, "MHz", "core clock"};
};

TEST_F(ParamDocTest, TextTableIsAligned) {
  EXPECT_EQ(
      parameter_table(registry),
      "NAME            TYPE    DEFAULT  UNIT  CONSTRAINT         DESCRIPTION\n"
      "cache.policy    string  lru      -     one of lru, fifo   replacement | victim choice\n"
      "cache.ways      uint32  4        ways  1..16, power of 2  associativity\n"
      "core.clock_mhz  float   1000.0   MHz   -                  core clock\n");
}

TEST_F(ParamDocTest, MarkdownHasASectionPerGroup) {
  const std::string markdown = parameter_markdown(registry);
  const std::string tables =
      "\n## cache\n\n"
      "| Parameter | Type | Default | Unit | Constraint | Description |\n"
      "|---|---|---|---|---|---|\n"
      "| `cache.policy` | string | lru | - | one of lru, fifo | replacement \\| victim choice |\n"
      "| `cache.ways` | uint32 | 4 | ways | 1..16, power of 2 | associativity |\n"
      "\n## core\n\n"
      "| Parameter | Type | Default | Unit | Constraint | Description |\n"
      "|---|---|---|---|---|---|\n"
      "| `core.clock_mhz` | float | 1000.0 | MHz | - | core clock |\n";
  ASSERT_GT(markdown.size(), tables.size());
  EXPECT_EQ(markdown.rfind("# Parameters\n", 0), 0u);
  EXPECT_EQ(markdown.substr(markdown.size() - tables.size()), tables);
}

}  // namespace
}  // namespace gpusoc
