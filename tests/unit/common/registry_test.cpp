// Registry: policies by name, one table for the factory, the parameter's choices and its docs.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/error.h"
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

// Entries are constants, as each implementation file defines its own.
const ShapeRegistry::Entry kTriangle{
    "triangle", "three corners",
    [](int) -> std::unique_ptr<Shape> { return std::make_unique<Polygon>(3); }};
const ShapeRegistry::Entry kNgon{
    "ngon", "as many corners as asked",
    [](int n) -> std::unique_ptr<Shape> { return std::make_unique<Polygon>(n); }};

TEST(Registry, MakesByNameWithTheFactorysArguments) {
  const ShapeRegistry shapes("shape.kind", "shape", {kTriangle, kNgon});
  EXPECT_EQ(shapes.make("triangle", 9)->corners(), 3);
  EXPECT_EQ(shapes.make("ngon", 9)->corners(), 9);
  EXPECT_EQ(shapes.names(), (std::vector<std::string>{"triangle", "ngon"}));
  EXPECT_EQ(shapes.describe(), "triangle (three corners), ngon (as many corners as asked)");
  EXPECT_EQ(shapes.find("ngon"), &shapes.entries()[1]);
  EXPECT_EQ(shapes.find("circle"), nullptr);
}

TEST(Registry, AnUnknownNameIsAConfigErrorNamingTheKeyAndTheKnownNames) {
  const ShapeRegistry shapes("shape.kind", "shape", {kTriangle, kNgon});
  try {
    shapes.make("circle", 0);
    FAIL() << "made a circle";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "shape.kind = 'circle': unknown shape (known: triangle, ngon)");
  }
}

TEST(Registry, ANameRegisteredTwiceIsRefused) {
  EXPECT_THROW(ShapeRegistry("shape.kind", "shape", {kTriangle, kNgon, kTriangle}),
               std::logic_error);
}

}  // namespace
}  // namespace gpusoc
