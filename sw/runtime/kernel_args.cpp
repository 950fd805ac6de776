#include "sw/runtime/kernel_args.h"

#include "sw/runtime/status.h"

namespace gpusoc::rt {

void pack_arguments(const KernelInfo& kernel, const KernelArgs& args, uint8_t* out) {
  std::vector<uint32_t> sizes, offsets;
  for (const cmd::ParamEntry& p : kernel.params) {
    sizes.push_back(p.bytes);
    offsets.push_back(p.offset);
  }
  if (const std::string why = args.mismatch(kernel.name, sizes); !why.empty())
    throw Error(Status::InvalidValue, why);
  args.pack(offsets, out, kernel.param_buffer_bytes);
}

}  // namespace gpusoc::rt
