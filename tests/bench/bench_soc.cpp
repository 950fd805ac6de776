// The whole platform, loosely timed: the host program runs an app through the runtime, the PCIe
// link, the command processor, the CTA distributor and the SMs. Figures: simulation speed while
// kernels run (comparable with the bare core's ptx_* figures) and the whole run's host time.
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

Figures run_app(const char* app, uint64_t size) {
  testing::fresh_systemc();  // one elaboration per run
  Config config;
  config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/tesla-8800gtx.json");
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
          {"warp_instructions", double(s.warp_instructions)},
          {"kernel_wall_s", s.kernel_wall_s},
          {"wall_s", wall},
          {"simulated_kernel_ms", s.kernel_ns / 1e6},
          {"simulated_total_ms", simulated.to_seconds() * 1e3}};
}

const Registration kVecadd{{"soc_vecadd_16m",
                            "SoC, loosely timed, 8800 GTX: vector add of 16M floats with copies",
                            [] { return run_app("vecadd", 16u << 20); }}};
const Registration kSgemm{{"soc_sgemm_512", "SoC, loosely timed, 8800 GTX: SGEMM 512x512",
                           [] { return run_app("sgemm_tiled", 512); }}};

}  // namespace
}  // namespace gpusoc::bench
