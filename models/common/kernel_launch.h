// The types a host program launches kernels with, the same on the bare functional core
// (ptx::FunctionalDevice) and on the SoC through the runtime (rt::Device, rt::Stream): grid and
// block dimensions, the launch configuration, the arguments, and the statistics of a launch.
//
//   gpusoc::LaunchStats stats;
//   device.launch(kernel, gpusoc::LaunchConfig{grid, block, 0, &stats}, n, 2.0f, x, y);
//   // after the launch has completed (the functional core: at once; the SoC: once the stream
//   // is synchronized), `stats` holds its instructions, CTAs, warps and simulated time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace gpusoc {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  constexpr Dim3() = default;
  constexpr Dim3(uint32_t x_, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr uint64_t count() const { return uint64_t(x) * y * z; }
  constexpr bool exceeds(const Dim3& limit) const {
    return x > limit.x || y > limit.y || z > limit.z;
  }
};

/// The largest block and grid of the CUDA programming model, which every GPU here enforces.
constexpr Dim3 kMaxBlock{1024, 1024, 64};
constexpr Dim3 kMaxGrid{0x7FFFFFFF, 65535, 65535};

/// What one launch did. The simulated times are 0 on the functional core, which has no time.
struct LaunchStats {
  uint64_t warp_instructions = 0;    // warp-level instructions issued (predicated-off included)
  uint64_t thread_instructions = 0;  // sum over instructions of active, guard-true lanes
  uint64_t ctas = 0;
  uint64_t warps = 0;
  double start_ns = 0;              // simulated time the first CTA started
  double end_ns = 0;                // and the last one finished
  double resident_warp_ns = 0;      // integral of resident warps over that time
  uint64_t max_resident_warps = 0;  // what the SMs could hold at once for this kernel
  double kernel_ns() const { return end_ns - start_ns; }
  /// Resident warps over what the SMs could hold, averaged over the launch; 0 without time.
  double achieved_occupancy() const {
    const double capacity = double(max_resident_warps) * kernel_ns();
    return capacity > 0 ? resident_warp_ns / capacity : 0;
  }
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  uint32_t dynamic_shared_bytes = 0;
  /// Filled with the launch's statistics once it has completed; null: not wanted.
  LaunchStats* stats = nullptr;
};

/// What a kernel argument passes: the value itself. Handle types (rt::DeviceBuffer) overload it
/// in their own namespace to pass what they hold (found by argument-dependent lookup).
template <typename T>
const T& kernel_argument(const T& value) {
  return value;
}

/// Kernel arguments by value, in declaration order: each must have exactly its parameter's
/// size (int32_t for .u32/.s32, float for .f32, a 64-bit device pointer or a device buffer for
/// pointers).
class KernelArgs {
 public:
  KernelArgs() = default;
  template <typename... Args>
  explicit KernelArgs(const Args&... args) {
    (push(args), ...);
  }
  template <typename T>
  void push(const T& arg) {
    const auto& value = kernel_argument(arg);
    using V = std::decay_t<decltype(value)>;
    static_assert(std::is_trivially_copyable_v<V>, "kernel arguments are passed by value");
    static_assert(!std::is_pointer_v<V>,
                  "a host pointer is not a kernel argument: pass a device pointer (uint64_t) or a "
                  "device buffer");
    push_bytes(&value, sizeof(V));
  }
  void push_bytes(const void* data, size_t bytes);

  size_t size() const { return begin_.size(); }
  size_t bytes(size_t i) const {
    return (i + 1 < begin_.size() ? begin_[i + 1] : data_.size()) - begin_[i];
  }
  const uint8_t* data(size_t i) const { return data_.data() + begin_[i]; }

  /// Why these arguments do not fit kernel `kernel`'s parameters of `sizes` bytes (the count,
  /// or the first argument of another size); empty when they do.
  std::string mismatch(const std::string& kernel, const std::vector<uint32_t>& sizes) const;
  /// Lays the arguments out at `offsets` in a parameter buffer of `buffer_bytes`, gaps zeroed.
  /// The arguments must fit (mismatch() empty).
  void pack(const std::vector<uint32_t>& offsets, uint8_t* out, size_t buffer_bytes) const;

 private:
  std::vector<uint8_t> data_;
  std::vector<size_t> begin_;
};

}  // namespace gpusoc
