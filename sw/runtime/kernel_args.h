// Typed kernel arguments, laid out in the kernel's parameter buffer at the offsets the module
// loader reported. Each argument must have exactly the size of its parameter (pass int32_t for
// .u32/.s32, float for .f32, DevicePtr or a DeviceBuffer for pointers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sw/runtime/module_image.h"

namespace gpusoc::rt {

/// The bytes of one argument.
struct ArgView {
  const void* data = nullptr;
  size_t bytes = 0;
};

/// Overloaded for handle types (DeviceBuffer passes its device pointer); found by ADL.
template <typename T>
ArgView arg_view(const T& value) {
  static_assert(std::is_trivially_copyable_v<T>, "kernel arguments are passed by value");
  static_assert(!std::is_pointer_v<T>,
                "a host pointer is not a kernel argument: pass a DevicePtr or a DeviceBuffer");
  return ArgView{&value, sizeof(T)};
}

/// Writes the arguments into `out` (kernel.param_buffer_bytes long; the gaps are zeroed). Throws
/// Error(InvalidValue) naming the kernel when the count differs from its parameters, or naming
/// the argument index and both sizes when one does not match its parameter.
void pack_arguments(const KernelInfo& kernel, const ArgView* args, size_t count, uint8_t* out);

}  // namespace gpusoc::rt
