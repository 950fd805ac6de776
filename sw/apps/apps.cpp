#include "sw/apps/apps.h"

namespace gpusoc::apps {

const std::vector<App>& all_apps() {
  static const std::vector<App> apps = [] {
    std::vector<App> all;
    for (auto group :
         {detail::linear_algebra_apps, detail::reduction_apps, detail::stream_apps,
          detail::atomic_apps, detail::graph_apps, detail::sort_scan_apps, detail::dense_apps,
          detail::call_apps, detail::control_apps, detail::coverage_apps, detail::float_conv_apps,
          detail::warp_apps, detail::bandwidth_apps, detail::texture_apps,
          detail::microbench_apps}) {
      for (App& a : group()) all.push_back(std::move(a));
    }
    return all;
  }();
  return apps;
}

const App* find_app(std::string_view name) {
  for (const App& a : all_apps()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace gpusoc::apps
