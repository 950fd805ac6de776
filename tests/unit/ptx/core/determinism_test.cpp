// The same inputs give bit-identical results and statistics, run after run.
#include <gtest/gtest.h>

#include "sw/apps/suite.h"

namespace gpusoc::apps {
namespace {

TEST(Determinism, EverySuiteAppRepeatsExactly) {
  for (const SuiteApp& app : suite_apps()) {
    const uint64_t size = app.size_meaning == "matrix order N" ? 48 : 5000;
    ptx::FunctionalDevice first_device, second_device;
    const RunResult first = app.run(first_device, size);
    const RunResult second = app.run(second_device, size);
    EXPECT_TRUE(first.verified) << first.summary;
    EXPECT_EQ(first.summary, second.summary) << app.name;  // includes the computed values
    EXPECT_EQ(first.stats.warp_instructions, second.stats.warp_instructions) << app.name;
    EXPECT_EQ(first.stats.thread_instructions, second.stats.thread_instructions) << app.name;
    EXPECT_EQ(first.stats.ctas, second.stats.ctas) << app.name;
    EXPECT_GT(first.stats.warp_instructions, 0u) << app.name;
  }
}

}  // namespace
}  // namespace gpusoc::apps
