// "Did you mean ...?" suggestions for misspelt parameter names, commands and options.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpusoc {

// Levenshtein distance: insertions, deletions and substitutions each cost 1.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` by edit distance; the first of equals wins, so pass
// candidates in a stable order. Empty when there are no candidates.
std::string closest_spelling(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gpusoc
