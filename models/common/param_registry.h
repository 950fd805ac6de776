// The process-wide list of parameter declarations. Param<T> objects (param.h),
// defined at namespace scope in the .cpp of the module that reads them, add
// themselves here during static initialization; the configuration is validated
// against this list and `gpusoc config doc` prints it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "models/common/param_spec.h"

namespace gpusoc {

class ParamRegistry {
 public:
  // The registry every Param declared without an explicit registry joins.
  static ParamRegistry& instance();

  // Adds a declaration. A malformed declaration is a programming error and throws
  // std::logic_error: a bad name, a name declared twice, a name that is also the
  // group of another ("a.b" next to "a.b.c"), or a default that breaks the constraint.
  void add(ParamSpec spec);

  const ParamSpec* find(std::string_view name) const;

  // Every declaration, sorted by name.
  std::vector<const ParamSpec*> all() const;

  // The declared name nearest to `name` by edit distance (for "did you mean").
  std::string nearest(std::string_view name) const;

 private:
  std::map<std::string, ParamSpec, std::less<>> specs_;
};

}  // namespace gpusoc
