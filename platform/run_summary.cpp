#include "platform/run_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "models/common/progress.h"

namespace gpusoc::platform {
namespace {

using Json = nlohmann::ordered_json;

double number(const Json& group, const char* key) {
  const auto it = group.find(key);
  return it != group.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string percent(double part, double whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100 * part / whole) : "-";
}

// One kernel's (or all kernels') counts from gpu.kernels.NAME.
struct KernelCounts {
  double instructions = 0, cycles = 0, slots = 0, resident_warp_cycles = 0, capacity = 0;
  double l1_hits = 0, l1_lookups = 0;
  std::vector<std::pair<std::string, double>> stalls;  // "memory", slots

  void add(const Json& k) {
    instructions += number(k, "warp_instructions");
    cycles += number(k, "cycles");
    slots += number(k, "issue_slots");
    const double resident = number(k, "resident_warp_cycles");
    resident_warp_cycles += resident;
    // Warp slots x cycles, from the kernel's own achieved occupancy (resident / capacity).
    const double occupancy = number(k, "achieved_occupancy");
    if (occupancy > 0) capacity += resident / occupancy;
    l1_hits += number(k, "l1_hits");
    l1_lookups += number(k, "l1_hits") + number(k, "l1_misses") + number(k, "l1_merges");
    for (const auto& [key, value] : k.items()) {
      if (key.rfind("stall_", 0) != 0 || !value.is_number()) continue;
      const std::string reason = key.substr(6);
      auto it = std::find_if(stalls.begin(), stalls.end(),
                             [&](const auto& s) { return s.first == reason; });
      if (it == stalls.end()) {
        stalls.emplace_back(reason, value.get<double>());
      } else {
        it->second += value.get<double>();
      }
    }
  }

  // "memory 62%, dependency 20%, pipeline 11%": the three largest shares of the slots that
  // issued nothing.
  std::string top_stalls() const {
    std::vector<std::pair<std::string, double>> sorted = stalls;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    double idle = 0;
    for (const auto& s : sorted) idle += s.second;
    std::string text;
    for (size_t i = 0; i < sorted.size() && i < 3 && sorted[i].second > 0; ++i) {
      text += fmt::format("{}{} {:.0f}%", text.empty() ? "" : ", ", sorted[i].first,
                          100 * sorted[i].second / idle);
    }
    return text.empty() ? "none" : text;
  }

