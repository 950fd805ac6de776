#include "sw/apps/suite.h"

namespace gpusoc::apps {

const std::vector<SuiteApp>& suite_apps() {
  static const std::vector<SuiteApp> apps = [] {
    std::vector<SuiteApp> all = detail::linear_algebra_apps();
    for (SuiteApp& a : detail::reduction_apps()) all.push_back(std::move(a));
    return all;
  }();
  return apps;
}

const SuiteApp* find_suite_app(std::string_view name) {
  for (const SuiteApp& a : suite_apps()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

std::string kernel_file(std::string_view file_name) {
  return std::string(GPUSOC_KERNEL_DIR) + "/" + std::string(file_name);
}

}  // namespace gpusoc::apps
