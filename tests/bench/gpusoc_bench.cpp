// scripts/bench [--repeat N] [NAME...]: runs the named benchmarks (all when none are named),
// each N times, and prints the median of every figure as one JSON object per line.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>

#include "tests/bench/bench.h"

namespace gpusoc::bench {

std::vector<Benchmark>& registry() {
  static std::vector<Benchmark> r;
  return r;
}

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int usage(const std::string& why) {
  std::cerr << "gpusoc_bench: " << why
            << "\nusage: scripts/bench [--repeat N] [--list] [NAME...]\n";
  return 2;
}

}  // namespace
}  // namespace gpusoc::bench

int main(int argc, char** argv) {
  using namespace gpusoc::bench;
  int repeat = 3;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
      if (repeat < 1) return usage("--repeat needs a positive count");
    } else if (a == "--list") {
      for (const Benchmark& b : registry()) std::cout << b.name << "\t" << b.description << "\n";
      return 0;
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option " + a);
    } else {
      names.push_back(a);
    }
  }
  for (const std::string& n : names) {
    const auto& r = registry();
    if (std::none_of(r.begin(), r.end(), [&](const Benchmark& b) { return b.name == n; }))
      return usage("no benchmark named '" + n + "' (see --list)");
  }
  for (const Benchmark& b : registry()) {
    if (!names.empty() && std::find(names.begin(), names.end(), b.name) == names.end()) continue;
    std::map<std::string, std::vector<double>> samples;
    for (int i = 0; i < repeat; ++i) {
      for (const auto& [key, value] : b.run()) samples[key].push_back(value);
    }
    std::string line = fmt::format("{{\"bench\":\"{}\",\"repeat\":{}", b.name, repeat);
    for (const auto& [key, values] : samples)
      line += fmt::format(",\"{}\":{:.6g}", key, median(values));
    std::cout << line << "}" << std::endl;
  }
  return 0;
}
