#include "sw/runtime/kernel_args.h"

#include <cstring>

#include <fmt/format.h>

#include "sw/runtime/status.h"

namespace gpusoc::rt {

void pack_arguments(const KernelInfo& kernel, const ArgView* args, size_t count, uint8_t* out) {
  if (count != kernel.params.size()) {
    throw Error(Status::InvalidValue,
                fmt::format("kernel {} takes {} parameter{}, the launch passes {} argument{}",
                            kernel.name, kernel.params.size(), kernel.params.size() == 1 ? "" : "s",
                            count, count == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < count; ++i) {
    if (args[i].bytes != kernel.params[i].bytes) {
      throw Error(Status::InvalidValue,
                  fmt::format("kernel {}: argument {} is {} bytes, its parameter is {} bytes",
                              kernel.name, i, args[i].bytes, kernel.params[i].bytes));
    }
  }
  if (kernel.param_buffer_bytes == 0) return;  // nothing to write (`out` may be null)
  std::memset(out, 0, kernel.param_buffer_bytes);
  for (size_t i = 0; i < count; ++i) {
    std::memcpy(out + kernel.params[i].offset, args[i].data, args[i].bytes);
  }
}

}  // namespace gpusoc::rt
