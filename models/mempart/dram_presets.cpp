// The built-in DRAM standards by the names memory.type spells them. Their numbers, each with its
// source, are in configs/dram/<name in lower case>.json (dram_standard.h).
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/error.h"
#include "models/mempart/dram_standard.h"
#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {

const std::vector<std::string>& dram_preset_names() {
  static const std::vector<std::string> names{"GDDR3", "GDDR5",     "GDDR6",
                                              "HBM2",  "HBM2-2430", "DDR4"};
  return names;
}

const DramTiming& dram_preset(const std::string& type) {
  static const std::map<std::string, DramTiming> presets = [] {
    std::map<std::string, DramTiming> all;
    for (const std::string& name : dram_preset_names())
      all.emplace(name, dram_timing_of(dram_standard_document(name), name));
    return all;
  }();
  const auto it = presets.find(type);
  if (it != presets.end()) return it->second;
  throw ConfigError(fmt::format("unknown DRAM type '{}' (known: {})", type,
                                fmt::join(dram_preset_names(), ", ")));
}

}  // namespace gpusoc::mempart
