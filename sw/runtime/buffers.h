// RAII buffers: DeviceBuffer<T> owns device memory (cuMemAlloc), HostBuffer<T> owns pinned host
// memory (cuMemAllocHost) that the program fills through data() and that asynchronous copies
// need. Both are move-only; a moved-from buffer is empty and using it is Error(InvalidHandle).
// Freeing waits for outstanding GPU work first (as cudaFree does), so memory is never reused
// under a running copy or kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "sw/runtime/kernel_args.h"
#include "sw/runtime/types.h"

namespace gpusoc::rt {

class Context;

namespace detail {
DevicePtr device_alloc(Context& ctx, uint64_t bytes);
/// Never throws: a failure is reported by the next synchronizing call.
void device_free(Context& ctx, DevicePtr ptr) noexcept;
std::pair<uint64_t, uint8_t*> host_alloc(Context& ctx, uint64_t bytes);  // address, pointer
void host_free(Context& ctx, uint64_t address) noexcept;
void copy_to_device(Context& ctx, DevicePtr dst, const void* src, uint64_t bytes);
void copy_to_host(Context& ctx, void* dst, DevicePtr src, uint64_t bytes);
uint64_t array_bytes(size_t count, size_t element_bytes, const char* what);
void check_count(size_t given, size_t expected, const char* what);  // Error(InvalidValue)
[[noreturn]] void empty_handle(const char* what);
}  // namespace detail

template <typename T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold plain data");

 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::shared_ptr<Context> ctx, size_t count)
      : ctx_(std::move(ctx)),
        ptr_(detail::device_alloc(*ctx_, detail::array_bytes(count, sizeof(T), "DeviceBuffer"))),
        count_(count) {}
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer(std::move(other)).swap(*this);
    return *this;
  }
  ~DeviceBuffer() { reset(); }

  bool valid() const { return ctx_ != nullptr; }
  /// The device address (Error(InvalidHandle) when empty).
  DevicePtr ptr() const { return ptr_ref(); }
  const DevicePtr& ptr_ref() const {
    if (!valid()) detail::empty_handle("DeviceBuffer");
    return ptr_;
  }
  size_t size() const { return count_; }
  uint64_t bytes() const { return uint64_t(count_) * sizeof(T); }
  /// Frees the memory now.
  void reset() noexcept {
    if (ctx_) detail::device_free(*ctx_, ptr_);
    ctx_.reset();
    ptr_ = 0;
    count_ = 0;
  }

  /// Synchronous copies of the whole buffer on the default stream.
  void upload(const std::vector<T>& host) {
    const DevicePtr dst = ptr();
    detail::check_count(host.size(), count_, "DeviceBuffer::upload");
    detail::copy_to_device(*ctx_, dst, host.data(), bytes());
  }
  std::vector<T> download() const {
    const DevicePtr src = ptr();
    std::vector<T> host(count_);
    detail::copy_to_host(*ctx_, host.data(), src, bytes());
    return host;
  }

 private:
  void swap(DeviceBuffer& o) noexcept {
    std::swap(ctx_, o.ctx_);
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
  }
  std::shared_ptr<Context> ctx_;
  DevicePtr ptr_ = 0;
  size_t count_ = 0;
};

/// A DeviceBuffer passed to a kernel is its device pointer.
template <typename T>
DevicePtr kernel_argument(const DeviceBuffer<T>& buffer) {
  return buffer.ptr();
}

template <typename T>
class HostBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "pinned buffers hold plain data");

 public:
  HostBuffer() = default;
  HostBuffer(std::shared_ptr<Context> ctx, size_t count) : ctx_(std::move(ctx)), count_(count) {
    const auto [address, pointer] =
        detail::host_alloc(*ctx_, detail::array_bytes(count, sizeof(T), "HostBuffer"));
    address_ = address;
    data_ = reinterpret_cast<T*>(pointer);
  }
  HostBuffer(HostBuffer&& other) noexcept { swap(other); }
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    HostBuffer(std::move(other)).swap(*this);
    return *this;
  }
  ~HostBuffer() { reset(); }

  bool valid() const { return ctx_ != nullptr; }
  T* data() const {
    if (!valid()) detail::empty_handle("HostBuffer");
    return data_;
  }
  T& operator[](size_t i) const { return data()[i]; }
  T* begin() const { return data(); }
  T* end() const { return data() + count_; }
  size_t size() const { return count_; }
  uint64_t bytes() const { return uint64_t(count_) * sizeof(T); }
  /// The host physical address the GPU uses.
  uint64_t address() const {
    if (!valid()) detail::empty_handle("HostBuffer");
    return address_;
  }
  void reset() noexcept {
    if (ctx_) detail::host_free(*ctx_, address_);
    ctx_.reset();
    data_ = nullptr;
    address_ = 0;
    count_ = 0;
  }

 private:
  void swap(HostBuffer& o) noexcept {
    std::swap(ctx_, o.ctx_);
    std::swap(data_, o.data_);
    std::swap(address_, o.address_);
    std::swap(count_, o.count_);
  }
  std::shared_ptr<Context> ctx_;
  T* data_ = nullptr;
  uint64_t address_ = 0;
  size_t count_ = 0;
};

}  // namespace gpusoc::rt
