// The kernel suite as runnable programs: each sets up inputs, launches its kernels on a device,
// and checks the results against a CPU reference. `gpusoc run` and the benchmarks use them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/ptx/device.h"

namespace gpusoc::apps {

struct RunResult {
  bool verified = false;
  std::string summary;       // one line: what was checked, and the worst error seen
  ptx::LaunchStats stats;    // summed over the app's launches
  double kernel_wall_s = 0;  // host time spent inside launches
};

struct SuiteApp {
  std::string name;
  std::string description;
  uint64_t default_size;
  std::string size_meaning;  // "elements", "matrix order N"
  std::function<RunResult(ptx::FunctionalDevice&, uint64_t size)> run;
};

const std::vector<SuiteApp>& suite_apps();
/// nullptr when there is no app of that name.
const SuiteApp* find_suite_app(std::string_view name);
/// Path of a committed PTX file of the suite (sw/kernels).
std::string kernel_file(std::string_view file_name);

namespace detail {
std::vector<SuiteApp> linear_algebra_apps();
std::vector<SuiteApp> reduction_apps();
}  // namespace detail

}  // namespace gpusoc::apps
