// Copies, memset and launches: each checks its arguments, then becomes packets on a channel.
// Pinned host memory is handed to the copy engines directly; pageable memory goes through two
// pinned staging buffers, so the CPU fills one while a copy engine drains the other.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "sw/runtime/commands.h"
#include "sw/runtime/context.h"

namespace gpusoc::rt {
namespace {

// What the GPU recorded, in the units of the launch API.
LaunchStats launch_stats(const cmd::LaunchStatsRecord& r) {
  LaunchStats s;
  s.warp_instructions = r.warp_instructions;
  s.thread_instructions = r.thread_instructions;
  s.ctas = r.ctas;
  s.warps = r.warps;
  s.start_ns = double(r.start_ps) / 1000;
  s.end_ns = double(r.end_ps) / 1000;
  s.resident_warp_ns = double(r.occupancy_warp_ps) / 1000;
  s.max_resident_warps = r.max_resident_warps;
  return s;
}

void check_host_range(const void* p, uint64_t bytes, const char* what) {
  if (p == nullptr)
    throw Error(Status::InvalidValue, fmt::format("{}: host pointer is null", what));
  if (bytes == 0) throw Error(Status::InvalidValue, fmt::format("{}: size is 0 bytes", what));
  if (reinterpret_cast<uintptr_t>(p) + bytes < reinterpret_cast<uintptr_t>(p)) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: host range of {} bytes wraps around", what, bytes));
  }
}

std::string dims(const Dim3& d) {
  return fmt::format("({},{},{})", d.x, d.y, d.z);
}

}  // namespace

void Context::memcpy_htod(Channel& ch, const std::string& who, DevicePtr dst, const void* src,
                          uint64_t bytes, bool wait) {
  check_host_range(src, bytes, "memcpy_htod");
  check_device_range(dst, bytes, "memcpy_htod");
  const std::string what = fmt::format("{}: memcpy_htod of {} bytes to {:#x}", who, bytes, dst);
  if (const auto host = pinned_->address_of(src, bytes, "memcpy_htod")) {
    ch.submit({commands::copy(*host, dst, bytes, cmd::CopyDirection::HostToDevice)}, what, {},
              wait);
    if (wait) finish(ch, who);
    return;
  }
  staged_htod(ch, who, what, dst, static_cast<const uint8_t*>(src), bytes);
}

void Context::memcpy_dtoh(Channel& ch, const std::string& who, void* dst, DevicePtr src,
                          uint64_t bytes, bool wait) {
  check_host_range(dst, bytes, "memcpy_dtoh");
  check_device_range(src, bytes, "memcpy_dtoh");
  const std::string what = fmt::format("{}: memcpy_dtoh of {} bytes from {:#x}", who, bytes, src);
  if (const auto host = pinned_->address_of(dst, bytes, "memcpy_dtoh")) {
    ch.submit({commands::copy(src, *host, bytes, cmd::CopyDirection::DeviceToHost)}, what, {},
              wait);
    if (wait) finish(ch, who);
    return;
  }
  staged_dtoh(ch, who, what, static_cast<uint8_t*>(dst), src, bytes);
}

void Context::memcpy_dtod(Channel& ch, const std::string& who, DevicePtr dst, DevicePtr src,
                          uint64_t bytes, bool wait) {
  check_device_range(src, bytes, "memcpy_dtod (source)");
  check_device_range(dst, bytes, "memcpy_dtod (destination)");
  ch.submit({commands::copy(src, dst, bytes, cmd::CopyDirection::DeviceToDevice)},
            fmt::format("{}: memcpy_dtod of {} bytes from {:#x} to {:#x}", who, bytes, src, dst),
            {}, wait);
  if (wait) finish(ch, who);
}

void Context::memset(Channel& ch, const std::string& who, DevicePtr dst, uint32_t value,
                     uint32_t element_bytes, uint64_t count, bool wait) {
  const std::string name = fmt::format("memset_d{}", element_bytes * 8);
  if (count == 0) throw Error(Status::InvalidValue, name + ": count is 0");
  if (count > UINT64_MAX / element_bytes) {
    throw Error(Status::InvalidValue, fmt::format("{}: {} elements overflow", name, count));
  }
  if (dst % element_bytes != 0) {
    throw Error(Status::InvalidValue, fmt::format("{}: destination {:#x} is not {}-byte aligned",
                                                  name, dst, element_bytes));
  }
  const uint64_t bytes = count * element_bytes;
  check_device_range(dst, bytes, name.c_str());
  ch.submit({commands::memset(dst, bytes, value, element_bytes)},
            fmt::format("{}: {} of {} elements of {:#x} at {:#x}", who, name, count, value, dst),
            {}, wait);
  if (wait) finish(ch, who);
}

