#include "models/common/kernel_launch.h"

#include <fmt/format.h>

namespace gpusoc {

void KernelArgs::push_bytes(const void* data, size_t bytes) {
  begin_.push_back(data_.size());
  const auto* p = static_cast<const uint8_t*>(data);
  data_.insert(data_.end(), p, p + bytes);
}

std::string KernelArgs::mismatch(const std::string& kernel,
                                 const std::vector<uint32_t>& sizes) const {
  if (size() != sizes.size()) {
    return fmt::format("kernel {} takes {} parameter{}, the launch passes {} argument{}", kernel,
                       sizes.size(), sizes.size() == 1 ? "" : "s", size(), size() == 1 ? "" : "s");
  }
  for (size_t i = 0; i < size(); ++i) {
    if (bytes(i) != sizes[i]) {
      return fmt::format("kernel {}: argument {} is {} bytes, its parameter is {} bytes", kernel, i,
                         bytes(i), sizes[i]);
    }
  }
  return {};
}

void KernelArgs::pack(const std::vector<uint32_t>& offsets, uint8_t* out,
                      size_t buffer_bytes) const {
  if (buffer_bytes == 0) return;  // nothing to write (`out` may be null)
  std::memset(out, 0, buffer_bytes);
  for (size_t i = 0; i < size() && i < offsets.size(); ++i)
    std::memcpy(out + offsets[i], data(i), bytes(i));
}

}  // namespace gpusoc
