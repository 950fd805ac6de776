// Plain-text tables with aligned columns, for `config doc` and the statistics summary.
#pragma once

#include <string>
#include <vector>

namespace gpusoc {

// Each row on one line, columns padded to their widest cell and separated by two
// spaces; the last column is not padded, so lines carry no trailing blanks.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace gpusoc
