// The memory system alone, as `gpusoc memtrace` runs it on the V100 configuration (80 SM ports,
// 32 partitions of two HBM2 pseudo-channels, 6 MB of L2): 1M
// single-sector requests, random or streaming, straight into the partitions or through the
// crossbar and the L2 slices (fused, or as SystemC modules: memory.model = tlm). Figures:
// requests_per_s (host speed), wall_s, and the simulated bandwidth_gbps for reference.
#include <chrono>
#include <memory>

#include "models/common/config.h"
#include "models/memsys/hierarchy_params.h"
#include "models/memsys/mem_trace.h"
#include "models/memsys/module_hierarchy.h"
#include "models/memsys/trace_driver.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"
#include "tests/bench/bench.h"
#include "tests/support/systemc_test.h"

namespace gpusoc::bench {
namespace {

Figures run_memtrace(const char* pattern, bool through_l2, bool modules = false) {
  Config config;
  config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/volta-v100.json");
  const platform::GpuSpec spec = platform::GpuSpec::from_config(config);
  const memsys::MemoryDescription memory = platform::memory_description(spec, 0);
  memsys::HierarchyConfig h = memsys::hierarchy_config_from(config, memory);
  h.through_l2 = through_l2;
  memsys::PatternSpec p;
  p.pattern = pattern;
  p.requests = 1000000;
  const auto t0 = std::chrono::steady_clock::now();
  StatGroup stats;
  std::unique_ptr<memsys::PacketNetwork> hierarchy;
  if (modules) {
    testing::fresh_systemc();  // one elaboration per run
    hierarchy = std::make_unique<memsys::ModuleHierarchy>("memory", h, stats,
                                                          memsys::ModuleHierarchy::Options{true});
  } else {
    hierarchy = std::make_unique<memsys::MemoryHierarchy>(h, stats);
  }
  memsys::TraceDriver driver(*hierarchy, memory.ports, h.fixed_latency_ns);
  const memsys::TraceRunResult r = driver.run(*memsys::pattern_source(p));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {{"requests_per_s", double(r.requests) / wall},
          {"wall_s", wall},
          {"bandwidth_gbps", r.bandwidth_gbps()}};
}

const Registration kRandomPartitions{
    {"memtrace_random_partitions", "memtrace, V100: 1M random 32-byte reads into the partitions",
     [] { return run_memtrace("random", false); }}};
const Registration kStreamPartitions{
    {"memtrace_stream_partitions", "memtrace, V100: 1M streaming 32-byte reads into the partitions",
     [] { return run_memtrace("stream", false); }}};
const Registration kRandomHierarchy{
    {"memtrace_random_hierarchy",
     "memtrace, V100: 1M random 32-byte reads through crossbar and L2",
     [] { return run_memtrace("random", true); }}};
const Registration kStreamHierarchy{
    {"memtrace_stream_hierarchy",
     "memtrace, V100: 1M streaming 32-byte reads through crossbar and L2",
     [] { return run_memtrace("stream", true); }}};

const Registration kRandomModules{
    {"memtrace_random_modules",
     "memtrace, V100: 1M random 32-byte reads through crossbar and L2 as SystemC modules",
     [] { return run_memtrace("random", true, true); }}};
const Registration kStreamModules{
    {"memtrace_stream_modules",
     "memtrace, V100: 1M streaming 32-byte reads through crossbar and L2 as SystemC modules",
     [] { return run_memtrace("stream", true, true); }}};

}  // namespace
}  // namespace gpusoc::bench
