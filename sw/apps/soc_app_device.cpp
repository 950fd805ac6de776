#include "sw/apps/soc_app_device.h"

#include <chrono>

namespace gpusoc::apps {

SocAppDevice::SocAppDevice(rt::Device& device)
    : device_(device),
      before_(device.create_event()),
      after_(device.create_event()) {}

SocAppDevice::~SocAppDevice() {
  objects_.clear();  // before the memory they read
  arrays_.clear();
  for (DevicePtr p : allocations_) device_.free(p);
}

tex::Resource SocAppDevice::create_array(const tex::ArrayDesc& desc) {
  arrays_.push_back(device_.create_array(desc));
  return arrays_.back().resource();
}

uint64_t SocAppDevice::create_texture(const tex::Resource& resource, const tex::SamplerState& s) {
  rt::TextureDesc desc;
  desc.address = s.address;
  desc.filter = s.filter;
  desc.read = s.normalized_read ? rt::ReadMode::NormalizedFloat : rt::ReadMode::ElementType;
  desc.normalized_coords = s.normalized_coords;
  objects_.push_back(device_.create_texture(resource, desc));
  return objects_.back().handle();
}

uint64_t SocAppDevice::create_surface(const tex::Resource& array) {
  for (const rt::Array& a : arrays_)
    if (a.resource().base == array.base) {
      objects_.push_back(device_.create_surface(a));
      return objects_.back().handle();
    }
  throw rt::Error(rt::Status::InvalidValue, "create_surface: not an array of this device");
}

void SocAppDevice::load_file(const std::string& path, const std::string& ptxas_report) {
  if (!modules_.count(path)) modules_.emplace(path, device_.load_module_file(path, ptxas_report));
}

std::string SocAppDevice::kernel_name(const std::string& kernel) {
  return this->kernel(kernel).name();
}

std::vector<uint32_t> SocAppDevice::param_sizes(const std::string& kernel) {
  std::vector<uint32_t> sizes;
  for (const cmd::ParamEntry& p : this->kernel(kernel).info().params) sizes.push_back(p.bytes);
  return sizes;
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

rt::Kernel SocAppDevice::kernel(const std::string& kernel) const {
  const auto [module, index] = AppDevice::find(modules_, kernel, [](const std::string& why) {
    return rt::Error(rt::Status::NotFound, why);
  });
  return module->kernel(module->kernel_names()[index]);
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
  if (config.stats) *config.stats = s;
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
