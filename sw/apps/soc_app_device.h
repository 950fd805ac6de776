// Apps on the whole SoC: every call goes through the host runtime on the simulated host, so
// copies cross the PCIe link by DMA and kernels run on the SMs. Copy and kernel times are
// simulated: copies are bracketed by events, launches report their LaunchStatsRecord.
#pragma once

#include <map>
#include <vector>

#include "sw/apps/app_device.h"
#include "sw/runtime/runtime.h"

namespace gpusoc::apps {

class SocAppDevice : public AppDevice {
 public:
  explicit SocAppDevice(rt::Device& device);
  ~SocAppDevice() override;
  const char* backend() const override { return "soc"; }
  void load_file(const std::string& path, const std::string& ptxas_report = {}) override;
  std::string kernel_name(const std::string& kernel) override;
  std::vector<uint32_t> param_sizes(const std::string& kernel) override;
  DevicePtr malloc(uint64_t bytes) override;
  void copy_to_device(DevicePtr dst, const void* src, uint64_t bytes) override;
  void copy_to_host(void* dst, DevicePtr src, uint64_t bytes) override;
  void launch(const std::string& kernel, const LaunchConfig& config,
              const KernelArgs& args) override;
  tex::Resource create_array(const tex::ArrayDesc& desc) override;
  uint64_t create_texture(const tex::Resource& resource, const tex::SamplerState& s) override;
  uint64_t create_surface(const tex::Resource& array) override;

  /// For apps that use more of the runtime (streams, events).
  rt::Device& runtime() { return device_; }
  /// A kernel of a loaded file; Error(NotFound) naming it otherwise.
  rt::Kernel kernel(const std::string& name) const;
  /// Adds a launch's statistics (for apps that launch on their own streams).
  void account(const LaunchStats& stats);
  /// Adds a copy the app timed itself.
  void account_copy(double ns, uint64_t h2d_bytes, uint64_t d2h_bytes);

 private:
  template <typename Copy>
  void timed_copy(Copy&& copy, uint64_t h2d, uint64_t d2h);

  rt::Device& device_;
  std::map<std::string, rt::Module> modules_;  // by file
  std::vector<DevicePtr> allocations_;
  std::vector<rt::Array> arrays_;
  std::vector<rt::TextureObject> objects_;  // textures and surfaces
  rt::Event before_, after_;
};

}  // namespace gpusoc::apps
