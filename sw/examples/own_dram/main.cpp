// own_dram: a DRAM model of one's own (simple_dram.h) behind gpusoc's crossbar and L2 slices.
// The memory side is assembled as SystemC modules (memory.model = tlm, ModuleHierarchy) with
// each L2 slice's memory socket left unbound (external memory); one SimpleDram binds to each.
// memtrace's driver then runs a stream, a random and a read/write pattern through it, and through
// gpusoc's own partitions (the fused hierarchy) for comparison. Exit status 0 only when every request
// completed and the DRAMs saw exactly the L2's fills and write-backs.
//
//   own_dram [CONFIG.json] [NAME=VALUE ...]
// CONFIG.json defaults to gpusoc's configs/volta-v100.json; NAME=VALUE overrides a parameter.
#include <cinttypes>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/stat_group.h"
#include "models/memsys/hierarchy_params.h"
#include "models/memsys/mem_trace.h"
#include "models/memsys/module_hierarchy.h"
#include "models/memsys/trace_driver.h"
#include "platform/gpu_soc.h"
#include "platform/gpu_spec.h"
#include "simple_dram.h"

using namespace gpusoc;

namespace {

memsys::PatternSpec pattern(const std::string& name, uint64_t capacity) {
  memsys::PatternSpec p;
  p.pattern = name;
  p.requests = 200000;
  p.bytes = 64;
  p.footprint = std::min<uint64_t>(capacity, 256ull << 20);
  return p;
}

void print(const char* who, const char* what, const memsys::TraceRunResult& r) {
  std::printf("%-28s %-7s %8.1f GB/s, latency %7.1f ns average, %7.1f ns p99\n", who, what,
              r.bandwidth_gbps(), r.latency_avg_ns(), r.latency_quantile_ns(0.99));
}

}  // namespace

extern "C" int sc_main(int argc, char** argv) {
  std::string config_file = OWN_DRAM_CONFIG;
  std::vector<std::string> overrides;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.find('=') != std::string::npos)
      overrides.push_back(arg);
    else
      config_file = arg;
  }
  try {
    Config config;
    config.load_file(config_file);
    for (const std::string& o : overrides) config.apply_set(o);
    const platform::GpuSpec spec = platform::GpuSpec::from_config(config);
    const memsys::MemoryDescription memory = platform::memory_description(spec, 0);
    memsys::HierarchyConfig hierarchy = memsys::hierarchy_config_from(config, memory);
    const uint64_t capacity = spec.memory.capacity_bytes;
    const memsys::TraceAddressRange range{memory.base, capacity, "memory.capacity_bytes"};

    // Yours: the modules, each slice's memory socket bound to a SimpleDram. The data bus of
    // each runs at the partition's peak, so the two stand on the same bandwidth.
    StatGroup yours_stats;
    memsys::ModuleHierarchy yours("yours", hierarchy, yours_stats,
                                  {/*drives_simulation=*/true, /*external_memory=*/true,
                                   /*check_protocol=*/true});
    SimpleDramTiming timing;
    timing.bytes_per_ns = memsys::peak_gbytes_per_s(hierarchy) / hierarchy.mapping.partitions;
    std::vector<std::unique_ptr<SimpleDram>> drams;
    for (uint32_t p = 0; p < yours.slices(); ++p) {
      drams.push_back(std::make_unique<SimpleDram>(("dram" + std::to_string(p)).c_str(), timing));
      yours.memory_socket(p).bind(drams.back()->target);
    }

    bool ok = true;
    for (const char* name : {"stream", "random", "mix:0.5"}) {
      StatGroup ours_stats;
      memsys::MemoryHierarchy ours(hierarchy, ours_stats);
      const auto ours_result =
          memsys::TraceDriver(ours, memory.ports, hierarchy.fixed_latency_ns, range)
              .run(*memsys::pattern_source(pattern(name, capacity)));
      print("gpusoc's partitions (fused)", name, ours_result);
      const auto yours_result =
          memsys::TraceDriver(yours, memory.ports, hierarchy.fixed_latency_ns, range)
              .run(*memsys::pattern_source(pattern(name, capacity)));
      print("SimpleDram behind the L2", name, yours_result);
      ok = ok && yours_result.requests == pattern(name, capacity).requests;
    }
    // Let the write-backs still queued in the slices reach the DRAMs, then count.
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    uint64_t reads = 0, writes = 0, hits = 0, fills = 0, writebacks = 0;
    for (uint32_t p = 0; p < yours.slices(); ++p) {
      reads += drams[p]->reads;
      writes += drams[p]->writes;
      hits += drams[p]->row_hits;
      fills += yours.slice(p).stats().fills.value();
      writebacks += yours.slice(p).stats().writebacks.value();
    }
    std::printf("SimpleDram: %" PRIu64 " reads, %" PRIu64 " writes, %.1f%% row hits; the L2 sent "
                "%" PRIu64 " fills and %" PRIu64 " write-backs\n",
                reads, writes, 100.0 * double(hits) / double(reads + writes), fills, writebacks);
    if (hierarchy.l2.size_bytes == 0) {
      std::printf("own_dram: the configuration has no L2 (l2.size_bytes = 0)\n");
      return 2;
    }
    if (!ok || reads != fills || writes != writebacks || reads == 0 || writes == 0) {
      std::printf("own_dram: FAILED\n");
      return 1;
    }
    std::printf("own_dram: PASSED, every request went through gpusoc's L2 into SimpleDram\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "own_dram: %s\n", e.what());
    return 2;
  }
}
