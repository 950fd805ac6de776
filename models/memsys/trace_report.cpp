#include "models/memsys/trace_report.h"

#include <algorithm>

#include <fmt/format.h>

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

nlohmann::ordered_json partition_report(const mempart::MemoryPartition& p, uint64_t dram_cycles,
                                        double tck_ns) {
  nlohmann::ordered_json j;
  const mempart::PartitionStats& s = p.stats();
  j["packets"] = s.packets;
  j["read_packets"] = s.read_packets;
  j["write_packets"] = s.write_packets;
  j["bursts"] = s.bursts;
  nlohmann::ordered_json channels = nlohmann::ordered_json::array();
  uint64_t data = 0;
  for (uint32_t c = 0; c < p.channels(); ++c) {
    const mempart::ControllerStats& cs = p.controller(c).stats();
    const mempart::DramTiming& t = p.controller(c).channel().timing();
    nlohmann::ordered_json ch;
    ch["reads"] = cs.reads;
    ch["writes"] = cs.writes;
    ch["row_hits"] = cs.row_hits;
    ch["row_misses"] = cs.row_misses;
    ch["row_conflicts"] = cs.row_conflicts;
    ch["activates"] = cs.activates;
    ch["refreshes"] = cs.refreshes;
    ch["read_write_turnarounds"] = cs.read_write_turnarounds;
    ch["utilization"] = ratio(cs.data_cycles, dram_cycles);
    ch["bandwidth_gbps"] =
        dram_cycles ? double(cs.reads + cs.writes) * t.burst_bytes() / (dram_cycles * tck_ns) : 0;
    channels.push_back(ch);
    data += cs.data_cycles;
  }
  j["utilization"] = ratio(data, dram_cycles * p.channels());
  j["channels"] = channels;
  return j;
}

}  // namespace

nlohmann::ordered_json trace_report(const HierarchyConfig& config, const MemoryHierarchy& hierarchy,
                                    const TraceRunResult& r, double offered_gbps) {
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

  uint64_t hits = 0, columns = 0, turnarounds = 0;
  for (uint32_t p = 0; p < hierarchy.partitions(); ++p) {
    const mempart::MemoryPartition& part = hierarchy.partition(p);
    for (uint32_t c = 0; c < part.channels(); ++c) {
      const mempart::ControllerStats& cs = part.controller(c).stats();
      hits += cs.row_hits;
      columns += cs.row_hits + cs.row_misses + cs.row_conflicts;
      turnarounds += cs.read_write_turnarounds;
    }
  }
  j["row_hit_rate"] = ratio(hits, columns);
  j["read_write_turnarounds"] = turnarounds;
  nlohmann::ordered_json latency;
  latency["avg"] = r.latency_avg_ns();
  latency["p50"] = r.latency_quantile_ns(0.50);
  latency["p99"] = r.latency_quantile_ns(0.99);
  latency["histogram"] = latency_histogram(r);
  j["latency_ns"] = latency;

  const double tck_ns = config.dram.tck_ns;
  const uint64_t dram_cycles = hierarchy.dram_cycle(r.end_cycle);
  nlohmann::ordered_json partitions = nlohmann::ordered_json::array();
  for (uint32_t p = 0; p < hierarchy.partitions(); ++p)
    partitions.push_back(partition_report(hierarchy.partition(p), dram_cycles, tck_ns));
  j["partitions"] = partitions;

  if (hierarchy.through_l2()) {
    l2::L2Stats total;
    mempart::RopStats rop;
    for (uint32_t s = 0; s < hierarchy.partitions(); ++s) {
      const l2::L2Stats& l = hierarchy.slice(s).stats();
      total.read_hits += l.read_hits, total.read_misses += l.read_misses;
      total.write_hits += l.write_hits, total.write_misses += l.write_misses;
      total.mshr_merges += l.mshr_merges, total.mshr_stall_cycles += l.mshr_stall_cycles;
      total.fills += l.fills, total.writebacks += l.writebacks;
      const mempart::RopStats& r = hierarchy.rop(s).stats();
      rop.operations += r.operations, rop.serialized += r.serialized;
      rop.wait_cycles += r.wait_cycles;
      for (unsigned k = 0; k < kAtomicOps; ++k) {
        rop.operations_of[k] += r.operations_of[k], rop.serialized_of[k] += r.serialized_of[k];
        rop.wait_cycles_of[k] += r.wait_cycles_of[k];
      }
    }
    nlohmann::ordered_json l2;
    l2["read_hits"] = total.read_hits;
    l2["read_misses"] = total.read_misses;
    l2["write_hits"] = total.write_hits;
    l2["write_misses"] = total.write_misses;
    l2["read_hit_rate"] = ratio(total.read_hits, total.read_hits + total.read_misses);
    l2["mshr_merges"] = total.mshr_merges;
    l2["mshr_stall_cycles"] = total.mshr_stall_cycles;
    l2["fills"] = total.fills;
    l2["writebacks"] = total.writebacks;
    j["l2"] = l2;
    auto network = [&](const xbar::Crossbar& x) {
      uint64_t packets = 0, conflicts = 0, blocked = 0;
      for (const xbar::CrossbarPortStats& s : x.input_stats())
        packets += s.packets, conflicts += s.conflict_cycles, blocked += s.blocked_cycles;
      nlohmann::ordered_json n;
      n["packets"] = packets;
      n["conflict_cycles"] = conflicts;
      n["blocked_cycles"] = blocked;
      return n;
    };
    j["xbar"] = {{"requests", network(hierarchy.request_network())},
                 {"replies", network(hierarchy.reply_network())}};
    nlohmann::ordered_json by_operation;
    for (unsigned k = 0; k < kAtomicOps; ++k) {
      by_operation[kAtomicOpNames[k]] = {{"operations", rop.operations_of[k]},
                                         {"serialized", rop.serialized_of[k]},
                                         {"wait_cycles", rop.wait_cycles_of[k]}};
    }
    j["rop"] = {{"operations", rop.operations},
                {"serialized", rop.serialized},
                {"wait_cycles", rop.wait_cycles},
                {"by_operation", by_operation}};
  }
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
  for (const auto& p : j["partitions"])
    util += fmt::format(" {:.0f}%", 100.0 * p["utilization"].get<double>());
  s += "partitions" + util + " (data bus utilization)\n";
  if (j.contains("l2")) {
    s += fmt::format("L2         read hit rate {:.1f}%, {} fills, {} write-backs\n",
                     100.0 * j["l2"]["read_hit_rate"].get<double>(),
                     j["l2"]["fills"].get<uint64_t>(), j["l2"]["writebacks"].get<uint64_t>());
  }
  return s;
}

}  // namespace gpusoc::memsys
