#include "sw/apps/functional_app_device.h"

#include <chrono>

namespace gpusoc::apps {

std::string kernel_file(const std::string& file_name) {
  return std::string(GPUSOC_KERNEL_DIR) + "/" + file_name;
}

FunctionalAppDevice::FunctionalAppDevice(ptx::DeviceOptions options)
    : device_(std::move(options)) {}

void FunctionalAppDevice::load(const std::string& file_name) {
  if (!modules_.count(file_name))
    modules_.emplace(file_name, device_.load_module_file(kernel_file(file_name)));
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
  for (const auto& [file, module] : modules_) {
    for (const std::string& name : module.kernel_names()) {
      if (name != kernel) continue;
      LaunchStats s;
      LaunchConfig c = config;
      c.stats = &s;
      const auto t0 = std::chrono::steady_clock::now();
      device_.launch(module.kernel(name), c, args);
      stats_.kernel_wall_s +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      stats_.add(s);
      return;
    }
  }
  throw ptx::LaunchError("no loaded module has a kernel '" + kernel + "'");
}

}  // namespace gpusoc::apps
