#include "models/common/counter_vector.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace gpusoc {
namespace {

std::vector<std::string> index_labels(std::size_t size) {
  std::vector<std::string> labels;
  labels.reserve(size);
  for (std::size_t i = 0; i < size; ++i) labels.push_back(std::to_string(i));
  return labels;
}

}  // namespace

CounterVector::CounterVector(StatGroup& group, std::string name, std::string unit,
                             std::string description, std::vector<std::string> labels)
    : Stat(group, std::move(name), std::move(unit), std::move(description)),
      labels_(std::move(labels)),
      counts_(labels_.size(), 0) {
  for (size_t i = 0; i < labels_.size(); ++i) {
    const std::string& label = labels_[i];
    if (std::find(labels_.begin(), labels_.begin() + i, label) != labels_.begin() + i)
      throw std::invalid_argument("statistic '" + path() + "': element label '" + label +
                                  "' appears twice");
    // "total" would collide with the sum in every dump.
    if (label.empty() || label == "total" ||
        label.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
            std::string::npos) {
      throw std::invalid_argument("statistic '" + path() + "': element label '" + label +
                                  "' must be letters, digits and '_', and not 'total'");
    }
  }
}

CounterVector::CounterVector(StatGroup& group, std::string name, std::string unit,
                             std::string description, std::size_t size)
    : CounterVector(group, std::move(name), std::move(unit), std::move(description),
                    index_labels(size)) {}

std::uint64_t CounterVector::total() const {
  return std::accumulate(counts_.begin(), counts_.end(), std::uint64_t(0));
}

nlohmann::ordered_json CounterVector::to_json() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [label, value] : fields()) out[label] = value;
  return out;
}

std::vector<std::pair<std::string, nlohmann::ordered_json>> CounterVector::fields() const {
  std::vector<std::pair<std::string, nlohmann::ordered_json>> out;
  out.reserve(counts_.size() + 1);
  out.emplace_back("total", total());
  for (std::size_t i = 0; i < counts_.size(); ++i) out.emplace_back(labels_[i], counts_[i]);
  return out;
}

std::string CounterVector::summary() const {
  return "total=" + std::to_string(total()) + " (" + std::to_string(counts_.size()) + " elements)";
}

}  // namespace gpusoc