  // Occupancy here counts the cycles an SM had a CTA of the kernel (the launch's own figure
  // counts every SM for the launch's whole time).
  std::string line(bool brief) const {
    std::string text = fmt::format(
        brief ? "IPC {:.3f}, occupancy {}, issued {}"
              : "IPC {:.3f} per SM, occupancy {} of the busy SMs' warp slots, issue slots used {}",
        cycles > 0 ? instructions / cycles : 0.0, percent(resident_warp_cycles, capacity),
        percent(instructions, slots));
    if (l1_lookups > 0) text += fmt::format(", L1 hits {}", percent(l1_hits, l1_lookups));
    return text;
  }
};

// Sums `field` over gpu.tex0, gpu.tex1, ...
double over_texture_units(const Json& gpu, const char* field) {
  double sum = 0;
  for (const auto& [key, value] : gpu.items())
    if (key.rfind("tex", 0) == 0 && value.is_object()) sum += number(value, field);
  return sum;
}

// What a launch's record has of the cycle-level SMs, the L2 and the texture caches
// (gigathread::LaunchCounters), on a line of its own; nothing for loosely timed SMs.
std::string launch_cycle_line(const Json& g) {
  const double cycles = number(g, "cycles");
  if (cycles <= 0) return "";
  KernelCounts k;
  k.add(g);  // its stall reasons
  std::string text =
      fmt::format("           IPC {:.3f}, issued {}", number(g, "warp_instructions") / cycles,
                  percent(number(g, "warp_instructions"), number(g, "issue_slots")));
  if (number(g, "l1_lookups") > 0)
    text += ", L1 hits " + percent(number(g, "l1_hits"), number(g, "l1_lookups"));
  if (number(g, "l2_reads") > 0)
    text += ", L2 read hits " + percent(number(g, "l2_read_hits"), number(g, "l2_reads"));
  if (number(g, "texture_lookups") > 0)
    text += ", texture hits " + percent(number(g, "texture_hits"), number(g, "texture_lookups"));
  return text + "; stalls " + k.top_stalls() + "\n";
}

// A few launches one by one (the statistics file keeps each of them).
std::string launch_lines(const Json& gpu) {
  constexpr size_t kShown = 8;
  if (!gpu.contains("cta_dispatcher") || !gpu["cta_dispatcher"].contains("launches")) return "";
  std::vector<const Json*> grids;
  for (const auto& [name, g] : gpu["cta_dispatcher"]["launches"].items())
    if (name.rfind("grid", 0) == 0 && g.is_object()) grids.push_back(&g);
  if (grids.size() > kShown) {
    return fmt::format(
        "  launches {} recorded one by one in the statistics file "
        "(gpu.cta_dispatcher.launches)\n",
        grids.size());
  }
  std::string out;
  for (const Json* g : grids) {
    const Json& kernel = (*g)["kernel"];
    const std::string status = (*g)["status"].is_string() ? (*g)["status"].get<std::string>() : "";
    out +=
        fmt::format("  launch   grid {} {} on channel {}: {} to {} ({}), {} CTAs, occupancy {}{}\n",
                    number(*g, "grid_id"), kernel.is_string() ? kernel.get<std::string>() : "",
                    number(*g, "channel"), readable_seconds(number(*g, "start_ns") * 1e-9),
                    readable_seconds(number(*g, "end_ns") * 1e-9),
                    readable_seconds((number(*g, "end_ns") - number(*g, "start_ns")) * 1e-9),
                    number(*g, "ctas"), percent(number(*g, "achieved_occupancy"), 1),
                    status.empty() || status == "None" ? "" : ", " + status);
    out += launch_cycle_line(*g);
  }
  return out;
}

}  // namespace

std::string run_summary(const Json& values, const RunTimes& times) {
  std::string out;
  const Json empty = Json::object();
  const Json& gpu = values.contains("gpu") ? values["gpu"] : empty;
  const Json& memory = gpu.contains("memory_system") ? gpu["memory_system"] : empty;
  // Cycle-level SMs: per kernel and in all.
  if (gpu.contains("kernels") && !gpu["kernels"].empty()) {
    KernelCounts all;
    std::vector<std::pair<std::string, KernelCounts>> kernels;
    for (const auto& [name, k] : gpu["kernels"].items()) {
      KernelCounts one;
      one.add(k);
      all.add(k);
      kernels.emplace_back(name, std::move(one));
    }
    out += "  cycle    " + all.line(false) + "\n";
    out += "           stalls (of the slots that issued nothing): " + all.top_stalls() + "\n";
    const double tex_lookups = over_texture_units(gpu, "cache_lookups");
    std::string rates;
    if (memory.contains("l2_read_hit_rate") && memory["l2_read_hit_rate"].is_number())
      rates += fmt::format("L2 reads {:.1f}%", 100 * number(memory, "l2_read_hit_rate"));
    if (tex_lookups > 0) {
      rates += fmt::format("{}texture cache {}", rates.empty() ? "" : ", ",
                           percent(over_texture_units(gpu, "cache_hits"), tex_lookups));
    }
    if (!rates.empty()) out += "           hit rates: " + rates + "\n";
    if (kernels.size() > 1) {
      size_t width = 0;
      for (const auto& k : kernels) width = std::max(width, k.first.size());
      for (const auto& [name, k] : kernels) {
        out += fmt::format("           {:<{}}  {}; stalls {}\n", name, width, k.line(true),
                           k.top_stalls());
      }
    }
  }
  out += launch_lines(gpu);
  // DRAM behind the L2 (a model with timing: not the functional memory of loosely timed runs).
  if (number(memory, "dram_bytes") > 0) {
    const double bytes = number(memory, "dram_bytes");
    std::string line = fmt::format("  dram     {:.2f} MB read and written", bytes / 1e6);
    if (times.kernel_ns > 0) {
      const double gbps = bytes / times.kernel_ns;
      line += fmt::format(" in the kernels' {}: {:.1f} GB/s",
                          readable_seconds(times.kernel_ns * 1e-9), gbps);
      if (times.peak_dram_gbps > 0)
        line += fmt::format(" ({} of the peak)", percent(gbps, times.peak_dram_gbps));
    }
    if (memory.contains("dram_row_hit_rate") && memory["dram_row_hit_rate"].is_number())
      line += fmt::format(", row hits {:.1f}%", 100 * number(memory, "dram_row_hit_rate"));
    out += line + "\n";
  }
  if (gpu.contains("pcie")) {
    const Json& pcie = gpu["pcie"];
    const double down = number(pcie, "downstream_bytes"), up = number(pcie, "upstream_bytes");
    const double down_ns = number(pcie, "downstream_busy_ns"),
                 up_ns = number(pcie, "upstream_busy_ns");
    out += fmt::format(
        "  pcie     {:.2f} MB to the GPU at {:.2f} GB/s, {:.2f} MB from it at {:.2f} GB/s "
        "(TLP payload over the time each direction was busy)\n",
        down / 1e6, down_ns > 0 ? down / down_ns : 0.0, up / 1e6, up_ns > 0 ? up / up_ns : 0.0);
  }
  return out;
}

}  // namespace gpusoc::platform
