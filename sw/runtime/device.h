// The GPU as the host program opens it (a CUDA context on device 0). Opening enumerates PCI
// function 00:00.0 through ECAM, assigns its BARs in the host's MMIO window, enables memory
// decoding, bus mastering and MSI, checks BAR0's ID and VERSION, and sets up every command
// channel. Everything runs on the simulated host CPU: call it from the host program only, and
// destroy every runtime object before the program returns.
//
// Synchronous calls (memcpy_*, memset_*, synchronize, free) use the default stream and return
// when the GPU has finished; they also report errors of earlier asynchronous work on the channels
// they wait for, as CUDA does. Launches are always asynchronous.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "models/host/host_bus.h"
#include "sw/runtime/buffers.h"
#include "sw/runtime/event.h"
#include "sw/runtime/module.h"
#include "sw/runtime/status.h"
#include "sw/runtime/stream.h"
#include "sw/runtime/texture.h"
#include "sw/runtime/types.h"

namespace gpusoc::rt {

class Context;

struct MemoryInfo {
  uint64_t free_bytes = 0;
  uint64_t total_bytes = 0;
  uint64_t largest_free_block = 0;
};

class Device {
 public:
  /// Not opened: every call is Error(NotInitialized).
  Device() = default;
  /// Opens the GPU the host bus reaches. A second Device on a GPU that is open already shares
  /// the first's context, as CUDA's primary context is shared: one allocator, one set of
  /// modules and channels (its options must be the first's: Error(InvalidValue) otherwise).
  /// The GPU is closed when the last Device (and every object of theirs) is gone.
  explicit Device(host::HostBus& bus, const RuntimeOptions& options = {});
  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;
  ~Device();

  const DeviceProperties& properties() const;

  // ---- device memory: 256-byte aligned, first fit --------------------------------------------
  DevicePtr malloc(uint64_t bytes);
  /// Waits for outstanding work, then frees; Error(InvalidValue) for a pointer that is not the
  /// start of a live allocation.
  void free(DevicePtr ptr);
  MemoryInfo memory_info() const;
  template <typename T>
  DeviceBuffer<T> alloc(size_t count) {
    return DeviceBuffer<T>(context(), count);
  }
  /// Pinned host memory (zero-filled).
  template <typename T>
  HostBuffer<T> alloc_host(size_t count) {
    return HostBuffer<T>(context(), count);
  }

  // ---- arrays, texture and surface objects (texture.h) --------------------------------------
  Array create_array(const ArrayDesc& desc);
  /// Error(InvalidValue) naming the problem: a format or sampler CUDA refuses (linear filtering
  /// of integers read as integers), memory outside one live allocation, misalignment, sizes
  /// beyond the device's limits.
  TextureObject create_texture(const tex::Resource& resource, const TextureDesc& desc);
  TextureObject create_texture(const Array& array, const TextureDesc& desc) {
    return create_texture(array.resource(), desc);
  }
  /// Over an array allocated with kArraySurfaceLoadStore.
  SurfaceObject create_surface(const Array& array);

  // ---- synchronous copies and fills on the default stream ------------------------------------
  void memcpy_htod(DevicePtr dst, const void* src, uint64_t bytes);
  void memcpy_dtoh(void* dst, DevicePtr src, uint64_t bytes);
  void memcpy_dtod(DevicePtr dst, DevicePtr src, uint64_t bytes);
  void memset_d8(DevicePtr dst, uint8_t value, uint64_t count);
  void memset_d16(DevicePtr dst, uint16_t value, uint64_t count);
  void memset_d32(DevicePtr dst, uint32_t value, uint64_t count);

  // ---- modules ----------------------------------------------------------------------------
  /// Error(InvalidImage) with the loader's diagnostics when the PTX does not load.
  /// `ptxas_report`: the output of `ptxas -v` for this module, whose exact register counts the
  /// GPU then uses instead of its estimate (docs/commands.md, ModuleLoad).
  Module load_module(std::string_view ptx, const std::string& name = "<memory>",
                     std::string_view ptxas_report = {});
  /// The same from a file, with the ptxas report `resource_path`, or else NAME.ptxas beside
  /// NAME.ptx when there is one. Error(FileNotFound) when a file cannot be read.
  Module load_module_file(const std::string& path, const std::string& resource_path = {});

  // ---- streams, events, launches -----------------------------------------------------------
  Stream& default_stream();
  Stream create_stream();
  Event create_event();
  /// Queues a launch on the default stream (Stream::launch).
  template <typename... Args>
  void launch(const Kernel& kernel, const LaunchConfig& config, const Args&... args) {
    default_stream().launch(kernel, config, args...);
  }
  template <typename... Args>
  void launch(const Kernel& kernel, Dim3 grid, Dim3 block, const Args&... args) {
    default_stream().launch(kernel, grid, block, args...);
  }
  /// Waits for every stream; reports the first error any channel recorded.
  void synchronize();

 private:
  const std::shared_ptr<Context>& context() const;
  std::shared_ptr<Context> ctx_;
  Stream default_stream_;
};

}  // namespace gpusoc::rt
