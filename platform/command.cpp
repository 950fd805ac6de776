#include "platform/command.h"

#include <fstream>
#include <stdexcept>

#include "models/common/error.h"
#include "models/common/stats_report.h"

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
  if (common.stats_out) write_stats_file(stats, *common.stats_out);
  stats_written_ = true;
}

namespace {

// "a.b,1" rows for every number or string in the report; arrays index like fields ("a.0.b").
void flatten(const nlohmann::ordered_json& j, const std::string& name, std::ostream& out) {
  if (j.is_object() || j.is_array()) {
    size_t index = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++index) {
      const std::string key = j.is_object() ? it.key() : std::to_string(index);
      flatten(*it, name.empty() ? key : name + "." + key, out);
    }
    return;
  }
  out << name << "," << (j.is_string() ? j.get<std::string>() : j.dump()) << "\n";
}

}  // namespace

void CommandContext::write_report(const nlohmann::ordered_json& report,
                                  const std::string& summary) const {
  stats_written_ = true;
  if (!common.stats_out) return;
  const std::string& file = *common.stats_out;
  std::ofstream out(file);
  switch (stats_format_of(file).value_or(StatsFormat::kJson)) {
    case StatsFormat::kJson:
      out << report.dump(2) << "\n";
      break;
    case StatsFormat::kCsv:
      out << "name,value\n";
      flatten(report, "", out);
      break;
    case StatsFormat::kText:
      out << summary;
      break;
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
