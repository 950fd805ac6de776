// The GPU's BAR0 registers as the runtime reaches them: 32-bit MMIO through the host bus at the
// address enumeration assigned. A refused access becomes Error(DeviceError) naming the offset.
#pragma once

#include <cstdint>

#include "models/host/host_bus.h"

namespace gpusoc::rt {

class Bar0 {
 public:
  Bar0(host::HostBus& bus, uint64_t base) : bus_(bus), base_(base) {}

  uint32_t read(uint32_t offset);
  void write(uint32_t offset, uint32_t value);
  uint64_t read64(uint32_t lo_offset);  // a _LO/_HI pair, low word first
  void write64(uint32_t lo_offset, uint64_t value);

  host::HostBus& bus() { return bus_; }
  uint64_t base() const { return base_; }

 private:
  host::HostBus& bus_;
  uint64_t base_;
};

}  // namespace gpusoc::rt
