#include "sw/runtime/bar0.h"

#include <fmt/format.h>

#include "sw/runtime/status.h"

namespace gpusoc::rt {

uint32_t Bar0::read(uint32_t offset) {
  try {
    return bus_.read32(base_ + offset);
  } catch (const host::HostBusError& e) {
    throw Error(Status::DeviceError,
                fmt::format("BAR0 read of offset {:#x} failed: {}", offset, e.what()));
  }
}

void Bar0::write(uint32_t offset, uint32_t value) {
  try {
    bus_.write32(base_ + offset, value);
  } catch (const host::HostBusError& e) {
    throw Error(Status::DeviceError, fmt::format("BAR0 write of {:#x} to offset {:#x} failed: {}",
                                                 value, offset, e.what()));
  }
}

uint64_t Bar0::read64(uint32_t lo_offset) {
  const uint64_t lo = read(lo_offset);
  return lo | uint64_t(read(lo_offset + 4)) << 32;
}

void Bar0::write64(uint32_t lo_offset, uint64_t value) {
  write(lo_offset, uint32_t(value));
  write(lo_offset + 4, uint32_t(value >> 32));
}

}  // namespace gpusoc::rt
