#include "models/memsys/trace_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/stats_report.h"
#include "models/memsys/hierarchy_params.h"

namespace gpusoc::memsys {
namespace {

double ratio(uint64_t part, uint64_t whole) {
  return whole ? double(part) / double(whole) : 0.0;
}

// Twenty equal buckets from 0 to the largest latency: enough to see the shape.
nlohmann::ordered_json latency_histogram(const TraceRunResult& r) {
  size_t last = 0;
  for (size_t c = 0; c < r.latency_counts.size(); ++c)
    if (r.latency_counts[c]) last = c;
  constexpr size_t kBuckets = 20;
  const size_t width = last / kBuckets + 1;
  std::vector<uint64_t> counts(kBuckets, 0);
  for (size_t c = 0; c <= last && c < r.latency_counts.size(); ++c)
    counts[std::min(kBuckets - 1, c / width)] += r.latency_counts[c];
  nlohmann::ordered_json h;
  h["bucket_ns"] = double(width) * r.cycle_ps / 1000.0;
  h["counts"] = counts;
  return h;
}

}  // namespace

nlohmann::ordered_json trace_report(const HierarchyConfig& config, const PacketNetwork& hierarchy,
                                    const StatGroup& stats, const TraceRunResult& r,
                                    double offered_gbps) {
  nlohmann::ordered_json j;
  j["mode"] = hierarchy.through_l2() ? "crossbar" : "partitions";
  j["dram"] = config.dram.name;
  j["dram_source"] = config.dram.source;
  j["requests"] = r.requests;
  j["reads"] = r.reads;
  j["writes"] = r.writes;
  j["bytes"] = r.bytes;
  j["elapsed_ns"] = r.elapsed_ns();
  if (offered_gbps > 0) j["offered_gbps"] = offered_gbps;
  j["bandwidth_gbps"] = r.bandwidth_gbps();
  const double peak = peak_gbytes_per_s(config);
  j["peak_bandwidth_gbps"] = peak;
  j["efficiency"] = peak > 0 ? r.bandwidth_gbps() / peak : 0.0;
  const uint64_t dram_cycles = hierarchy.dram_cycle(r.end_cycle);
  j["dram_cycles"] = dram_cycles;

  // The memory system's totals (memory_totals.h), as --stats-out has them; a rate of nothing is 0.
  const nlohmann::ordered_json values = stats_values_json(stats);
  const auto total = [&](const char* key) {
    const auto it = values.find(key);
    return it != values.end() && it->is_number() ? *it : nlohmann::ordered_json(0);
  };
  j["row_hit_rate"] = total("dram_row_hit_rate").get<double>();
  j["read_write_turnarounds"] = total("dram_read_write_turnarounds");
  nlohmann::ordered_json utilization = nlohmann::ordered_json::array();
  for (uint32_t p = 0; p < hierarchy.partitions(); ++p) {
    const mempart::MemoryPartition& part = hierarchy.partition(p);
    uint64_t data = 0;
    for (uint32_t c = 0; c < part.channels(); ++c)
      data += part.controller(c).stats().data_cycles.value();
    utilization.push_back(ratio(data, dram_cycles * part.channels()));
  }
  j["partition_utilization"] = utilization;
  nlohmann::ordered_json latency;
  latency["avg"] = r.latency_avg_ns();
  latency["p50"] = r.latency_quantile_ns(0.50);
  latency["p99"] = r.latency_quantile_ns(0.99);
  latency["histogram"] = latency_histogram(r);
  j["latency_ns"] = latency;
  j["stats"] = values;
  return j;
}

std::string trace_summary(const nlohmann::ordered_json& j) {
  const auto& lat = j["latency_ns"];
  std::string s = fmt::format(
      "{} requests ({} reads, {} writes), {} bytes in {:.1f} us ({} mode)\n"
      "bandwidth  {:.2f} GB/s of {:.2f} GB/s peak ({:.1f}%)\n",
      j["requests"].get<uint64_t>(), j["reads"].get<uint64_t>(), j["writes"].get<uint64_t>(),
      j["bytes"].get<uint64_t>(), j["elapsed_ns"].get<double>() / 1000.0,
      j["mode"].get<std::string>(), j["bandwidth_gbps"].get<double>(),
      j["peak_bandwidth_gbps"].get<double>(), 100.0 * j["efficiency"].get<double>());
  if (j.contains("offered_gbps"))
    s += fmt::format("offered    {:.2f} GB/s\n", j["offered_gbps"].get<double>());
  s += fmt::format(
      "latency    avg {:.1f} ns, p50 {:.1f} ns, p99 {:.1f} ns\n"
      "row hits   {:.1f}%, {} read/write turnarounds\n",
      lat["avg"].get<double>(), lat["p50"].get<double>(), lat["p99"].get<double>(),
      100.0 * j["row_hit_rate"].get<double>(), j["read_write_turnarounds"].get<uint64_t>());
  std::string util;
  for (const auto& u : j["partition_utilization"])
    util += fmt::format(" {:.0f}%", 100.0 * u.get<double>());
  s += "partitions" + util + " (data bus utilization)\n";
  const auto& memory = j["stats"];
  if (memory.contains("l2_read_hit_rate")) {
    const auto& rate = memory["l2_read_hit_rate"];
    s += fmt::format("L2         read hit rate {}, {} fills, {} write-backs\n",
                     rate.is_null() ? "-" : fmt::format("{:.1f}%", 100.0 * rate.get<double>()),
                     memory["l2_fills"].get<uint64_t>(), memory["l2_writebacks"].get<uint64_t>());
  }
  return s;
}

}  // namespace gpusoc::memsys
