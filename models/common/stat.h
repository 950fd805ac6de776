// Statistics: the base class and the simple kinds. Every stat belongs to a StatGroup
// (stat_group.h), has a name, a unit and a one-line description, and is dumped in
// declaration order. Histograms are in histogram.h.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusoc {

class StatGroup;

class Stat {
 public:
  Stat(StatGroup& group, std::string name, std::string unit, std::string description);
  virtual ~Stat();

  Stat(const Stat&) = delete;
  Stat& operator=(const Stat&) = delete;

  const std::string& name() const { return name_; }
  const std::string& unit() const { return unit_; }
  const std::string& description() const { return description_; }
  std::string path() const;  // "gpu.sm3.l1d.misses"

  // The value as JSON: a number, null when undefined (0/0), or an object.
  virtual nlohmann::ordered_json to_json() const = 0;

  // Flat (suffix, value) pairs for CSV rows: one pair with an empty suffix for a
  // single number; several ("count", "mean", ...) for compound stats.
  virtual std::vector<std::pair<std::string, nlohmann::ordered_json>> fields() const;

  // The value in one cell of the readable summary table.
  virtual std::string summary() const;

 private:
  friend class StatGroup;
  StatGroup* group_;  // null once the group is gone
  std::string name_;
  std::string unit_;
  std::string description_;
};

// An event count.
class Counter final : public Stat {
 public:
  using Stat::Stat;
  Counter& operator++() {
    ++count_;
    return *this;
  }
  Counter& operator+=(std::uint64_t n) {
    count_ += n;
    return *this;
  }
  std::uint64_t value() const { return count_; }
  nlohmann::ordered_json to_json() const override { return count_; }

 private:
  std::uint64_t count_ = 0;
};

// A quantity the model sets, such as the simulated time at the end of a run.
class Scalar final : public Stat {
 public:
  using Stat::Stat;
  void set(double value) { value_ = value; }
  double value() const { return value_; }
  nlohmann::ordered_json to_json() const override;

 private:
  double value_ = 0;
};

// A word or name that describes what the numbers beside it count (a launch's kernel, how it
// ended): a string in JSON, a field in CSV, the text itself in the summary.
class Text final : public Stat {
 public:
  using Stat::Stat;
  void set(std::string value) { value_ = std::move(value); }
  const std::string& value() const { return value_; }
  nlohmann::ordered_json to_json() const override { return value_; }
  std::string summary() const override { return value_; }

 private:
  std::string value_;
};

// A value derived from other stats when the stats are dumped (rates, ratios); it
// costs nothing while simulating. A non-finite result (0/0) dumps as null.
class Formula final : public Stat {
 public:
  Formula(StatGroup& group, std::string name, std::string unit, std::string description,
          std::function<double()> compute);
  double value() const { return compute_(); }
  nlohmann::ordered_json to_json() const override;

 private:
  std::function<double()> compute_;
};

// A count derived from other counts when the stats are dumped: a sum over blocks. Dumps as an
// integer, where a Formula gives a real number.
class Total final : public Stat {
 public:
  Total(StatGroup& group, std::string name, std::string unit, std::string description,
        std::function<std::uint64_t()> compute);
  std::uint64_t value() const { return compute_(); }
  nlohmann::ordered_json to_json() const override { return compute_(); }

 private:
  std::function<std::uint64_t()> compute_;
};

}  // namespace gpusoc
