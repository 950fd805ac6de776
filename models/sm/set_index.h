// How a cache picks the set of a line: one policy axis of the SM's caches (sm.l1.set_index,
// sm.const_cache.set_index, tex.cache.set_index). Contract: a pure function of the line number
// (the address divided by the line size) and the number of sets, returning a set in [0, sets);
// the same line always maps to the same set. Implementations register themselves by name
// (SetIndexRegistration in their own file's scope) and are found by it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpusoc::sm {

using SetIndexFunction = uint32_t (*)(uint64_t line_number, uint32_t sets);

/// The policy registered as `name`; nullptr when there is none.
SetIndexFunction find_set_index(const std::string& name);
/// Every registered name, sorted.
std::vector<std::string> set_index_names();

struct SetIndexRegistration {
  SetIndexRegistration(const char* name, SetIndexFunction function);
};

}  // namespace gpusoc::sm
