#include "sw/apps/soc_app_device.h"

#include <chrono>

namespace gpusoc::apps {

SocAppDevice::SocAppDevice(rt::Device& device)
    : device_(device),
      before_(device.create_event()),
      after_(device.create_event()) {}

SocAppDevice::~SocAppDevice() {
  for (DevicePtr p : allocations_) device_.free(p);
}

void SocAppDevice::load(const std::string& file_name) {
  if (modules_.count(file_name)) return;
  rt::Module& m = modules_.emplace(file_name, device_.load_module_file(kernel_file(file_name)))
                      .first->second;
  for (const std::string& name : m.kernel_names()) kernels_.emplace(name, m.kernel(name));
}

DevicePtr SocAppDevice::malloc(uint64_t bytes) {
  allocations_.push_back(device_.malloc(bytes));
  return allocations_.back();
}

template <typename Copy>
void SocAppDevice::timed_copy(Copy&& copy, uint64_t h2d, uint64_t d2h) {
  rt::Stream& s = device_.default_stream();
  s.record(before_);
  copy();
  s.record(after_);
  after_.synchronize();
  account_copy(rt::Event::elapsed_ms(before_, after_) * 1e6, h2d, d2h);
}

void SocAppDevice::copy_to_device(DevicePtr dst, const void* src, uint64_t bytes) {
  timed_copy([&] { device_.memcpy_htod(dst, src, bytes); }, bytes, 0);
}

void SocAppDevice::copy_to_host(void* dst, DevicePtr src, uint64_t bytes) {
  timed_copy([&] { device_.memcpy_dtoh(dst, src, bytes); }, 0, bytes);
}

const rt::Kernel& SocAppDevice::kernel(const std::string& kernel) const {
  auto it = kernels_.find(kernel);
  if (it == kernels_.end())
    throw rt::Error(rt::Status::NotFound, "no loaded module has a kernel '" + kernel + "'");
  return it->second;
}

void SocAppDevice::launch(const std::string& kernel, const LaunchConfig& config,
                          const KernelArgs& args) {
  LaunchStats s;
  LaunchConfig c = config;
  c.stats = &s;
  const auto t0 = std::chrono::steady_clock::now();
  rt::Stream& stream = device_.default_stream();
  stream.launch(this->kernel(kernel), c, args);
  stream.synchronize();
  stats_.kernel_wall_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stats_.add(s);
}

void SocAppDevice::account(const LaunchStats& s) {
  stats_.add(s);
}

void SocAppDevice::account_copy(double ns, uint64_t h2d_bytes, uint64_t d2h_bytes) {
  stats_.copy_ns += ns;
  stats_.h2d_bytes += h2d_bytes;
  stats_.d2h_bytes += d2h_bytes;
}

}  // namespace gpusoc::apps
