// The benchmark registry behind scripts/bench: each benchmark runs once and returns its figures;
// the driver repeats it and prints the medians as one JSON line.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gpusoc::bench {

/// Figures of one run, by key (e.g. "warp_instructions_per_s", "wall_s").
using Figures = std::map<std::string, double>;

struct Benchmark {
  std::string name;
  std::string description;
  std::function<Figures()> run;
};

std::vector<Benchmark>& registry();

struct Registration {
  explicit Registration(Benchmark b) { registry().push_back(std::move(b)); }
};

}  // namespace gpusoc::bench
