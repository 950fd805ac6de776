// Parameter declarations: what the registry accepts, and the spelling suggestions.
#include <cstdint>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/common/param.h"
#include "models/common/param_registry.h"
#include "models/common/spelling.h"

namespace gpusoc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Declared the way models do: at namespace scope, into the process-wide registry.
const Param<std::uint32_t> kGlobalParam{"test_registry.lanes", 7, "lanes", "declared statically"};

TEST(ParamRegistryTest, StaticDeclarationJoinsTheProcessRegistry) {
  const ParamSpec* spec = ParamRegistry::instance().find("test_registry.lanes");
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->type, ParamType::kUint32);
  EXPECT_EQ(spec->default_value, 7);
  EXPECT_EQ(spec->unit, "lanes");
  EXPECT_EQ(kGlobalParam.get(Config()), 7u);
}

TEST(ParamRegistryTest, ListsDeclarationsSortedByName) {
  ParamRegistry registry;
  Param<bool> b{registry, "b.flag", false, "", "b"};
  Param<double> a{registry, "a.rate", 0.5, "", "a"};
  Param<std::string> c{registry, "a.name", "x", "", "c"};
  std::vector<std::string> names;
  for (const ParamSpec* spec : registry.all()) names.push_back(spec->name);
  EXPECT_THAT(names, ElementsAre("a.name", "a.rate", "b.flag"));
}

TEST(ParamRegistryTest, RecordsTypeDefaultUnitDescriptionAndConstraint) {
  ParamRegistry registry;
  Param<std::int64_t> p{registry, "core.offset", -3, "cycles", "skew", Range{-10, 10}};
  const ParamSpec& spec = *registry.find("core.offset");
  EXPECT_EQ(spec.type, ParamType::kInt64);
  EXPECT_EQ(spec.default_value, -3);
  EXPECT_EQ(spec.unit, "cycles");
  EXPECT_EQ(spec.description, "skew");
  EXPECT_EQ(spec.constraint.describe(), "-10..10");
  EXPECT_EQ(type_name(spec.type), "int64");
}

TEST(ParamRegistryTest, RejectsANameDeclaredTwice) {
  ParamRegistry registry;
  Param<int> first{registry, "sm.warp_size", 32, "", "first"};
  EXPECT_THROW((Param<int>{registry, "sm.warp_size", 32, "", "again"}), std::logic_error);
}

TEST(ParamRegistryTest, RejectsAParameterThatIsAlsoAGroup) {
  ParamRegistry registry;
  Param<int> leaf{registry, "sm.l1.ways", 4, "", ""};
  EXPECT_THROW((Param<int>{registry, "sm.l1", 1, "", ""}), std::logic_error);
  EXPECT_THROW((Param<int>{registry, "sm.l1.ways.x", 1, "", ""}), std::logic_error);
  Param<int> sibling{registry, "sm.l1_ways", 4, "", ""};  // a different name, not a group
}

TEST(ParamRegistryTest, RejectsMalformedAndReservedNames) {
  ParamRegistry registry;
  for (const char* name :
       {"", "sm..x", ".sm", "sm.", "sm.warp size", "sm-x", "include", "description.text"}) {
    EXPECT_THROW((Param<int>{registry, name, 1, "", ""}), std::logic_error) << name;
  }
  Param<int> mixed_case{registry, "mempart.dram.tRCD", 12, "cycles", ""};
}

TEST(ParamRegistryTest, RejectsADefaultThatBreaksItsConstraint) {
  ParamRegistry registry;
  try {
    Param<std::uint32_t> p{registry, "sm.warp_size", 24, "", "", Range{1, 64}.power_of_two()};
    FAIL() << "accepted a default that is not a power of two";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "default of sm.warp_size = 24 is not a power of two");
  }
  EXPECT_THROW((Param<std::string>{registry, "memory.type", "DDR9", "", "", OneOf{"DDR4"}}),
               std::logic_error);
  EXPECT_THROW((Param<int>{registry, "x.y", 1, "", "", OneOf{"a"}}), std::logic_error);
}

TEST(ParamRegistryTest, SuggestsTheNearestName) {
  ParamRegistry registry;
  Param<int> a{registry, "sm.warp_size", 32, "", ""};
  Param<int> b{registry, "sm.max_threads", 768, "", ""};
  EXPECT_EQ(registry.nearest("sm.warpsize"), "sm.warp_size");
  EXPECT_EQ(registry.nearest("sm.max_thread"), "sm.max_threads");
  EXPECT_EQ(ParamRegistry().nearest("anything"), "");
}

TEST(SpellingTest, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("same", "same"), 0u);
  EXPECT_EQ(edit_distance("sm.warpsize", "sm.warp_size"), 1u);
}

TEST(SpellingTest, ClosestSpellingPrefersTheFirstOfEquals) {
  EXPECT_EQ(closest_spelling("cat", {"bat", "cut", "dog"}), "bat");
  EXPECT_EQ(closest_spelling("dug", {"bat", "cut", "dog"}), "dog");
  EXPECT_EQ(closest_spelling("x", {}), "");
}

TEST(ConstraintTest, DescribesItself) {
  EXPECT_EQ(Constraint().describe(), "");
  EXPECT_EQ(Range(1, 64).power_of_two().describe(), "1..64, power of 2");
  EXPECT_EQ(Range::at_least(1024).describe(), ">= 1024");
  EXPECT_EQ(Range(nullptr, 5).describe(), "<= 5");
  EXPECT_EQ(Range(0.5, 2.5).describe(), "0.5..2.5");
  EXPECT_EQ(OneOf({"lru", "fifo"}).describe(), "one of lru, fifo");
}

TEST(ConstraintTest, RejectsMalformedRanges) {
  EXPECT_THROW(Range(10, 1), std::invalid_argument);
  EXPECT_THROW(Range("a", 1), std::invalid_argument);
}

}  // namespace
}  // namespace gpusoc
