// The end-of-run summary of `run` and `launch` on the SoC, read from the statistics tree: for
// cycle-level SMs, IPC, achieved occupancy, the top stall reasons and the L1 hit rate per kernel
// and in all, with the L2 and texture-cache hit rates; DRAM traffic, bandwidth over the kernels'
// simulated time and row-hit rate; the PCIe link's payload both ways. What a configuration does
// not have (a cache, a DRAM model behind the L2) is left out rather than shown as zero.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace gpusoc::platform {

struct RunTimes {
  double kernel_ns = 0;       // the launches' simulated time
  double peak_dram_gbps = 0;  // the configuration's DRAM peak (0: not shown)
};

/// Lines of the summary, each starting with two spaces; `values` is stats_values_json(root).
std::string run_summary(const nlohmann::ordered_json& values, const RunTimes& times);

}  // namespace gpusoc::platform
