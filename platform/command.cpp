#include "platform/command.h"

#include <fstream>
#include <stdexcept>

#include "models/common/error.h"
#include "models/common/stats_report.h"
#include "models/common/text_table.h"
#include "platform/version.h"

namespace gpusoc::platform {

std::optional<std::string> OptionValues::get(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> OptionValues::all(std::string_view name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

void CommandContext::write_stats() const {
  if (common.stats_out) write_stats_file(stats, *common.stats_out, provenance());
  stats_written_ = true;
}

nlohmann::ordered_json CommandContext::provenance() const {
  return {{"gpusoc", gpusoc_version()},
          {"commit", gpusoc_commit()},
          {"command_line", command_line},
          {"configuration", config.to_json()}};
}

void CommandContext::write_report(const nlohmann::ordered_json& report,
                                  const std::string& summary) const {
  stats_written_ = true;
  if (!common.stats_out) return;
  const std::string& file = *common.stats_out;
  std::ofstream out(file);
  switch (stats_format_of(file).value_or(StatsFormat::kJson)) {
    case StatsFormat::kJson: {
      nlohmann::ordered_json j{{"provenance", provenance()}};
      j.update(report);
      out << j.dump(2) << "\n";
      break;
    }
    case StatsFormat::kCsv:
      out << "name,value\n";
      for (const auto& [name, value] : flattened(report))
        out << csv_quoted(name) << "," << csv_quoted(value) << "\n";
      for (const auto& [name, value] : flattened(provenance(), "provenance"))
        out << csv_quoted(name) << "," << csv_quoted(value) << "\n";
      break;
    case StatsFormat::kText: {
      std::vector<std::vector<std::string>> rows{{"PROVENANCE", "VALUE"}};
      for (auto& [name, value] : flattened(provenance())) rows.push_back({name, value});
      out << summary << "\n" << aligned_table(rows);
      break;
    }
  }
  out.close();
  if (!out) throw Error("cannot write statistics to '" + file + "'");
}

Command::Command(std::string name, std::string summary, Run run)
    : name_(std::move(name)), summary_(std::move(summary)), run_(std::move(run)) {}

Command& Command::option(OptionSpec spec) {
  options_.push_back(std::move(spec));
  return *this;
}

Command& Command::args(std::string usage, std::size_t min, std::size_t max) {
  args_usage_ = std::move(usage);
  min_args_ = min;
  max_args_ = max;
  return *this;
}

CommandRegistry& CommandRegistry::instance() {
  static CommandRegistry registry;
  return registry;
}

void CommandRegistry::add(Command command) {
  if (commands_.count(command.name()) != 0) {
    throw std::logic_error("command '" + command.name() + "' is registered twice");
  }
  std::string name = command.name();
  commands_.emplace(std::move(name), std::move(command));
}

const Command* CommandRegistry::find(std::string_view name) const {
  const auto it = commands_.find(name);
  return it == commands_.end() ? nullptr : &it->second;
}

std::vector<const Command*> CommandRegistry::all() const {
  std::vector<const Command*> out;
  for (const auto& [name, command] : commands_) out.push_back(&command);
  return out;
}

}  // namespace gpusoc::platform
