// Registry: policies by name, one table for the factory, the parameter's choices, its docs and
// the parameters each implementation declares itself.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/error.h"
#include "models/common/param.h"
#include "models/common/registry.h"

namespace gpusoc {
namespace {

struct Shape {
  virtual ~Shape() = default;
  virtual int corners() const = 0;
};
struct Polygon final : Shape {
  explicit Polygon(int n) : n(n) {}
  int corners() const override { return n; }
  int n;
};
using ShapeRegistry = Registry<Shape, int>;

// The parameter that names the shape, and one that only the ngon declares, as an
// implementation's file would (the global registry, which PolicySettings checks against).
const Param<std::string> kKind{"test_registry.kind", "triangle", "", "the shape"};
const Param<int32_t> kSides{"test_registry.ngon_sides", 5, "", "ngon: its corners", Range{3, 64}};

// Entries are constants, as each implementation file defines its own.
constexpr ShapeRegistry::Entry kTriangle{"triangle", "three corners",
                                         [](const PolicySettings&, int) -> std::unique_ptr<Shape> {
                                           return std::make_unique<Polygon>(3);
                                         }};
constexpr ShapeRegistry::Entry kNgon{
    "ngon",
    "as many corners as its parameter says, plus the factory's argument",
    [](const PolicySettings& s, int extra) -> std::unique_ptr<Shape> {
      return std::make_unique<Polygon>(s.get(kSides) + extra);
    },
    {&kSides}};
constexpr ShapeRegistry::Entry kSquare{"square", "four corners",
                                       [](const PolicySettings&, int) -> std::unique_ptr<Shape> {
                                         return std::make_unique<Polygon>(4);
                                       }};

TEST(Registry, MakesByNameWithTheFactorysArguments) {
  const ShapeRegistry shapes("test_registry.kind", "shape", {kTriangle, kNgon});
  EXPECT_EQ(shapes.make("triangle", 9)->corners(), 3);
  EXPECT_EQ(shapes.make("ngon", 1)->corners(), 6);  // the parameter's default, 5, plus 1
  EXPECT_EQ(shapes.names(), (std::vector<std::string>{"triangle", "ngon"}));
  EXPECT_EQ(shapes.describe(),
            "triangle (three corners), ngon (as many corners as its parameter says, plus the "
            "factory's argument)");
  EXPECT_EQ(shapes.find("ngon"), &shapes.entries()[1]);
  EXPECT_EQ(shapes.find("circle"), nullptr);
}

TEST(Registry, APolicyGetsItsOwnParametersFromTheConfig) {
  const ShapeRegistry shapes("test_registry.kind", "shape", {kTriangle, kNgon});
  Config config;
  config.apply_set("test_registry.kind=ngon");
  config.apply_set("test_registry.ngon_sides=7");
  const PolicyChoice choice = shapes.choose(config);
  EXPECT_EQ(choice.name, "ngon");
  EXPECT_EQ(choice.settings.value("test_registry.ngon_sides"), 7);
  EXPECT_EQ(shapes.make(choice, 0)->corners(), 7);
  // Another policy does not carry it.
  config.apply_set("test_registry.kind=triangle");
  EXPECT_TRUE(shapes.choose(config).settings.value("test_registry.ngon_sides").is_null());
}

TEST(Registry, SettingsAreCheckedAgainstTheDeclaration) {
  PolicySettings s;
  EXPECT_THROW(s.set("test_registry.ngon_sides", 2), ConfigError);    // below the range
  EXPECT_THROW(s.set("test_registry.ngon_sides", "x"), ConfigError);  // not an integer
  EXPECT_THROW(s.set("test_registry.no_such", 1), ConfigError);       // not declared
  s.set("test_registry.ngon_sides", 12);
  EXPECT_EQ(s.get(kSides), 12);
}

TEST(Registry, ASettingThePolicyDoesNotDeclareIsAConfigError) {
  const ShapeRegistry shapes("test_registry.kind", "shape", {kTriangle, kNgon});
  PolicyChoice choice("triangle");
  choice.settings.set("test_registry.ngon_sides", 7);  // declared, but by the ngon
  try {
    shapes.make(choice, 0);
    FAIL() << "the triangle took the ngon's parameter";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "test_registry.kind = 'triangle': the shape takes no test_registry.ngon_sides "
                 "(its parameters: none)");
  }
  choice.name = "ngon";
  EXPECT_EQ(shapes.make(choice, 0)->corners(), 7);
}

TEST(Registry, ARegistrationJoinsAfterTheParameterThatNamesItWasDeclared) {
  ShapeRegistry shapes("test_registry.kind", "shape", {kTriangle, kNgon});
  const OneOf choices = shapes.choices();  // as a Param's constraint holds it
  EXPECT_TRUE(choices.violation("test_registry.kind", "square").has_value());
  const ShapeRegistry::Registration added(shapes, kSquare);  // as code outside gpusoc does
  EXPECT_FALSE(choices.violation("test_registry.kind", "square").has_value());
  EXPECT_EQ(shapes.make("square", 0)->corners(), 4);
  EXPECT_THROW(shapes.add(kSquare), std::logic_error);
}

TEST(Registry, AnUnknownNameIsAConfigErrorNamingTheKeyAndTheKnownNames) {
  const ShapeRegistry shapes("test_registry.kind", "shape", {kTriangle, kNgon});
  try {
    shapes.make("circle", 0);
    FAIL() << "made a circle";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "test_registry.kind = 'circle': unknown shape (known: triangle, ngon)");
  }
  Config config;
  config.apply_set("test_registry.kind=circle");  // the test parameter has no OneOf
  EXPECT_THROW(shapes.choose(config), ConfigError);
}

TEST(Registry, ANameRegisteredTwiceIsRefused) {
  EXPECT_THROW(ShapeRegistry("test_registry.kind", "shape", {kTriangle, kNgon, kTriangle}),
               std::logic_error);
}

}  // namespace
}  // namespace gpusoc
