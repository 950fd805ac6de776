// Streams (cuStream): an ordered queue of asynchronous work. Stream 0, the default stream, is
// channel 0; created streams take channels 1, 2, ... round-robin, wrapping onto channel 0, so
// when there are more streams than channels some share one and their work is serialized. Streams
// do not synchronize implicitly with each other (all behave like non-blocking CUDA streams);
// order them with events (record, wait). Move-only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "sw/runtime/buffers.h"
#include "sw/runtime/event.h"
#include "sw/runtime/kernel_args.h"
#include "sw/runtime/module.h"
#include "sw/runtime/types.h"

namespace gpusoc::rt {

class Context;

class Stream {
 public:
  Stream() = default;
  Stream(std::shared_ptr<Context> ctx, uint32_t id, uint32_t channel);
  Stream(Stream&&) noexcept = default;
  Stream& operator=(Stream&&) noexcept = default;

  uint32_t id() const { return id_; }
  uint32_t channel() const { return channel_; }
  bool valid() const { return ctx_ != nullptr; }

  // Copies return at once when the host side is pinned memory (a HostBuffer); with pageable
  // memory they are staged through pinned buffers and return when done (like cudaMemcpyAsync).
  void memcpy_htod(DevicePtr dst, const void* src, uint64_t bytes);
  void memcpy_dtoh(void* dst, DevicePtr src, uint64_t bytes);
  void memcpy_dtod(DevicePtr dst, DevicePtr src, uint64_t bytes);
  void memset_d8(DevicePtr dst, uint8_t value, uint64_t count);
  void memset_d16(DevicePtr dst, uint16_t value, uint64_t count);
  void memset_d32(DevicePtr dst, uint32_t value, uint64_t count);

  /// Queues a launch; arguments are checked against the kernel's parameters (count and sizes).
  /// `config.stats` is filled once the launch has completed and the stream been synchronized.
  void launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args);
  template <typename... Args>
  void launch(const Kernel& kernel, const LaunchConfig& config, const Args&... args) {
    launch(kernel, config, KernelArgs(args...));
  }
  template <typename... Args>
  void launch(const Kernel& kernel, Dim3 grid, Dim3 block, const Args&... args) {
    launch(kernel, LaunchConfig{grid, block}, KernelArgs(args...));
  }

  /// The event completes when everything queued on this stream before it has.
  void record(Event& event);
  /// Work queued on this stream after the call waits for the event (on the GPU, not the host).
  void wait(const Event& event);
  /// Waits for everything queued so far; reports an error recorded by the stream's channel.
  void synchronize();
  /// True when everything queued so far has completed (errors are left for synchronize).
  bool query() const;

 private:
  Context& ctx() const;
  std::shared_ptr<Context> ctx_;
  uint32_t id_ = 0;
  uint32_t channel_ = 0;
  std::string who_;
};

}  // namespace gpusoc::rt
