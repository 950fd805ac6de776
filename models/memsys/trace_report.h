// What a memtrace run found, as JSON (--stats-out) and as a readable summary: achieved bandwidth
// against the DRAM peak, latency (average, p50, p99, histogram), row-buffer hit rate, read/write
// turnarounds, per-partition and per-channel utilization, and the L2, crossbar and ROP counts.
// The top level always carries bandwidth_gbps, peak_bandwidth_gbps, row_hit_rate,
// latency_ns {avg, p50, p99} and requests.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "models/memsys/memory_hierarchy.h"
#include "models/memsys/trace_driver.h"

namespace gpusoc::memsys {

/// `offered_gbps`: the pattern's offered load (--rate), reported as offered_gbps; 0: none.
nlohmann::ordered_json trace_report(const HierarchyConfig& config,
                                    const MemoryHierarchy& hierarchy,
                                    const TraceRunResult& result, double offered_gbps = 0);
/// The report as a few aligned lines for a terminal.
std::string trace_summary(const nlohmann::ordered_json& report);

}  // namespace gpusoc::memsys
