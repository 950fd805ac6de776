// DRAM standards as data. Each standard is a JSON file: its name and source document, its command
// clock, its organization and its timings, each value with its own source. gpusoc's are in
// configs/dram/ and built into the program; memory.type names one of them, or the path of a file
// of one's own, which may include another standard (a built-in one by file name) and replace
// what it gives field by field. memory.dram.* (dram_params.cpp) then overrides single fields.
//
//   {
//     "name": "HBM2-1754 (...)", "source": "JEDEC JESD235A ...",
//     "include": "hbm2.json",                        (optional: start from that standard)
//     "clock_mhz": {"value": 877, "source": "..."},
//     "organization": {"ranks": {"value": 1, "source": "..."}, ...},
//     "timing": {"tRCD": {"ns": 14, "source": "tRCD 14 ns"}, "tCCD_S": {"tck": 2, ...}, ...}
//   }
//
// A timing gives "tck" (command-clock cycles) or "ns" (converted at the standard's clock: rounded
// up, except tREFI, an upper bound on the average interval, which is rounded down), and
// optionally "min_tck" with "ns" (JEDEC's max(n nCK, t ns)), or "sum" (["tRAS", "tRP"]: the
// sum of those timings' cycles, as tRC is defined). The clock and data rate the GPU's
// memory runs at come from here (clock_mhz, organization.beats_per_clock): nothing repeats them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/mempart/dram_timing.h"

namespace gpusoc::mempart {

/// The standard `type` names (a built-in name, dram_preset_names(), or a path to a standard
/// file) as one JSON document, its includes merged in. ConfigError naming the file otherwise.
nlohmann::json dram_standard_document(const std::string& type);

/// The timing a merged standard document gives. ConfigError naming `origin` and the field for a
/// missing, unknown or malformed field, or an inconsistent result (DramTiming::problem()).
DramTiming dram_timing_of(const nlohmann::json& document, const std::string& origin);

/// The organization and timing fields a standard gives, in file order (for the overrides).
const std::vector<std::string>& dram_organization_fields();
const std::vector<std::string>& dram_timing_fields();

}  // namespace gpusoc::mempart
