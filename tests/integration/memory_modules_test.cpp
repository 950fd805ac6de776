// The SoC with its memory side as SystemC modules (memory.model = tlm): kernels give the CPU's
// answers with a base-protocol checker on every binding between the modules, in the time the
// fused hierarchy takes (the reference: its parts are the same classes; docs/memory.md lists
// where the two differ), with the same statistics; a platform's own memory model stands in for
// the partitions through GpuSoc::memory_socket; misuse is one clear error.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/error.h"
#include "models/common/stats_report.h"
#include "platform/gpu_soc.h"
#include "platform/soc_platform.h"
#include "tests/integration/soc_fixture.h"

namespace gpusoc::rt {
namespace {

using namespace testing;

struct Outcome {
  double seconds = 0;
  nlohmann::ordered_json stats;
};

Outcome run_vecadd(const std::string& model) {
  Soc soc({"sm.model=cycle", "memory.model=" + model, "l2.size_bytes=16384",
           "platform.check_tlm_protocol=true"});
  Outcome o;
  o.seconds = soc.run([](Device& device, host::HostBus&) {
    run_vector_add(device, device.load_module_file(kKernelDir + "/vector_add.ptx"), 40000, 11);
  }).to_seconds();
  o.stats = stats_values_json(soc.stats());
  return o;
}

// Every key of `a`, recursively, is in `b` and the other way round.
bool same_keys(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
  if (a.is_object() != b.is_object()) return false;
  if (!a.is_object()) return true;
  if (a.size() != b.size()) return false;
  for (auto it = a.begin(); it != a.end(); ++it) {
    if (!b.contains(it.key()) || !same_keys(it.value(), b[it.key()])) return false;
  }
  return true;
}

TEST(MemoryModules, AKernelRunsOnTheModulesAsOnTheFusedHierarchy) {
  const Outcome fused = run_vecadd("hierarchy");
  const Outcome modules = run_vecadd("tlm");
  EXPECT_TRUE(same_keys(fused.stats, modules.stats)) << "the statistics tree differs";
  const auto& f = fused.stats["gpu"]["memory_system"];
  const auto& m = modules.stats["gpu"]["memory_system"];
  EXPECT_EQ(m["requests"], f["requests"]);
  EXPECT_EQ(m["bytes"], f["bytes"]);
  EXPECT_EQ(m["dram_reads"], f["dram_reads"]);
  EXPECT_EQ(m["l2_fills"], f["l2_fills"]);
  EXPECT_GT(f["l2_fills"].get<uint64_t>(), 0u);
  EXPECT_NEAR(modules.seconds, fused.seconds, 0.02 * fused.seconds);
  EXPECT_NEAR(m["latency_avg_ns"].get<double>(), f["latency_avg_ns"].get<double>(),
              0.05 * f["latency_avg_ns"].get<double>());
}

// At a time resolution of 1 ns with an L2 clock faster than it (1500 MHz), both assemblies run
// a kernel to the CPU's answer (the SoC's memory system used to wake at the same cycle forever).
TEST(MemoryModules, AnL2ClockFasterThanTheTimeResolutionRuns) {
  for (const char* model : {"hierarchy", "tlm"}) {
    gpusoc::testing::fresh_systemc();
    sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
    Config config;
    config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/small.json");
    for (const std::string& set : std::vector<std::string>{"sm.model=cycle", "l2.clock_mhz=1500",
                                                          "l2.size_bytes=16384",
                                  std::string("memory.model=") + model})
      config.apply_set(set);
    StatGroup stats;
    platform::SocPlatform soc(config, stats);
    const double seconds = soc.run([](host::HostBus& bus) {
                                 Device device(bus);
                                 run_vector_add(
                                     device,
                                     device.load_module_file(kKernelDir + "/vector_add.ptx"),
                                     20000, 3);
                               })
                               .to_seconds();
    EXPECT_GT(seconds, 0) << model;
    EXPECT_GT(stats_values_json(stats)["gpu"]["memory_system"]["responses"].get<uint64_t>(), 0u)
        << model;
  }
}

// A platform's memory model: an LT target that answers after a fixed time and counts.
struct PlatformMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<PlatformMemory> target;
  uint64_t reads = 0, writes = 0;
  explicit PlatformMemory(sc_core::sc_module_name name) : sc_module(name), target("target") {
    target.register_b_transport(this, &PlatformMemory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    ++(tx.is_read() ? reads : writes);
    delay += sc_core::sc_time(100, sc_core::SC_NS);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

TEST(MemoryModules, APlatformsMemoryModelStandsInForThePartitions) {
  Soc soc({"sm.model=cycle", "memory.model=tlm", "memory.tlm.external_memory=true",
           "l2.size_bytes=16384",
           "platform.check_tlm_protocol=true"});
  platform::GpuSoc& gpu = soc.platform().gpu();
  std::vector<std::unique_ptr<PlatformMemory>> memories;
  for (uint32_t p = 0; p < gpu.spec().memory.partitions; ++p) {
    memories.push_back(std::make_unique<PlatformMemory>(("memory" + std::to_string(p)).c_str()));
    gpu.memory_socket(p).bind(memories.back()->target);
  }
  EXPECT_THROW(gpu.memory_socket(gpu.spec().memory.partitions), ConfigError);
  soc.run([](Device& device, host::HostBus&) {
    run_vector_add(device, device.load_module_file(kKernelDir + "/vector_add.ptx"), 40000, 5);
  });
  uint64_t reads = 0;
  for (const auto& m : memories) reads += m->reads;
  const auto stats = stats_values_json(soc.stats())["gpu"]["memory_system"];
  EXPECT_EQ(reads, stats["l2_fills"].get<uint64_t>()) << "every fill reached the platform";
  EXPECT_GT(reads, 0u);
  EXPECT_FALSE(stats.contains("dram_reads")) << "no DRAM of ours to count";
}

TEST(MemoryModules, MisuseIsOneClearError) {
  try {
    Soc soc({"memory.tlm.external_memory=true"});
    ADD_FAILURE() << "external memory without the modules was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("needs memory.model = tlm"), std::string::npos)
        << e.what();
  }
  {
    Soc soc;
    EXPECT_THROW(soc.platform().gpu().memory_socket(0), ConfigError);
  }
  // Left unbound, a slice's memory socket stops elaboration, naming it.
  Soc soc({"memory.model=tlm", "memory.tlm.external_memory=true"});
  try {
    soc.run_host([](host::HostBus&) {});
    ADD_FAILURE() << "an unbound memory socket was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("port not bound: port 'gpu.memory_system.modules.slice"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpusoc::rt
