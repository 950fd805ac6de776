// `gpusoc memtrace`: the memory system alone, driven by a trace file or a built-in pattern,
// through the crossbar and L2 (default) or straight into the partitions. Prints the achieved
// bandwidth against the DRAM peak, latency percentiles, row hits and utilization; --stats-out
// writes the whole report (docs/memory.md describes it).
#include <cmath>
#include <iostream>
#include <type_traits>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/memsys/hierarchy_params.h"
#include "models/memsys/mem_trace.h"
#include "models/memsys/trace_driver.h"
#include "models/memsys/trace_report.h"
#include "platform/command.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"

namespace gpusoc::platform {
namespace {

// The option's value, a positive T written whole (an integer, or for a floating-point T a finite
// number); `fallback` when the option is not given.
template <typename T>
T positive(const CommandContext& ctx, const std::string& option, T fallback) {
  constexpr bool kReal = std::is_floating_point_v<T>;
  const auto text = ctx.options.get(option);
  if (!text) return fallback;
  try {
    size_t used = 0;
    T value;
    if constexpr (kReal) {
      value = std::stod(*text, &used);
    } else {
      value = std::stoull(*text, &used, 0);
    }
    if (used == text->size() && value > 0 && std::isfinite(double(value))) return value;
  } catch (const std::exception&) {
  }
  throw UsageError(fmt::format("--{} '{}': expected a positive {}", option, *text,
                               kReal ? "number" : "integer"));
}

int memtrace(const CommandContext& ctx) {
  const GpuSpec spec = GpuSpec::from_config(ctx.config);
  memsys::MemoryDescription memory = memory_description(spec, 0);
  memory.ports = uint32_t(positive<uint64_t>(ctx, "ports", spec.total_sms()));
  memsys::HierarchyConfig config = memsys::hierarchy_config_from(ctx.config, memory);
  const std::string into = ctx.options.get("into").value_or("crossbar");
  if (into != "crossbar" && into != "partitions")
    throw UsageError("--into '" + into + "': expected crossbar or partitions");
  config.through_l2 = into == "crossbar";

  std::unique_ptr<memsys::TraceSource> source;
  const auto trace = ctx.options.get("trace");
  const auto pattern = ctx.options.get("pattern");
  if (trace && pattern) throw UsageError("--trace and --pattern: give one of them");
  const double rate = positive<double>(ctx, "rate", 0);
  if (trace && rate > 0)
    throw UsageError("--rate: a trace file gives each request's time itself; --rate is for "
                     "--pattern");
  if (trace) {
    source = memsys::open_trace_file(*trace);
  } else {
    memsys::PatternSpec spec_p;
    spec_p.pattern = pattern.value_or("stream");
    spec_p.requests = positive<uint64_t>(ctx, "requests", spec_p.requests);
    spec_p.bytes = uint32_t(positive<uint64_t>(ctx, "size", spec_p.bytes));
    spec_p.footprint = positive<uint64_t>(ctx, "footprint", spec_p.footprint);
    spec_p.seed = positive<uint64_t>(ctx, "seed", spec_p.seed);
    spec_p.rate_gbps = rate;
    source = memsys::pattern_source(spec_p);
  }

  memsys::MemoryHierarchy hierarchy(config);
  memsys::TraceDriver driver(hierarchy, memory.ports, config.fixed_latency_ns);
  const memsys::TraceRunResult result = driver.run(*source);
  const nlohmann::ordered_json report = memsys::trace_report(config, hierarchy, result, rate);
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
        .option({"trace", "FILE", "requests from a trace file (docs/memory.md: time_ns R|W "
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
