#include "sw/apps/functional_app_device.h"

#include <chrono>

namespace gpusoc::apps {

FunctionalAppDevice::FunctionalAppDevice(ptx::DeviceOptions options)
    : device_(std::move(options)) {}

void FunctionalAppDevice::load_file(const std::string& path, const std::string& ptxas_report) {
  if (!modules_.count(path)) modules_.emplace(path, device_.load_module_file(path, ptxas_report));
}

ptx::Kernel FunctionalAppDevice::find(const std::string& kernel) const {
  const auto [module, index] = AppDevice::find(
      modules_, kernel, [](const std::string& why) { return ptx::LaunchError(why); });
  return module->kernel(module->kernel_names()[index]);
}

std::string FunctionalAppDevice::kernel_name(const std::string& kernel) {
  return find(kernel).name();
}

std::vector<uint32_t> FunctionalAppDevice::param_sizes(const std::string& kernel) {
  return find(kernel).param_sizes();
}

DevicePtr FunctionalAppDevice::malloc(uint64_t bytes) {
  return device_.malloc(bytes);
}

void FunctionalAppDevice::copy_to_device(DevicePtr dst, const void* src, uint64_t bytes) {
  device_.copy_to_device(dst, src, bytes);
  stats_.h2d_bytes += bytes;
}

void FunctionalAppDevice::copy_to_host(void* dst, DevicePtr src, uint64_t bytes) {
  device_.copy_to_host(dst, src, bytes);
  stats_.d2h_bytes += bytes;
}

void FunctionalAppDevice::launch(const std::string& kernel, const LaunchConfig& config,
                                 const KernelArgs& args) {
  const ptx::Kernel k = find(kernel);
  LaunchStats s;
  LaunchConfig c = config;
  c.stats = &s;
  const auto t0 = std::chrono::steady_clock::now();
  device_.launch(k, c, args);
  stats_.kernel_wall_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stats_.add(s);
  if (config.stats) *config.stats = s;
}

}  // namespace gpusoc::apps
