// Functional PTX core throughput: suite apps on the bare core, one host core, figures from the
// launches.
#include <stdexcept>

#include "sw/apps/apps.h"
#include "sw/apps/functional_app_device.h"
#include "tests/bench/bench.h"

namespace gpusoc::bench {
namespace {

Figures run_app(const char* app, uint64_t size) {
  apps::FunctionalAppDevice device;
  const apps::AppResult r = apps::find_app(app)->run(device, size);
  if (!r.verified) throw std::runtime_error(r.summary);
  const apps::AppStats& s = device.stats();
  return {{"warp_instructions_per_s", double(s.warp_instructions) / s.kernel_wall_s},
          {"thread_instructions_per_s", double(s.thread_instructions) / s.kernel_wall_s},
          {"warp_instructions", double(s.warp_instructions)},
          {"wall_s", s.kernel_wall_s}};
}

const Registration kSgemm{{"ptx_sgemm_512", "functional SGEMM 512x512 (16x16 shared-memory tiles)",
                           [] { return run_app("sgemm_tiled", 512); }}};
const Registration kReduce{{"ptx_reduce_16m", "functional sum of 16M floats (shared-memory tree)",
                            [] { return run_app("reduce_shared", 16u << 20); }}};

}  // namespace
}  // namespace gpusoc::bench
