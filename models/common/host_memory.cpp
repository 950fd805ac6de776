#include "models/common/host_memory.h"

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc {
namespace {

std::atomic<uint64_t> claimed{0};

uint64_t physical_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t(8) << 30;
}

uint64_t read_budget() {
  if (const char* text = std::getenv("GPUSOC_HOST_MEMORY_BUDGET")) {
    uint64_t bytes = 0;
    const char* end = text + std::strlen(text);
    const auto [stop, ec] = std::from_chars(text, end, bytes);
    if (ec != std::errc() || stop != end || bytes == 0)
      throw ConfigError(
          fmt::format("GPUSOC_HOST_MEMORY_BUDGET '{}': expected a positive number of bytes", text));
    return bytes;
  }
  return physical_bytes() / 2;
}

std::string gib(uint64_t bytes) {
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, units[unit]);
}

}  // namespace

HostMemoryClaim::HostMemoryClaim(const std::string& key, uint64_t value, uint64_t bytes) {
  const uint64_t budget = budget_bytes();
  const uint64_t before = claimed.fetch_add(bytes);
  if (before + bytes > budget || before + bytes < before) {
    claimed.fetch_sub(bytes);
    throw ConfigError(fmt::format(
        "{} = {}: the model would need {} of host memory for it ({} in all with the rest of the "
        "configuration), more than the {} it may take (half of this host's memory, or "
        "GPUSOC_HOST_MEMORY_BUDGET)",
        key, value, gib(bytes), gib(before + bytes), gib(budget)));
  }
  bytes_ = bytes;
}

HostMemoryClaim::~HostMemoryClaim() {
  claimed.fetch_sub(bytes_);
}

HostMemoryClaim::HostMemoryClaim(HostMemoryClaim&& other) noexcept : bytes_(other.bytes_) {
  other.bytes_ = 0;
}

HostMemoryClaim& HostMemoryClaim::operator=(HostMemoryClaim&& other) noexcept {
  if (this != &other) {
    claimed.fetch_sub(bytes_);
    bytes_ = other.bytes_;
    other.bytes_ = 0;
  }
  return *this;
}

uint64_t HostMemoryClaim::claimed_bytes() {
  return claimed.load();
}

uint64_t HostMemoryClaim::budget_bytes() {
  return read_budget();
}

}  // namespace gpusoc
