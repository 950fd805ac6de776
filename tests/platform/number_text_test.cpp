// Numbers on the command line: whole, unsigned, in range, or a UsageError naming the option.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/error.h"
#include "platform/number_text.h"

namespace gpusoc::platform {
namespace {

using ::testing::HasSubstr;

TEST(NumberTextTest, DecimalAndHexAreReadWhole) {
  EXPECT_EQ(unsigned_integer("0"), 0u);
  EXPECT_EQ(unsigned_integer("4096"), 4096u);
  EXPECT_EQ(unsigned_integer("0x1000"), 4096u);
  EXPECT_EQ(unsigned_integer("18446744073709551615"), ~uint64_t(0));
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1e3", "0x", "12x", "18446744073709551616",
                          "0x10000000000000000"}) {
    EXPECT_EQ(unsigned_integer(bad), std::nullopt) << "'" << bad << "'";
  }
}

TEST(NumberTextTest, OutOfRangeNamesTheOptionAndTheRange) {
  EXPECT_EQ(integer_option("--requests", "10", 1, 100), 10u);
  try {
    integer_option("--requests", "-1", 1, 100);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--requests '-1': expected an integer from 1 to 100");
  }
  EXPECT_THROW(integer_option("--requests", "0", 1, 100), UsageError);
  EXPECT_THROW(integer_option("--requests", "101", 1, 100), UsageError);
}

TEST(NumberTextTest, RealsAreFiniteAndPositive) {
  EXPECT_EQ(positive_real_option("--rate", "2.5", 10), 2.5);
  EXPECT_EQ(positive_real_option("--rate", "10", 10), 10.0);
  for (const char* bad : {"0", "-1", "nan", "inf", "11", "", "1.5x", "1,5"}) {
    try {
      positive_real_option("--rate", bad, 10);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const UsageError& e) {
      EXPECT_THAT(e.what(), HasSubstr("--rate '" + std::string(bad) +
                                      "': expected a number above 0 and at most 10"));
    }
  }
}

}  // namespace
}  // namespace gpusoc::platform
