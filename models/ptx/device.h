// A functional GPU: load PTX modules, allocate and copy device memory, launch kernels and run
// them to completion with the PTX core. No timing, no SystemC. Used by the tests and benchmarks
// here and, later, underneath the SoC's SMs.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/ptx/simt_model.h"

#include "models/common/kernel_launch.h"
#include "models/tex/texture_objects.h"

namespace gpusoc::ptx {

// The launch types every device shares (models/common/kernel_launch.h).
using gpusoc::Dim3;
using gpusoc::KernelArgs;
using gpusoc::LaunchConfig;
using gpusoc::LaunchStats;

using DevicePtr = uint64_t;

/// Ends launches that would never end, with an ExecutionError reporting the CTA's warps: where
/// each is and what it waits for. 0 turns a limit off. The defaults are the configuration's
/// (gigathread.watchdog_*).
struct LaunchWatchdog {
  /// A warp that runs this many instructions without forward progress (Warp::progress_at: no
  /// store to global or shared memory, no atomic that changed memory, no barrier passed, no lane
  /// exiting) is stuck: an endless loop, or a spin on a flag nothing sets.
  uint64_t no_progress_instructions = uint64_t(1) << 24;
  /// Warp instructions a whole launch may run: the budget that ends endless kernels that do
  /// store as they go.
  uint64_t launch_instructions = 100'000'000'000;
};

/// Limits and identity of the functional device (taken from the configuration by callers).
struct DeviceOptions {
  uint32_t num_sms = 2;  // %nsmid; CTAs are spread over %smid round-robin
  /// The SM kernels' register counts are estimated for (register_pressure.h): sm_80's.
  uint32_t registers_per_sm = 65536;
  uint32_t max_threads_per_sm = 2048;
  uint32_t address_bits = 64;
  uint32_t max_threads_per_cta = 1024;
  uint32_t max_shared_bytes_per_cta = 48 * 1024;  // static + dynamic
  uint32_t reserved_shared_bytes_per_cta = 0;     // by the system, beyond the kernel's
  uint32_t stack_bytes_per_thread = 1024;         // local memory: frames, depots, call parameters
  uint64_t device_memory_bytes = 4ull << 30;      // what malloc may hand out
  LaunchWatchdog watchdog;
  /// How warps run divergent paths (simt_model.h); the bare core's default is the
  /// reconvergence stack without its deadlock watchdog.
  std::shared_ptr<const SimtModel> simt_model = default_simt_model();
  /// memcheck: every global and constant access of a kernel is checked against the live
  /// allocations and module variables; out of bounds (naming the nearest allocation and the
  /// offset), use after free and writes to .const variables end the launch with an
  /// ExecutionError before the access lands. Freed memory stays poisoned until malloc reuses it.
  bool memcheck = false;
  /// racecheck: shared-memory loads and stores of different warps of a CTA with no barrier
  /// between them end the launch with an ExecutionError naming both threads and lines.
  bool racecheck = false;
  /// Device printf output: one call per printf per thread, with the whole formatted text
  /// (newline included); lanes of a warp in lane order. By default it goes to standard output.
  std::function<void(const std::string&)> printf_sink;
  /// The largest texture objects create_array/create_texture accept.
  tex::Limits texture_limits;
};

/// A runtime fault of a kernel (trap, illegal address, misaligned access, stack overflow, ...):
/// the message names the kernel, the thread and block, the PTX line, and what went wrong.
class ExecutionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A launch the device refuses before running anything (bad dimensions, wrong arguments, ...).
class LaunchError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Program;   // a loaded, decoded module (program.h)
class Function;  // a decoded .entry or .func

/// Handle to a kernel (.entry) of a loaded module; valid while its device lives.
class Kernel {
 public:
  const std::string& name() const;
  /// Sizes in bytes of the kernel's parameters, in order.
  std::vector<uint32_t> param_sizes() const;
  const Function& function() const { return *fn_; }

