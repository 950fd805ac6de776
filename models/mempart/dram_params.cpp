#include "models/mempart/dram_params.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/mempart/dram_standard.h"

namespace gpusoc::mempart {
namespace {

namespace fs = std::filesystem;

const Param<std::string> kMemoryType{
    "memory.type", "GDDR3", "",
    "DRAM standard: a built-in one (GDDR3, GDDR5, GDDR6, HBM2, HBM2-2430, DDR4: "
    "configs/dram/*.json) or the path of a standard file of one's own (docs/memory.md); it sets "
    "the DRAM clock, data rate, organization and timing"};
const Param<double> kClock{"memory.dram.clock_mhz", 0.0, "MHz",
                           "DRAM command clock in place of the standard's (0: the standard's); "
                           "timings the standard gives in ns follow it",
                           Range{0, 100000}};

// One override per field of the standard, -1 meaning the standard's value.
std::vector<std::unique_ptr<Param<int64_t>>> overrides(const std::vector<std::string>& fields,
                                                       const char* unit, const char* what) {
  std::vector<std::unique_ptr<Param<int64_t>>> params;
  for (const std::string& f : fields) {
    params.push_back(std::make_unique<Param<int64_t>>(
        "memory.dram." + f, -1, unit,
        fmt::format("{} {} in place of the standard's (-1: the standard's)", what, f),
        Range{-1, int64_t(UINT32_MAX)}));
  }
  return params;
}
const auto kOrganization = overrides(dram_organization_fields(), "", "organization:");
const auto kTiming = overrides(dram_timing_fields(), "tCK", "timing:");

}  // namespace

DramTiming dram_timing_from(const Config& config) {
  std::string type = kMemoryType.get(config);
  // A file named in a configuration file is looked for beside it first, as its includes are.
  const std::string set_in = config.origin(kMemoryType.name());
  const fs::path beside = fs::path(set_in).parent_path() / type;
  std::error_code ec;
  if (fs::path(type).is_relative() && fs::is_regular_file(set_in, ec) &&
      fs::is_regular_file(beside, ec))
    type = beside.string();
  const std::string origin =
      fmt::format("'{}' (memory.type, from {})", type, config.origin(kMemoryType.name()));
  nlohmann::json doc;
  try {
    doc = dram_standard_document(type);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", config.origin(kMemoryType.name()), e.what()));
  }
  if (const double mhz = kClock.get(config); mhz > 0)
    doc["clock_mhz"] = {{"value", mhz}, {"source", config.origin(kClock.name())}};
  for (const auto& [group, params, key] :
       {std::tuple{"organization", &kOrganization, "value"}, {"timing", &kTiming, "tck"}}) {
    if (doc.contains(group) && !doc[group].is_object())
      throw ConfigError(fmt::format("DRAM standard {}: {} must be an object", origin, group));
    for (const auto& p : *params) {
      const int64_t v = p->get(config);
      if (v < 0) continue;
      const std::string field = p->name().substr(std::string("memory.dram.").size());
      doc[group][field] = {{key, v}, {"source", config.origin(p->name())}};
    }
  }
  return dram_timing_of(doc, origin);
}

}  // namespace gpusoc::mempart
