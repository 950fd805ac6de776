// The whole platform: the host program runs an app through the runtime, the PCIe link, the
// command processor, the CTA distributor and the SMs, loosely timed (soc_*) or cycle-level
// (timed_*). Figures: simulation speed while kernels run (comparable with the bare core's ptx_*
// figures), simulated GPU cycles per host second, and the whole run's host time.
#include <chrono>
#include <stdexcept>

#include "models/common/config.h"
#include "models/common/stat_group.h"
#include "platform/soc_platform.h"
#include "sw/apps/apps.h"
#include "sw/apps/soc_app_device.h"
#include "tests/bench/bench.h"
#include "tests/support/systemc_test.h"

namespace gpusoc::bench {
namespace {

Figures run_app(const char* config_file, const char* sm_model, const char* app, uint64_t size,
                const char* memory_model = "hierarchy") {
  testing::fresh_systemc();  // one elaboration per run
  Config config;
  config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/" + config_file);
  config.apply_set(std::string("sm.model=") + sm_model);
  config.apply_set(std::string("memory.model=") + memory_model);
  const double clock_mhz = config.value("clock.shader_mhz").get<double>();
  StatGroup stats;
  platform::SocPlatform soc(config, stats);
  apps::AppResult result;
  apps::AppStats s;
  const auto t0 = std::chrono::steady_clock::now();
  const sc_core::sc_time simulated = soc.run([&](host::HostBus& bus) {
    rt::Device runtime(bus);
    apps::SocAppDevice device(runtime);
    result = apps::find_app(app)->run(device, size);
    s = device.stats();
  });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!result.verified) throw std::runtime_error(result.summary);
  return {{"warp_instructions_per_s", double(s.warp_instructions) / s.kernel_wall_s},
          {"sim_cycles_per_s", s.kernel_ns * clock_mhz * 1e-3 / s.kernel_wall_s},
          {"warp_instructions", double(s.warp_instructions)},
          {"kernel_wall_s", s.kernel_wall_s},
          {"wall_s", wall},
          {"simulated_kernel_ms", s.kernel_ns / 1e6},
          {"simulated_total_ms", simulated.to_seconds() * 1e3}};
}

constexpr const char* kTesla = "tesla-8800gtx.json";
constexpr const char* kVolta = "volta-v100.json";

const Registration kVecadd{{"soc_vecadd_16m",
                            "SoC, loosely timed, 8800 GTX: vector add of 16M floats with copies",
                            [] { return run_app(kTesla, "lt", "vecadd", 16u << 20); }}};
const Registration kSgemm{{"soc_sgemm_512", "SoC, loosely timed, 8800 GTX: SGEMM 512x512",
                           [] { return run_app(kTesla, "lt", "sgemm_tiled", 512); }}};
const Registration kTimedSgemmTesla{{"timed_sgemm_512_tesla",
                                     "SoC, cycle-level SMs, 8800 GTX: SGEMM 512x512",
                                     [] { return run_app(kTesla, "cycle", "sgemm_tiled", 512); }}};
const Registration kTimedReduceTesla{
    {"timed_reduce_16m_tesla", "SoC, cycle-level SMs, 8800 GTX: sum of 16M floats",
     [] { return run_app(kTesla, "cycle", "reduce_shared", 16u << 20); }}};
const Registration kTimedReduceTeslaModules{
    {"timed_reduce_16m_tesla_tlm",
     "SoC, cycle-level SMs, 8800 GTX: sum of 16M floats, the memory side as SystemC modules "
     "(memory.model = tlm)",
     [] { return run_app(kTesla, "cycle", "reduce_shared", 16u << 20, "tlm"); }}};
const Registration kTimedSgemmVolta{{"timed_sgemm_512_volta",
                                     "SoC, cycle-level SMs, V100: SGEMM 512x512",
                                     [] { return run_app(kVolta, "cycle", "sgemm_tiled", 512); }}};
const Registration kTimedReduceVolta{
    {"timed_reduce_16m_volta", "SoC, cycle-level SMs, V100: sum of 16M floats",
     [] { return run_app(kVolta, "cycle", "reduce_shared", 16u << 20); }}};

const Registration kTimedTexResize{
    {"timed_tex_resize",
     "SoC, cycle-level SMs, 8800 GTX: bilinear resize of a 2048x2048 image (to 3072x1366) "
     "through tex2D and the texture units",
     [] { return run_app(kTesla, "cycle", "texture_resize", 2048); }}};

}  // namespace
}  // namespace gpusoc::bench
