// `gpusoc memtrace`: the memory system alone, driven by a trace file or a built-in pattern,
// through the crossbar and L2 (default) or straight into the partitions. Prints the achieved
// bandwidth against the DRAM peak, latency percentiles, row hits and utilization; --stats-out
// writes the whole report (docs/memory.md describes it).
#include <algorithm>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/memsys/hierarchy_params.h"
#include "models/memsys/mem_trace.h"
#include "models/memsys/module_hierarchy.h"
#include "models/memsys/trace_driver.h"
#include "models/memsys/trace_report.h"
#include "platform/command.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"
#include "platform/number_text.h"

namespace gpusoc::platform {
namespace {

// Ranges of the numeric options. A run of a trillion requests takes hours; more is a typo.
constexpr uint64_t kMaxRequests = 1'000'000'000'000;
constexpr uint64_t kMaxPorts = 4096;
constexpr double kMaxRateGbps = 1e6;

// The option's value within [min, max]; `fallback` when the option is not given.
uint64_t count(const CommandContext& ctx, const std::string& option, uint64_t fallback,
               uint64_t min, uint64_t max) {
  const auto text = ctx.options.get(option);
  return text ? integer_option("--" + option, *text, min, max) : fallback;
}

int memtrace(const CommandContext& ctx) {
  const GpuSpec spec = GpuSpec::from_config(ctx.config);
  memsys::MemoryDescription memory = memory_description(spec, 0);
  memory.ports = uint32_t(count(ctx, "ports", spec.total_sms(), 1, kMaxPorts));
  memsys::HierarchyConfig config = memsys::hierarchy_config_from(ctx.config, memory);
  const std::string into = ctx.options.get("into").value_or("crossbar");
  if (into != "crossbar" && into != "partitions")
    throw UsageError("--into '" + into + "': expected crossbar or partitions");
  config.through_l2 = into == "crossbar";

  // Every address must name device memory: the configured capacity, from the memory's base.
  const uint64_t capacity = spec.memory.capacity_bytes;
  std::unique_ptr<memsys::TraceSource> source;
  const auto trace = ctx.options.get("trace");
  const auto pattern = ctx.options.get("pattern");
  if (trace && pattern) throw UsageError("--trace and --pattern: give one of them");
  const auto rate_text = ctx.options.get("rate");
  const double rate = rate_text ? positive_real_option("--rate", *rate_text, kMaxRateGbps) : 0;
  if (trace && rate > 0)
    throw UsageError(
        "--rate: a trace file gives each request's time itself; --rate is for "
        "--pattern");
  if (trace) {
    source = memsys::open_trace_file(*trace);
  } else {
    memsys::PatternSpec spec_p;
    spec_p.pattern = pattern.value_or("stream");
    spec_p.requests = count(ctx, "requests", spec_p.requests, 1, kMaxRequests);
    spec_p.bytes = uint32_t(count(ctx, "size", spec_p.bytes, 1, memsys::kMaxTraceRequestBytes));
    spec_p.footprint =
        count(ctx, "footprint", std::min(spec_p.footprint, capacity), spec_p.bytes, capacity);
    spec_p.seed = count(ctx, "seed", spec_p.seed, 0, std::numeric_limits<uint64_t>::max());
    spec_p.rate_gbps = rate;
    source = memsys::pattern_source(spec_p);
  }

  if (config.modules && !config.through_l2)
    throw UsageError("--into partitions drives the fused hierarchy's partitions; memory.model = "
                     "tlm assembles crossbar, L2 and partitions (--into crossbar)");
  if (config.external_memory || config.external_slices)
    throw UsageError("memory.tlm.external_memory / external_slices: memtrace has no model of "
                     "yours to bind");
  StatGroup stats;
  // The modules run SystemC themselves: advancing the network runs the simulation.
  std::unique_ptr<memsys::PacketNetwork> network;
  if (config.modules) {
    network = std::make_unique<memsys::ModuleHierarchy>(
        "memory", config, stats, memsys::ModuleHierarchy::Options{true, false});
  } else {
    network = std::make_unique<memsys::MemoryHierarchy>(config, stats);
  }
  memsys::PacketNetwork& hierarchy = *network;
  memsys::TraceDriver driver(hierarchy, memory.ports, config.fixed_latency_ns,
                             {memory.base, capacity, "memory.capacity_bytes"});
  const memsys::TraceRunResult result = driver.run(*source);
  const nlohmann::ordered_json report =
      memsys::trace_report(config, hierarchy, stats, result, rate);
  const std::string summary = memsys::trace_summary(report);
  std::cout << summary;
  ctx.write_report(report, summary);
  return 0;
}

const CommandRegistration kMemtrace{
    Command("memtrace",
            "drive the memory system with a trace or a pattern; report bandwidth, latency, "
            "row hits and utilization",
            memtrace)
        .option({"trace", "FILE",
                 "requests from a trace file (docs/memory.md: time_ns R|W "
                 "address size per line)"})
        .option({"pattern", "PATTERN",
                 "built-in requests: stream (default), random, stride:N or mix:R"})
        .option({"requests", "N", "requests the pattern makes (default 1000000)"})
        .option({"size", "BYTES", "bytes per pattern request (default 32)"})
        .option({"footprint", "BYTES", "bytes the pattern's addresses cover (default 256 MiB)"})
        .option({"seed", "N", "seed of the random patterns (default 1)"})
        .option({"rate", "GBPS", "offered load of the pattern in GB/s (default: unpaced)"})
        .option({"into", "WHERE", "crossbar (default: through crossbar and L2) or partitions"})
        .option({"ports", "N", "requester ports the requests take turns on (default: the SMs)"})};

}  // namespace
}  // namespace gpusoc::platform
