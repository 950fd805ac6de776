// A distribution with fixed, equal-width buckets: latencies, queue occupancies.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/common/stat.h"

namespace gpusoc {

class Histogram final : public Stat {
 public:
  // `buckets` buckets of `bucket_width` starting at `low`: bucket i counts samples in
  // [low + i*width, low + (i+1)*width). Samples below or above are counted apart.
  Histogram(StatGroup& group, std::string name, std::string unit, std::string description,
            std::int64_t low, std::int64_t bucket_width, std::size_t buckets);

  void sample(std::int64_t value, std::uint64_t times = 1) {
    if (times == 0) return;
    count_ += times;
    sum_ += static_cast<double>(value) * static_cast<double>(times);
    if (value < min_) min_ = value;
    if (value > max_) max_ = value;
    if (value < low_) {
      underflow_ += times;
      return;
    }
    const auto index =
        static_cast<std::uint64_t>(value - low_) / static_cast<std::uint64_t>(width_);
    if (index >= buckets_.size()) {
      overflow_ += times;
    } else {
      buckets_[index] += times;
    }
  }

  std::uint64_t count() const { return count_; }
  std::int64_t min() const { return min_; }  // meaningful once count() > 0
  std::int64_t max() const { return max_; }
  double mean() const;  // NaN when empty
  std::uint64_t underflow() const { return underflow_; }
  std::uint64_t overflow() const { return overflow_; }
  const std::vector<std::uint64_t>& buckets() const { return buckets_; }

  // {"count", "min", "max", "mean", "underflow", "overflow", "low", "bucket_width",
  //  "buckets": [...]}; min, max and mean are null when empty.
  nlohmann::ordered_json to_json() const override;
  // count, min, max, mean, underflow, overflow, then "bucket[lo:hi)" per bucket.
  std::vector<std::pair<std::string, nlohmann::ordered_json>> fields() const override;
  std::string summary() const override;  // "count=3 mean=4.5 min=1 max=9"

 private:
  std::int64_t low_;
  std::int64_t width_;
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  double sum_ = 0;
  std::int64_t min_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_ = std::numeric_limits<std::int64_t>::min();
  std::uint64_t underflow_ = 0;
  std::uint64_t overflow_ = 0;
};

}  // namespace gpusoc
