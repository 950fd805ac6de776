// What an app runs on: the whole SoC through the host runtime (SocAppDevice), or the bare
// functional PTX core (FunctionalAppDevice). Apps allocate, copy, launch and verify through this
// one interface, so the same app serves `gpusoc run` on the SoC and the core-only benchmarks.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/common/kernel_launch.h"
#include "models/common/kernel_names.h"
#include "models/tex/texture_objects.h"

namespace gpusoc::apps {

using DevicePtr = uint64_t;

/// Path of a committed PTX file of the suite (sw/kernels).
std::string kernel_file(const std::string& file_name);

/// What an app's copies and launches cost, summed.
struct AppStats {
  uint64_t launches = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t ctas = 0;
  uint64_t warps = 0;
  double kernel_ns = 0;  // simulated time from first CTA start to last CTA end, per launch (SoC)
  double copy_ns = 0;    // simulated time of host<->device copies (SoC)
  uint64_t h2d_bytes = 0;
  uint64_t d2h_bytes = 0;
  double resident_warp_ns = 0;  // integral of resident warps over the launches' time
  double capacity_warp_ns = 0;  // what the SMs could have held over that time
  double kernel_wall_s = 0;     // host time spent inside launches
  double achieved_occupancy() const {
    return capacity_warp_ns > 0 ? resident_warp_ns / capacity_warp_ns : 0;
  }
  /// Adds one launch's statistics.
  void add(const LaunchStats& s) {
    ++launches;
    warp_instructions += s.warp_instructions;
    thread_instructions += s.thread_instructions;
    ctas += s.ctas;
    warps += s.warps;
    kernel_ns += s.kernel_ns();
    resident_warp_ns += s.resident_warp_ns;
    capacity_warp_ns += double(s.max_resident_warps) * s.kernel_ns();
  }
};

class AppDevice {
 public:
  virtual ~AppDevice() = default;
  virtual const char* backend() const = 0;  // "soc" or "functional"
  /// Loads a PTX file of sw/kernels once; kernels are then found by name.
  void load(const std::string& file_name) { load_file(kernel_file(file_name)); }
  /// Loads a PTX file once, with `ptxas_report` (or NAME.ptxas beside it) for exact registers.
  virtual void load_file(const std::string& path, const std::string& ptxas_report = {}) = 0;
  /// Kernels are named as Module::kernel names them (mangled, demangled, plain where unique).
  /// The name a loaded kernel goes by, and the sizes of its parameters; an error listing the
  /// candidates when no loaded module or several kernels answer to `kernel`.
  virtual std::string kernel_name(const std::string& kernel) = 0;
  virtual std::vector<uint32_t> param_sizes(const std::string& kernel) = 0;
  virtual DevicePtr malloc(uint64_t bytes) = 0;
  virtual void copy_to_device(DevicePtr dst, const void* src, uint64_t bytes) = 0;
  virtual void copy_to_host(void* dst, DevicePtr src, uint64_t bytes) = 0;
  /// Runs a kernel to completion; the arguments are checked against its parameters.
  virtual void launch(const std::string& kernel, const LaunchConfig& config,
                      const KernelArgs& args) = 0;

  /// Arrays and texture and surface objects (CUDA's object API; models/tex/texture_objects.h).
  /// They live as long as the device; the handles go to kernels as 64-bit arguments.
  virtual tex::Resource create_array(const tex::ArrayDesc& desc) = 0;
  virtual uint64_t create_texture(const tex::Resource& resource, const tex::SamplerState& s) = 0;
  virtual uint64_t create_surface(const tex::Resource& array) = 0;
  /// Copies a whole array (every row of every slice, layer or face) from or to packed host rows.
  void upload_array(const tex::Resource& array, const void* host);
  void download_array(const tex::Resource& array, void* host);

  const AppStats& stats() const { return stats_; }

  template <typename T>
  DevicePtr upload(const std::vector<T>& host) {
    const DevicePtr p = malloc(host.empty() ? 1 : host.size() * sizeof(T));
    if (!host.empty()) copy_to_device(p, host.data(), host.size() * sizeof(T));
    return p;
  }
  template <typename T>
  std::vector<T> download(DevicePtr src, size_t count) {
    std::vector<T> host(count);
    if (count) copy_to_host(host.data(), src, count * sizeof(T));
    return host;
  }
  template <typename... Args>
  void run(const std::string& kernel, const LaunchConfig& config, const Args&... args) {
    launch(kernel, config, KernelArgs(args...));
  }

 protected:
  /// Finds `kernel` in `modules` (by file), which map to something with kernel_names():
  /// the module and the kernel's index there. Throws what `not_found` makes of the problem.
  template <typename Modules, typename Error>
  static std::pair<const typename Modules::mapped_type*, size_t> find(const Modules& modules,
                                                                      const std::string& kernel,
                                                                      Error not_found) {
    std::string problem = "no module is loaded";
    for (const auto& [file, module] : modules) {
      const KernelLookup found = find_kernel(module.kernel_names(), kernel, file);
      if (found.index != KernelLookup::kNotFound) return {&module, found.index};
      problem = found.problem;
    }
    throw not_found(problem);
  }

  AppStats stats_;
};

}  // namespace gpusoc::apps
