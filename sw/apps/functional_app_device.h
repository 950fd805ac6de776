// Apps on the bare functional PTX core: no SoC, no simulated time; instruction counts and host
// time only. The core-only benchmarks (ptx_*) use it.
#pragma once

#include <map>
#include <vector>

#include "models/ptx/device.h"
#include "sw/apps/app_device.h"

namespace gpusoc::apps {

class FunctionalAppDevice : public AppDevice {
 public:
  explicit FunctionalAppDevice(ptx::DeviceOptions options = {});
  const char* backend() const override { return "functional"; }
  void load_file(const std::string& path, const std::string& ptxas_report = {}) override;
  std::string kernel_name(const std::string& kernel) override;
  std::vector<uint32_t> param_sizes(const std::string& kernel) override;
  DevicePtr malloc(uint64_t bytes) override;
  void copy_to_device(DevicePtr dst, const void* src, uint64_t bytes) override;
  void copy_to_host(void* dst, DevicePtr src, uint64_t bytes) override;
  void launch(const std::string& kernel, const LaunchConfig& config,
              const KernelArgs& args) override;
  tex::Resource create_array(const tex::ArrayDesc& desc) override {
    return device_.create_array(desc);
  }
  uint64_t create_texture(const tex::Resource& resource, const tex::SamplerState& s) override {
    return device_.create_texture(resource, s);
  }
  uint64_t create_surface(const tex::Resource& array) override {
    return device_.create_surface(array);
  }

 private:
  ptx::Kernel find(const std::string& kernel) const;

  ptx::FunctionalDevice device_;
  std::map<std::string, ptx::Module> modules_;  // by file
};

}  // namespace gpusoc::apps
