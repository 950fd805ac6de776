// Host memory the model takes for state that grows with a simulated structure's size (cache
// tags, for instance). Each such structure holds a HostMemoryClaim for as long as it lives; a
// claim that would take the process's claims past the budget is refused with a ConfigError naming
// the parameter and the memory needed, before anything is allocated. A configuration within every
// declared range can still describe more state than the host holds (a V100 with 1 GiB L2 slices):
// it ends in a clear error, not in the kernel's OOM killer.
//
// The budget is half of the host's physical memory, or GPUSOC_HOST_MEMORY_BUDGET (bytes) when set.
#pragma once

#include <cstdint>
#include <string>

namespace gpusoc {

class HostMemoryClaim {
 public:
  HostMemoryClaim() = default;
  /// `key` is the parameter whose value sets `bytes` (e.g. "l2.size_bytes"), `value` its value.
  HostMemoryClaim(const std::string& key, uint64_t value, uint64_t bytes);
  ~HostMemoryClaim();
  HostMemoryClaim(HostMemoryClaim&& other) noexcept;
  HostMemoryClaim& operator=(HostMemoryClaim&& other) noexcept;
  HostMemoryClaim(const HostMemoryClaim&) = delete;
  HostMemoryClaim& operator=(const HostMemoryClaim&) = delete;

  /// What all live claims hold, and the budget they share.
  static uint64_t claimed_bytes();
  static uint64_t budget_bytes();

 private:
  uint64_t bytes_ = 0;
};

}  // namespace gpusoc
