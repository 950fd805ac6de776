#include "models/common/histogram.h"

#include <stdexcept>

#include <fmt/format.h>

namespace gpusoc {

Histogram::Histogram(StatGroup& group, std::string name, std::string unit, std::string description,
                     std::int64_t low, std::int64_t bucket_width, std::size_t buckets)
    : Stat(group, std::move(name), std::move(unit), std::move(description)),
      low_(low),
      width_(bucket_width),
      buckets_(buckets, 0) {
  if (bucket_width <= 0 || buckets == 0) {
    throw std::invalid_argument("histogram '" + path() +
                                "' needs a positive bucket width and count");
  }
}

double Histogram::mean() const {
  return count_ == 0 ? std::numeric_limits<double>::quiet_NaN()
                     : sum_ / static_cast<double>(count_);
}

nlohmann::ordered_json Histogram::to_json() const {
  nlohmann::ordered_json out;
  const bool empty = count_ == 0;
  out["count"] = count_;
  out["min"] = empty ? nlohmann::ordered_json() : nlohmann::ordered_json(min_);
  out["max"] = empty ? nlohmann::ordered_json() : nlohmann::ordered_json(max_);
  out["mean"] = empty ? nlohmann::ordered_json() : nlohmann::ordered_json(mean());
  out["underflow"] = underflow_;
  out["overflow"] = overflow_;
  out["low"] = low_;
  out["bucket_width"] = width_;
  out["buckets"] = buckets_;
  return out;
}

std::vector<std::pair<std::string, nlohmann::ordered_json>> Histogram::fields() const {
  const nlohmann::ordered_json all = to_json();
  std::vector<std::pair<std::string, nlohmann::ordered_json>> out;
  for (const char* key : {"count", "min", "max", "mean", "underflow", "overflow"}) {
    out.emplace_back(key, all[key]);
  }
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    const std::int64_t from = low_ + static_cast<std::int64_t>(i) * width_;
    out.emplace_back(fmt::format("bucket[{}:{})", from, from + width_), buckets_[i]);
  }
  return out;
}

std::string Histogram::summary() const {
  if (count_ == 0) return "count=0";
  return fmt::format("count={} mean={} min={} max={}", count_,
                     nlohmann::ordered_json(mean()).dump(), min_, max_);
}

}  // namespace gpusoc
