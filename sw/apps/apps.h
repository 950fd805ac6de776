// The host programs of the kernel suite: each allocates, copies its inputs, launches its
// kernels, copies the results back and checks them against a CPU reference. They run on any
// AppDevice: the SoC through the runtime (`gpusoc run`), or the bare PTX core.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sw/apps/app_device.h"

namespace gpusoc::apps {

/// A quantity an app measured (a latency, a bandwidth, a rate): `gpusoc run` prints it and
/// writes it to --stats-out under app.figures, where scripts/validate reads it.
struct Figure {
  std::string name;  // e.g. latency_warm
  double value = 0;
  std::string unit;  // cycles, GB/s, ...
  std::string description;
};

struct AppResult {
  bool verified = false;
  std::string summary;             // what was checked, and the worst error seen
  std::vector<std::string> notes;  // further lines for the report (overlap, ...)
  std::vector<Figure> figures;
};

/// What an app's size counts and the sizes it accepts. Host and device memory grow with the size,
/// so the largest is what a workstation holds; `gpusoc run` refuses sizes outside the range.
struct AppSize {
  static constexpr uint64_t kMaxElements = uint64_t(1) << 26;  // 256 MiB of floats per array
  AppSize(const char* meaning, uint64_t min = 1, uint64_t max = kMaxElements)  // NOLINT: implicit
      : meaning(meaning), min(min), max(max) {}
  std::string meaning;  // "elements", "matrix order N"
  uint64_t min, max;
};

struct App {
  std::string name;
  std::string description;
  uint64_t default_size;
  AppSize size;
  std::function<AppResult(AppDevice&, uint64_t size)> run;
  bool needs_soc = false;  // uses streams or events: only on the SoC
  /// Its threads race (compare-and-swap retry loops, queues built with atomics): how many
  /// instructions run depends on how warps interleave, which differs between the SoC and the
  /// functional core. Results and summaries do not.
  bool order_dependent_counts = false;
  /// Threads of one warp wait on each other: it completes only under independent thread
  /// scheduling (sm.simt_model=independent); under the reconvergence stack the launch fails with
  /// a SIMT deadlock.
  bool needs_independent_threads = false;
};

const std::vector<App>& all_apps();
/// nullptr when there is no app of that name.
const App* find_app(std::string_view name);

namespace detail {
std::vector<App> linear_algebra_apps();
std::vector<App> reduction_apps();
std::vector<App> stream_apps();
std::vector<App> atomic_apps();
std::vector<App> graph_apps();
std::vector<App> sort_scan_apps();
std::vector<App> dense_apps();
std::vector<App> call_apps();
std::vector<App> control_apps();
std::vector<App> coverage_apps();
std::vector<App> float_conv_apps();
std::vector<App> warp_apps();
std::vector<App> bandwidth_apps();
std::vector<App> texture_apps();
std::vector<App> microbench_apps();
}  // namespace detail

}  // namespace gpusoc::apps
