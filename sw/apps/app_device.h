// What an app runs on: the whole SoC through the host runtime (SocAppDevice), or the bare
// functional PTX core (FunctionalAppDevice). Apps allocate, copy, launch and verify through this
// one interface, so the same app serves `gpusoc run` on the SoC and the core-only benchmarks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/kernel_launch.h"

namespace gpusoc::apps {

using DevicePtr = uint64_t;

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
  virtual void load(const std::string& file_name) = 0;
  virtual DevicePtr malloc(uint64_t bytes) = 0;
  virtual void copy_to_device(DevicePtr dst, const void* src, uint64_t bytes) = 0;
  virtual void copy_to_host(void* dst, DevicePtr src, uint64_t bytes) = 0;
  /// Runs a kernel to completion; the arguments are checked against its parameters.
  virtual void launch(const std::string& kernel, const LaunchConfig& config,
                      const KernelArgs& args) = 0;

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
  AppStats stats_;
};

/// Path of a committed PTX file of the suite (sw/kernels).
std::string kernel_file(const std::string& file_name);

}  // namespace gpusoc::apps
