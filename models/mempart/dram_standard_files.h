// The built-in DRAM standards' files (configs/dram/*.json), as the build embeds them.
#pragma once

#include <vector>

namespace gpusoc::mempart {

struct DramStandardFile {
  const char* file;  // "hbm2.json"
  const char* text;  // its JSON
};

/// In file-name order.
const std::vector<DramStandardFile>& dram_standard_files();

}  // namespace gpusoc::mempart