 private:
  friend class FunctionalDevice;
  friend class Module;
  explicit Kernel(const Function* fn) : fn_(fn) {}
  const Function* fn_;
};

/// A loaded module; kernels looked up by (mangled) name.
class Module {
 public:
  /// The kernel `name` names: mangled, demangled, with template arguments or plain where unique
  /// (models/common/kernel_names.h). Throws LaunchError naming the module and listing the
  /// candidates when the name is ambiguous, or every kernel when it names none.
  Kernel kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  /// Address and size of a module-scope .global or .const variable (cuModuleGetGlobal);
  /// throws LaunchError naming the module when there is none of that name.
  std::pair<DevicePtr, uint64_t> global(std::string_view name) const;
  const Program& program() const { return *program_; }

 private:
  friend class FunctionalDevice;
  explicit Module(std::shared_ptr<const Program> p) : program_(std::move(p)) {}
  std::shared_ptr<const Program> program_;
};

class FunctionalDevice {
 public:
  explicit FunctionalDevice(DeviceOptions options = {});
  ~FunctionalDevice();
  FunctionalDevice(const FunctionalDevice&) = delete;
  FunctionalDevice& operator=(const FunctionalDevice&) = delete;

  /// Parse, check and load; throws ModuleLoadError (diagnostics.h) listing every problem.
  /// `ptxas_report`: the output of `ptxas -v` for this module (ptxas_report.h), whose exact
  /// register counts then replace the estimate; `report_name` names it in messages.
  Module load_module(std::string_view ptx_text, std::string name = "<memory>",
                     std::string_view ptxas_report = {}, std::string report_name = {});
  /// The same from a file; the ptxas report is `resource_path`, or else NAME.ptxas beside
  /// NAME.ptx when there is one.
  Module load_module_file(const std::string& path, const std::string& resource_path = {});

  DevicePtr malloc(uint64_t bytes);  // 256-byte aligned; throws std::bad_alloc when full
  void free(DevicePtr ptr);          // throws std::invalid_argument for a pointer not from malloc
  void copy_to_device(DevicePtr dst, const void* src, uint64_t bytes);
  void copy_to_host(void* dst, DevicePtr src, uint64_t bytes);
  void memset(DevicePtr dst, uint8_t value, uint64_t bytes);

  /// Arrays and texture and surface objects, as the runtime makes them (texture.h there):
  /// an array's memory (free it with free(resource.base)), and objects whose descriptors live in
  /// device memory. Bad descriptions throw std::invalid_argument naming the problem; destroying
  /// an object that is not live throws too.
  tex::Resource create_array(const tex::ArrayDesc& desc);
  uint64_t create_texture(const tex::Resource& resource, const tex::SamplerState& sampler);
  uint64_t create_surface(const tex::Resource& resource);
  void destroy_object(uint64_t handle);

  /// Checks the arguments against the kernel's parameters (count and sizes) and the dimensions
  /// against the device limits (LaunchError), then runs the grid to completion (ExecutionError)
  /// and fills `config.stats` when given.
  void launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args);
  template <typename... Args>
  void launch(const Kernel& kernel, const LaunchConfig& config, const Args&... args) {
    launch(kernel, config, KernelArgs(args...));
  }
  template <typename... Args>
  void launch(const Kernel& kernel, Dim3 grid, Dim3 block, const Args&... args) {
    launch(kernel, LaunchConfig{grid, block}, KernelArgs(args...));
  }

  // Typed conveniences for host code and tests.
  template <typename T>
  DevicePtr upload(const std::vector<T>& host) {
    DevicePtr p = malloc(host.empty() ? 1 : host.size() * sizeof(T));
    copy_to_device(p, host.data(), host.size() * sizeof(T));
    return p;
  }
  template <typename T>
  std::vector<T> download(DevicePtr src, size_t count) {
    std::vector<T> host(count);
    copy_to_host(host.data(), src, count * sizeof(T));
    return host;
  }

  const DeviceOptions& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusoc::ptx
