// Dumping the statistics tree: JSON (nested by group), CSV (one row per number) and
// a readable summary table. Every format lists a group's stats in declaration
// order, then its child groups in declaration order, so output is deterministic.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
// unknown or the file cannot be written. `provenance` (what produced the numbers: version,
// command line, configuration; null for none) goes first in JSON as "provenance", as
// "provenance.KEY" rows without unit or description in CSV, and as a second table in text.
void write_stats_file(const StatGroup& root, const std::filesystem::path& file,
                      const nlohmann::ordered_json& provenance = nullptr);

// A CSV field: as it is, or in double quotes (doubled inside) where it holds a comma, a quote
// or a line break.
std::string csv_quoted(const std::string& text);

// "a.b.c" and its value as text, for every leaf of `j` (array elements by index: "a.0").
std::vector<std::pair<std::string, std::string>> flattened(const nlohmann::ordered_json& j,
                                                           const std::string& prefix = "");

}  // namespace gpusoc
