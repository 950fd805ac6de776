// The runtime's state for one opened GPU, shared by the Device and every handle made from it
// (buffers, modules, streams, events keep it alive). Not part of the public API: the public types
// (device.h, stream.h, ...) check their arguments and call in here.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/host/host_bus.h"
#include "sw/runtime/bar0.h"
#include "sw/runtime/channel.h"
#include "sw/runtime/interrupt_waiter.h"
#include "sw/runtime/kernel_args.h"
#include "sw/runtime/module_image.h"
#include "sw/runtime/pinned_memory.h"
#include "sw/runtime/device_heap.h"
#include "sw/runtime/range_allocator.h"
#include "sw/runtime/texture_objects.h"
#include "sw/runtime/types.h"

namespace gpusoc::rt {

/// A loaded module as its handles see it; `loaded` turns false at unload.
struct ModuleState {
  std::string name;
  uint32_t id = 0;
  std::vector<KernelInfo> kernels;
  std::vector<GlobalInfo> globals;
  bool loaded = false;
};

class Context {
 public:
  /// Enumerates and opens the GPU (see device.h); throws Error(InvalidDevice) and friends.
  Context(host::HostBus& bus, const RuntimeOptions& options);
  /// Waits for outstanding work, unloads nothing (modules unload themselves), disables the
  /// channels and masks interrupts. Never throws.
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  host::HostBus& bus() { return bus_; }
  const RuntimeOptions& options() const { return options_; }
  const DeviceProperties& properties() const { return properties_; }
  PinnedMemory& pinned() { return *pinned_; }
  DeviceHeap& vram() { return *vram_; }
  /// A device allocation for the program (cudaMalloc); announced to the memory checker in
  /// memcheck mode, which then lets kernels touch it.
  DevicePtr allocate_device(uint64_t bytes);
  /// Texture and surface objects (texture.h).
  TextureObjects& textures() { return textures_; }
  Channel& channel(uint32_t index) { return *channels_[index]; }
  uint32_t num_channels() const { return uint32_t(channels_.size()); }
  /// A new stream's id and channel: ids count from 1; channels go round-robin from channel 1.
  std::pair<uint32_t, uint32_t> assign_stream();

  /// CPU time to copy `bytes` with memcpy at RuntimeOptions::host_copy_gbytes_per_s.
  sc_core::sc_time cpu_copy_time(uint64_t bytes) const;
  /// A pinned block for an operation's temporaries; waits for channels to retire theirs when
  /// pinned memory is full, then Error(OutOfMemory).
  PinnedMemory::Block pinned_temporary(uint64_t bytes);
  /// Free after waiting for outstanding work (as cudaFree): memory is never reused under a
  /// running copy or kernel. A wait that fails still frees, then throws.
  void free_device(DevicePtr ptr);
  void free_pinned(uint64_t address);
  /// Frees a pinned block once each (channel, sequence number) has completed.
  void release_pinned_after(uint64_t address, std::vector<std::pair<uint32_t, uint64_t>> uses);
  /// Frees the temporaries and released blocks of completed operations.
  void reclaim();

  /// Error(InvalidValue) naming `what` unless [ptr, ptr + bytes) lies within one live device
  /// allocation or one global of a loaded module.
  void check_device_range(DevicePtr ptr, uint64_t bytes, const char* what) const;

  // Operations on a channel; `who` names the stream in descriptions and errors. `wait` makes the
  // call synchronous (it returns when the operation completed and reports channel errors).
  void memcpy_htod(Channel& ch, const std::string& who, DevicePtr dst, const void* src,
                   uint64_t bytes, bool wait);
  void memcpy_dtoh(Channel& ch, const std::string& who, void* dst, DevicePtr src, uint64_t bytes,
                   bool wait);
  void memcpy_dtod(Channel& ch, const std::string& who, DevicePtr dst, DevicePtr src,
                   uint64_t bytes, bool wait);
  void memset(Channel& ch, const std::string& who, DevicePtr dst, uint32_t value,
              uint32_t element_bytes, uint64_t count, bool wait);
  void launch(Channel& ch, const std::string& who, const KernelInfo& kernel,
              const LaunchConfig& config, const KernelArgs& args);

  std::shared_ptr<ModuleState> load_module(std::string_view ptx, const std::string& name,
                                           std::string_view ptxas_report = {});
  void unload_module(ModuleState& module);

  /// Waits for the channel's work, then report()s.
  void finish(Channel& ch, const std::string& who);
  /// Throws the channel's recorded error, an error a destructor deferred, or a device error, in
  /// that order (each is cleared once thrown).
  void report(Channel& ch);
  /// finish() for every channel; the first error found is thrown (all are cleared).
  void synchronize();
  /// For destructors, which must not throw: the error is logged and thrown by the next
  /// synchronizing call instead.
  void defer(const Error& error);
  /// Waits for every channel without reporting errors (they stay for the next synchronizing
  /// call): before memory is reused.
  void drain();

 private:
  void open();
  void check_options() const;
  void open_channels();
  void close() noexcept;
  void staged_htod(Channel& ch, const std::string& who, const std::string& what, DevicePtr dst,
                   const uint8_t* src, uint64_t bytes);
  void staged_dtoh(Channel& ch, const std::string& who, const std::string& what, uint8_t* dst,
                   DevicePtr src, uint64_t bytes);
  const PinnedMemory::Block& staging(int index);
  /// Where a module's PTX and ptxas report were copied to.
  struct ModuleText {
    DevicePtr address;
    uint64_t bytes;
    DevicePtr report_address;  // 0: none
    uint64_t report_bytes;
    DevicePtr name_address;  // NUL-terminated
  };
  ModuleLoadReport run_module_load(Channel& ch, const std::string& who, const ModuleText& module,
                                   uint64_t result_bytes);
  void throw_pending();
  /// Tells the GPU's memory checker (bar0::MC_*) about a region; Error(DeviceError) if refused.
  void announce(uint32_t command, DevicePtr address, uint64_t bytes);

  host::HostBus& bus_;
  RuntimeOptions options_;
  DeviceProperties properties_;
  std::unique_ptr<Bar0> bar0_;
  std::unique_ptr<InterruptWaiter> waiter_;
  std::unique_ptr<PinnedMemory> pinned_;
  std::unique_ptr<DeviceHeap> vram_;
  std::vector<std::unique_ptr<Channel>> channels_;
  PinnedMemory::Block staging_[2];
  uint32_t next_stream_ = 1;
  std::optional<Error> deferred_;
  struct GlobalRange {
    uint64_t bytes;
    std::string name;
  };
  std::map<DevicePtr, GlobalRange> globals_;  // of loaded modules, by address
  struct Released {
    uint64_t address;
    std::vector<std::pair<uint32_t, uint64_t>> uses;
  };
  std::vector<Released> released_;
  TextureObjects textures_{*this};
};

}  // namespace gpusoc::rt
