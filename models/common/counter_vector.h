// One count per element of a fixed set: per bank, per port, per atomic operation (gem5's Vector).
// Counting is a plain integer add on an element; dumps give the total and each element by label.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/common/stat.h"

namespace gpusoc {

class CounterVector final : public Stat {
 public:
  // Elements named by `labels` (letters, digits and '_'; none "total").
  CounterVector(StatGroup& group, std::string name, std::string unit, std::string description,
                std::vector<std::string> labels);
  // `size` elements labelled "0" to "size-1".
  CounterVector(StatGroup& group, std::string name, std::string unit, std::string description,
                std::size_t size);

  std::uint64_t& operator[](std::size_t i) { return counts_[i]; }
  std::uint64_t operator[](std::size_t i) const { return counts_[i]; }
  std::size_t size() const { return counts_.size(); }
  std::uint64_t total() const;
  const std::vector<std::string>& labels() const { return labels_; }

  // {"total": n, "<label>": n, ...}
  nlohmann::ordered_json to_json() const override;
  // ("total", n), then (label, n) per element.
  std::vector<std::pair<std::string, nlohmann::ordered_json>> fields() const override;
  std::string summary() const override;  // "total=12 (4 elements)"

 private:
  std::vector<std::string> labels_;
  std::vector<std::uint64_t> counts_;
};

}  // namespace gpusoc
