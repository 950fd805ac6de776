#include "sw/apps/app_device.h"

namespace gpusoc::apps {

std::string kernel_file(const std::string& file_name) {
  return std::string(GPUSOC_KERNEL_DIR) + "/" + file_name;
}

void AppDevice::upload_array(const tex::Resource& a, const void* host) {
  const tex::ArrayLayout& l = a.array;
  const auto* src = static_cast<const uint8_t*>(host);
  if (l.row_pitch == l.row_bytes) return copy_to_device(a.base, src, l.bytes);
  for (uint64_t row = 0; row < l.rows(); ++row)
    copy_to_device(a.base + row * l.row_pitch, src + row * l.row_bytes, l.row_bytes);
}

void AppDevice::download_array(const tex::Resource& a, void* host) {
  const tex::ArrayLayout& l = a.array;
  auto* dst = static_cast<uint8_t*>(host);
  if (l.row_pitch == l.row_bytes) return copy_to_host(dst, a.base, l.bytes);
  for (uint64_t row = 0; row < l.rows(); ++row)
    copy_to_host(dst + row * l.row_bytes, a.base + row * l.row_pitch, l.row_bytes);
}

}  // namespace gpusoc::apps
