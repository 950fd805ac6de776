// A PCI function's configuration space, read and written through the host's ECAM window (type 0
// header, PCI Local Bus 3.0 and PCI Express Base layouts): identity, BAR sizing and assignment,
// command register, MSI, and the PCI Express link. Accesses are 32-bit and 4-byte aligned; narrower
// fields are read-modify-written within their dword.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/host/host_bus.h"

namespace gpusoc::rt {

struct PciBar {
  uint32_t index = 0;  // BAR register slot (0-5); a 64-bit BAR also uses the next slot
  uint64_t bytes = 0;
  uint64_t address = 0;  // once assigned
  bool is_64bit = false;
  bool prefetchable = false;
};

struct PciLink {
  uint32_t generation = 0;  // current link speed: 1 = 2.5 GT/s, 2 = 5 GT/s, 3 = 8 GT/s, ...
  uint32_t lanes = 0;       // negotiated width
  uint32_t max_generation = 0;
  uint32_t max_lanes = 0;
};

class PciFunction {
 public:
  // Standard configuration registers and capability ids.
  static constexpr uint32_t kVendorDevice = 0x00, kCommand = 0x04, kClassRevision = 0x08,
                            kHeaderType = 0x0C, kBar0 = 0x10, kCapabilitiesPointer = 0x34;
  static constexpr uint16_t kStatusCapabilities = 1u << 4;  // in the status register (0x06)
  static constexpr uint16_t kCommandMemory = 1u << 1, kCommandBusMaster = 1u << 2,
                            kCommandIntxDisable = 1u << 10;
  static constexpr uint8_t kCapMsi = 0x05, kCapPciExpress = 0x10;

  /// `config_base`: the host address of the function's 4 KiB in the ECAM window.
  PciFunction(host::HostBus& bus, uint64_t config_base) : bus_(bus), base_(config_base) {}

  uint32_t read32(uint32_t offset);
  void write32(uint32_t offset, uint32_t value);
  uint16_t read16(uint32_t offset);
  void write16(uint32_t offset, uint16_t value);

  uint16_t vendor_id() { return read16(kVendorDevice); }
  uint16_t device_id() { return read16(kVendorDevice + 2); }
  uint8_t revision() { return uint8_t(read32(kClassRevision)); }
  uint32_t class_code() { return read32(kClassRevision) >> 8; }  // base, sub-class, interface

  /// Config offset of the first capability with this id, walking the list from 0x34.
  std::optional<uint32_t> find_capability(uint8_t id);

  /// Sizes every implemented memory BAR (memory decoding must be off), in slot order.
  std::vector<PciBar> size_memory_bars();
  void assign(const PciBar& bar);
  void set_command(uint16_t bits);

  /// Programs the MSI capability with one vector; false when the function has none.
  bool enable_msi(uint64_t address, uint32_t data);
  /// Zeros when the function has no PCI Express capability.
  PciLink link();

 private:
  host::HostBus& bus_;
  uint64_t base_;
};

}  // namespace gpusoc::rt
