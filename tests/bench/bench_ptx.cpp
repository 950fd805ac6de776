// Functional PTX core throughput: suite apps run on one host core, figures from the launches.
#include <stdexcept>

#include "sw/apps/suite.h"
#include "tests/bench/bench.h"

namespace gpusoc::bench {
namespace {

Figures run_app(const char* app, uint64_t size) {
  ptx::FunctionalDevice device;
  const apps::RunResult r = apps::find_suite_app(app)->run(device, size);
  if (!r.verified) throw std::runtime_error(r.summary);
  return {{"warp_instructions_per_s", double(r.stats.warp_instructions) / r.kernel_wall_s},
          {"thread_instructions_per_s", double(r.stats.thread_instructions) / r.kernel_wall_s},
          {"warp_instructions", double(r.stats.warp_instructions)},
          {"wall_s", r.kernel_wall_s}};
}

const Registration kSgemm{{"ptx_sgemm_512", "functional SGEMM 512x512 (16x16 shared-memory tiles)",
                           [] { return run_app("sgemm_tiled", 512); }}};
const Registration kReduce{{"ptx_reduce_16m", "functional sum of 16M floats (shared-memory tree)",
                            [] { return run_app("reduce_shared", 16u << 20); }}};

}  // namespace
}  // namespace gpusoc::bench
