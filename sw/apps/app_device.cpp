#include "sw/apps/app_device.h"

namespace gpusoc::apps {

std::string kernel_file(const std::string& file_name) {
  return std::string(GPUSOC_KERNEL_DIR) + "/" + file_name;
}

void AppDevice::upload_array(const tex::Resource& a, const void* host) {
  const auto* src = static_cast<const uint8_t*>(host);
  tex::for_each_row_span(a.array, a.array.row_bytes, [&](uint64_t at, uint64_t from, uint64_t n) {
    copy_to_device(a.base + at, src + from, n);
  });
}

void AppDevice::download_array(const tex::Resource& a, void* host) {
  auto* dst = static_cast<uint8_t*>(host);
  tex::for_each_row_span(a.array, a.array.row_bytes, [&](uint64_t at, uint64_t to, uint64_t n) {
    copy_to_host(dst + to, a.base + at, n);
  });
}

}  // namespace gpusoc::apps
