#include "models/common/stats_report.h"

#include <fstream>
#include <functional>
#include <vector>

#include "models/common/error.h"
#include "models/common/stat.h"
#include "models/common/text_table.h"

namespace gpusoc {
namespace {

nlohmann::ordered_json group_to_json(const StatGroup& group, bool values_only) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const Stat* stat : group.stats()) {
    out[stat->name()] = values_only ? stat->to_json()
                                    : nlohmann::ordered_json{{"value", stat->to_json()},
                                                             {"unit", stat->unit()},
                                                             {"description", stat->description()}};
  }
  for (const StatGroup* child : group.children())
    out[child->name()] = group_to_json(*child, values_only);
  return out;
}

// Depth first, stats before child groups: the order shared by every format.
void for_each_stat(const StatGroup& group, const std::function<void(const Stat&)>& visit) {
  for (const Stat* stat : group.stats()) visit(*stat);
  for (const StatGroup* child : group.children()) for_each_stat(*child, visit);
}

// Every group's refresh hook, before any stat is read: a total above may sum lazy counts below.
void refresh_tree(const StatGroup& group) {
  group.refresh();
  for (const StatGroup* child : group.children()) refresh_tree(*child);
}

}  // namespace

nlohmann::ordered_json stats_to_json(const StatGroup& root) {
  refresh_tree(root);
  return group_to_json(root, false);
}

nlohmann::ordered_json stats_values_json(const StatGroup& root) {
  refresh_tree(root);
  return group_to_json(root, true);
}

std::string stats_to_csv(const StatGroup& root) {
  refresh_tree(root);
  std::string out = "name,value,unit,description\n";
  for_each_stat(root, [&out](const Stat& stat) {
    for (const auto& [suffix, value] : stat.fields()) {
      const std::string name = suffix.empty() ? stat.path() : stat.path() + "." + suffix;
      const std::string cell = value.is_null()     ? ""
                               : value.is_string() ? csv_quoted(value.get<std::string>())
                                                   : value.dump();
      out += csv_quoted(name) + "," + cell + "," + csv_quoted(stat.unit()) + "," +
             csv_quoted(stat.description()) + "\n";
    }
  });
  return out;
}

std::string stats_summary(const StatGroup& root) {
  refresh_tree(root);
  std::vector<std::vector<std::string>> rows{{"STATISTIC", "VALUE", "UNIT", "DESCRIPTION"}};
  for_each_stat(root, [&rows](const Stat& stat) {
    rows.push_back({stat.path(), stat.summary(), stat.unit(), stat.description()});
  });
  return aligned_table(rows);
}

std::optional<StatsFormat> stats_format_of(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  if (extension == ".json") return StatsFormat::kJson;
  if (extension == ".csv") return StatsFormat::kCsv;
  if (extension == ".txt") return StatsFormat::kText;
  return std::nullopt;
}

std::string csv_quoted(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::pair<std::string, std::string>> flattened(const nlohmann::ordered_json& j,
                                                           const std::string& prefix) {
  std::vector<std::pair<std::string, std::string>> rows;
  if (j.is_object() || j.is_array()) {
    size_t index = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++index) {
      const std::string key = j.is_object() ? it.key() : std::to_string(index);
      auto below = flattened(*it, prefix.empty() ? key : prefix + "." + key);
      rows.insert(rows.end(), below.begin(), below.end());
    }
  } else {
    rows.emplace_back(prefix, j.is_string() ? j.get<std::string>() : j.dump());
  }
  return rows;
}

void write_stats_file(const StatGroup& root, const std::filesystem::path& file,
                      const nlohmann::ordered_json& provenance) {
  const std::optional<StatsFormat> format = stats_format_of(file);
  if (!format) {
    throw Error("statistics file '" + file.string() + "' must end in .json, .csv or .txt");
  }
  std::ofstream out(file);
  switch (*format) {
    case StatsFormat::kJson: {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      if (!provenance.is_null()) j["provenance"] = provenance;
      j.update(stats_to_json(root));
      out << j.dump(2) << "\n";
      break;
    }
    case StatsFormat::kCsv:
      out << stats_to_csv(root);
      if (!provenance.is_null())
        for (const auto& [name, value] : flattened(provenance, "provenance"))
          out << csv_quoted(name) << "," << csv_quoted(value) << ",,\n";
      break;
    case StatsFormat::kText:
      out << stats_summary(root);
      if (!provenance.is_null()) {
        std::vector<std::vector<std::string>> rows{{"PROVENANCE", "VALUE"}};
        for (auto& [name, value] : flattened(provenance)) rows.push_back({name, value});
        out << "\n" << aligned_table(rows);
      }
      break;
  }
  out.close();
  if (!out) throw Error("cannot write statistics to '" + file.string() + "'");
}

}  // namespace gpusoc