void Context::staged_htod(Channel& ch, const std::string& who, const std::string& what,
                          DevicePtr dst, const uint8_t* src, uint64_t bytes) {
  uint64_t in_flight[2] = {0, 0};  // sequence numbers of the copies out of each buffer
  const uint64_t chunk = options_.staging_chunk_bytes;
  for (uint64_t offset = 0, i = 0; offset < bytes; offset += chunk, ++i) {
    const int b = int(i % 2);
    const PinnedMemory::Block& buffer = staging(b);
    if (in_flight[b] != 0) ch.wait(in_flight[b], who);
    const uint64_t n = std::min(chunk, bytes - offset);
    std::memcpy(buffer.pointer, src + offset, n);
    bus_.compute(cpu_copy_time(n));
    in_flight[b] = ch.submit(
        {commands::copy(buffer.address, dst + offset, n, cmd::CopyDirection::HostToDevice)}, what,
        {}, /*interrupt=*/true);
  }
  finish(ch, who);
}

void Context::staged_dtoh(Channel& ch, const std::string& who, const std::string& what,
                          uint8_t* dst, DevicePtr src, uint64_t bytes) {
  const uint64_t chunk = options_.staging_chunk_bytes;
  const uint64_t chunks = (bytes + chunk - 1) / chunk;
  uint64_t in_flight[2] = {0, 0};
  auto start = [&](uint64_t i) {
    const uint64_t offset = i * chunk, n = std::min(chunk, bytes - offset);
    const PinnedMemory::Block& buffer = staging(int(i % 2));
    in_flight[i % 2] = ch.submit(
        {commands::copy(src + offset, buffer.address, n, cmd::CopyDirection::DeviceToHost)}, what,
        {}, /*interrupt=*/true);
  };
  for (uint64_t i = 0; i < std::min<uint64_t>(chunks, 2); ++i) start(i);
  for (uint64_t i = 0; i < chunks; ++i) {
    const uint64_t offset = i * chunk, n = std::min(chunk, bytes - offset);
    ch.wait(in_flight[i % 2], who);
    std::memcpy(dst + offset, staging(int(i % 2)).pointer, n);
    bus_.compute(cpu_copy_time(n));
    if (i + 2 < chunks) start(i + 2);
  }
  finish(ch, who);
}

void Context::launch(Channel& ch, const std::string& who, const KernelInfo& kernel,
                     const LaunchConfig& config, const KernelArgs& args) {
  const std::string what = fmt::format(
      "{}: launch of kernel {} (grid {}, block {}, {} bytes of dynamic shared memory)", who,
      kernel.name, dims(config.grid), dims(config.block), config.dynamic_shared_bytes);
  if (config.grid.count() == 0 || config.block.count() == 0) {
    throw Error(Status::InvalidConfiguration,
                fmt::format("{}: a grid or block dimension is zero", what));
  }
  if (config.block.exceeds(kMaxBlock) || config.grid.exceeds(kMaxGrid)) {
    throw Error(Status::InvalidConfiguration, fmt::format("{}: the limits are block {} and grid {}",
                                                          what, dims(kMaxBlock), dims(kMaxGrid)));
  }
  if (kernel.max_threads_per_cta != 0 && config.block.count() > kernel.max_threads_per_cta) {
    throw Error(Status::InvalidConfiguration,
                fmt::format("{}: {} threads per block; the kernel allows at most {} (with its {} "
                            "registers per thread, its launch bounds and the SM's limits)",
                            what, config.block.count(), kernel.max_threads_per_cta,
                            kernel.registers_per_thread));
  }
  // One block: the descriptor, the statistics record the GPU fills, then the parameter buffer.
  constexpr uint64_t kStatsOffset = 64, kParamOffset = 128;
  static_assert(sizeof(cmd::LaunchDescriptor) <= kStatsOffset, "descriptor fits its slot");
  static_assert(kStatsOffset + sizeof(cmd::LaunchStatsRecord) <= kParamOffset, "record fits");
  const PinnedMemory::Block block = pinned_temporary(kParamOffset + kernel.param_buffer_bytes);
  try {
    pack_arguments(kernel, args, block.pointer + kParamOffset);
  } catch (const Error&) {
    pinned_->free(block.address);
    throw;
  }
  std::memset(block.pointer + kStatsOffset, 0, sizeof(cmd::LaunchStatsRecord));
  cmd::LaunchDescriptor d;
  d.kernel = kernel.handle;
  d.grid[0] = config.grid.x, d.grid[1] = config.grid.y, d.grid[2] = config.grid.z;
  d.block[0] = config.block.x, d.block[1] = config.block.y, d.block[2] = config.block.z;
  d.dynamic_shared_bytes = config.dynamic_shared_bytes;
  d.param_bytes = kernel.param_buffer_bytes;
  d.param_address = kernel.param_buffer_bytes ? block.address + kParamOffset : 0;
  d.stats_address = config.stats ? block.address + kStatsOffset : 0;
  std::memcpy(block.pointer, &d, sizeof d);
  bus_.compute(cpu_copy_time(sizeof d + kernel.param_buffer_bytes));
  std::function<void()> on_complete;
  if (LaunchStats* out = config.stats) {
    const uint8_t* record = block.pointer + kStatsOffset;
    on_complete = [out, record] {
      cmd::LaunchStatsRecord r;
      std::memcpy(&r, record, sizeof r);
      *out = launch_stats(r);
    };
  }
  ch.submit({commands::launch(block.address)}, what, {block.address}, false,
            std::move(on_complete));
}

}  // namespace gpusoc::rt
