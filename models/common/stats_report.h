// Dumping the statistics tree: JSON (nested by group), CSV (one row per number) and
// a readable summary table. Every format lists a group's stats in declaration
// order, then its child groups in declaration order, so output is deterministic.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "models/common/stat_group.h"

namespace gpusoc {

// {"gpu": {"cycles": {"value": 10, "unit": "cycles", "description": "..."}, "sm0": {...}}}
nlohmann::ordered_json stats_to_json(const StatGroup& root);

// The same tree with values alone: {"gpu": {"cycles": 10, "sm0": {...}}}, for reports that embed
// the statistics (memtrace's) and list units and descriptions elsewhere.
nlohmann::ordered_json stats_values_json(const StatGroup& root);

// "name,value,unit,description" then one row per number, e.g.
// "gpu.sm0.l1d.misses,12,accesses,accesses that missed"; undefined values are empty.
std::string stats_to_csv(const StatGroup& root);

// An aligned table: statistic, value, unit, description.
std::string stats_summary(const StatGroup& root);

enum class StatsFormat { kJson, kCsv, kText };

// By extension: .json, .csv, .txt (the summary); nullopt for anything else.
std::optional<StatsFormat> stats_format_of(const std::filesystem::path& file);

// Writes in the format the extension names; throws Error when the extension is
// unknown or the file cannot be written.
void write_stats_file(const StatGroup& root, const std::filesystem::path& file);

}  // namespace gpusoc
