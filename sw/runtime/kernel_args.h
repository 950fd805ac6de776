// Kernel arguments (gpusoc::KernelArgs) laid out in the kernel's parameter buffer at the offsets
// the module loader reported.
#pragma once

#include <cstdint>

#include "models/common/kernel_launch.h"
#include "sw/runtime/module_image.h"

namespace gpusoc::rt {

/// Writes the arguments into `out` (kernel.param_buffer_bytes long; the gaps are zeroed). Throws
/// Error(InvalidValue) naming the kernel when the count differs from its parameters, or naming
/// the argument index and both sizes when one does not match its parameter.
void pack_arguments(const KernelInfo& kernel, const KernelArgs& args, uint8_t* out);

}  // namespace gpusoc::rt
