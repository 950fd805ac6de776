// What a memtrace run found, as JSON (--stats-out) and as a readable summary: achieved bandwidth
// against the DRAM peak, latency (average, p50, p99, histogram), row-buffer hit rate, read/write
// turnarounds and the DRAM cycles run, then under "stats" the values of the memory system's
// statistics tree (the crossbar's, each partition's, channel's, L2 slice's and ROP's counts,
// as `run --stats-out` gives them with units and descriptions). The top level always carries
// bandwidth_gbps, peak_bandwidth_gbps, row_hit_rate, latency_ns {avg, p50, p99} and requests.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "models/common/stat_group.h"
#include "models/memsys/memory_hierarchy.h"
#include "models/memsys/trace_driver.h"

namespace gpusoc::memsys {

/// `stats`: the group `hierarchy` put its statistics in (the report's "stats": its values).
/// `offered_gbps`: the pattern's offered load (--rate), reported as offered_gbps; 0: none.
nlohmann::ordered_json trace_report(const HierarchyConfig& config,
                                    const PacketNetwork& hierarchy, const StatGroup& stats,
                                    const TraceRunResult& result, double offered_gbps = 0);
/// The report as a few aligned lines for a terminal.
std::string trace_summary(const nlohmann::ordered_json& report);

}  // namespace gpusoc::memsys
