// Host memory claims against a budget set through GPUSOC_HOST_MEMORY_BUDGET.
#include <cstdlib>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "models/common/host_memory.h"

namespace gpusoc {
namespace {

using ::testing::HasSubstr;

class HostMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override { setenv("GPUSOC_HOST_MEMORY_BUDGET", "1048576", 1); }  // 1 MiB
  void TearDown() override { unsetenv("GPUSOC_HOST_MEMORY_BUDGET"); }
};

TEST_F(HostMemoryTest, ClaimsWithinTheBudgetHoldAndReleaseTheirBytes) {
  const uint64_t before = HostMemoryClaim::claimed_bytes();
  {
    HostMemoryClaim a("l2.size_bytes", 1, 600 << 10);
    HostMemoryClaim b("sm.l1.size_bytes", 2, 400 << 10);
    EXPECT_EQ(HostMemoryClaim::claimed_bytes(), before + (1000 << 10));
    HostMemoryClaim moved = std::move(a);
    EXPECT_EQ(HostMemoryClaim::claimed_bytes(), before + (1000 << 10));
  }
  EXPECT_EQ(HostMemoryClaim::claimed_bytes(), before);
}

TEST_F(HostMemoryTest, AClaimPastTheBudgetNamesTheKeyAndTheMemoryNeeded) {
  const uint64_t before = HostMemoryClaim::claimed_bytes();
  HostMemoryClaim held("sm.l1.size_bytes", 65536, 700 << 10);
  try {
    HostMemoryClaim more("l2.size_bytes", 1073741824, 512 << 10);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("l2.size_bytes = 1073741824: the model would need 512.0 KiB "
                                    "of host memory for it (1.2 MiB in all"));
    EXPECT_THAT(e.what(), HasSubstr("more than the 1.0 MiB it may take"));
  }
  // A refused claim holds nothing.
  EXPECT_EQ(HostMemoryClaim::claimed_bytes(), before + (uint64_t(700) << 10));
}

TEST_F(HostMemoryTest, AMalformedBudgetIsAnError) {
  setenv("GPUSOC_HOST_MEMORY_BUDGET", "lots", 1);
  EXPECT_THROW(HostMemoryClaim("l2.size_bytes", 1, 1), ConfigError);
}

}  // namespace
}  // namespace gpusoc
