// The PCI configuration space of the GPU's function 0: a type 0 header with two 64-bit memory
// BARs, an MSI capability and a PCI Express capability (link speed and width, max payload and
// read request sizes). Each byte has a write mask, so read-only fields ignore writes and BAR
// sizing (write all ones, read back) falls out of the masks. The function advertises Function
// Level Reset (Device Capabilities bit 28): a write of 1 to Device Control bit 15 starts one,
// which the endpoint carries out. Pure C++: the endpoint answers its config_target with it and
// decodes memory requests against the BARs it holds.
#pragma once

#include <array>
#include <cstdint>

#include "models/pcie/pcie_config.h"

namespace gpusoc::pcie {

/// Offsets and bits host software uses to enumerate the GPU.
namespace cfg {
constexpr uint32_t kSize = 4096;        // PCI Express extended configuration space
constexpr uint32_t VENDOR_ID = 0x00;    // 16 bits
constexpr uint32_t DEVICE_ID = 0x02;    // 16 bits
constexpr uint32_t COMMAND = 0x04;      // 16 bits
constexpr uint32_t STATUS = 0x06;       // 16 bits
constexpr uint32_t REVISION_ID = 0x08;  // 8 bits; the class code follows in 0x09-0x0B
constexpr uint32_t CLASS_CODE = 0x09;
constexpr uint32_t HEADER_TYPE = 0x0E;
constexpr uint32_t BAR0 = 0x10;  // registers: 64-bit, non-prefetchable, 0x10 and 0x14
constexpr uint32_t BAR1 = 0x18;  // VRAM aperture: 64-bit, prefetchable, 0x18 and 0x1C (PCI BAR
                                 // index 2; "BAR1" as NVIDIA names its aperture)
constexpr uint32_t SUBSYSTEM_VENDOR_ID = 0x2C;
constexpr uint32_t SUBSYSTEM_ID = 0x2E;
constexpr uint32_t CAPABILITIES_POINTER = 0x34;
constexpr uint32_t INTERRUPT_LINE = 0x3C;
constexpr uint32_t INTERRUPT_PIN = 0x3D;

constexpr uint32_t MSI_CAP = 0x60;  // capability ID 0x05, 64-bit addresses, one vector
constexpr uint32_t MSI_CONTROL = MSI_CAP + 0x2;
constexpr uint32_t MSI_ADDRESS_LO = MSI_CAP + 0x4;
constexpr uint32_t MSI_ADDRESS_HI = MSI_CAP + 0x8;
constexpr uint32_t MSI_DATA = MSI_CAP + 0xC;  // 16 bits

constexpr uint32_t PCIE_CAP = 0x70;  // capability ID 0x10, version 2, endpoint
constexpr uint32_t DEVICE_CAPABILITIES = PCIE_CAP + 0x04;
constexpr uint32_t DEVICE_CONTROL = PCIE_CAP + 0x08;  // 16 bits
constexpr uint32_t LINK_CAPABILITIES = PCIE_CAP + 0x0C;
constexpr uint32_t LINK_CONTROL = PCIE_CAP + 0x10;  // 16 bits
constexpr uint32_t LINK_STATUS = PCIE_CAP + 0x12;  // 16 bits
constexpr uint32_t LINK_CAPABILITIES_2 = PCIE_CAP + 0x2C;

constexpr uint8_t kCapabilityMsi = 0x05;
constexpr uint8_t kCapabilityPcie = 0x10;

constexpr uint16_t kCommandMemorySpace = 1u << 1;
constexpr uint16_t kCommandBusMaster = 1u << 2;
constexpr uint16_t kCommandInterruptDisable = 1u << 10;  // INTx off (MSI unaffected)
constexpr uint16_t kStatusInterrupt = 1u << 3;           // INTx pending, read-only
constexpr uint16_t kStatusCapabilitiesList = 1u << 4;
constexpr uint32_t kBarMemory64 = 0x4;  // BAR type bits: 64-bit memory BAR
constexpr uint32_t kBarPrefetchable = 0x8;
constexpr uint32_t kDeviceCapabilitiesFlr = 1u << 28;      // Function Level Reset capable
constexpr uint16_t kDeviceControlInitiateFlr = 1u << 15;  // write 1: reset; reads 0
constexpr uint16_t kDeviceControlMaxPayload = 0x7u << 5;
constexpr uint16_t kMsiEnable = 1u << 0;
constexpr uint16_t kMsi64Bit = 1u << 7;

/// Max_Payload_Size and Max_Read_Request_Size encodings: 128 << code bytes.
constexpr uint32_t size_from_code(uint32_t code) {
  return 128u << code;
}
uint32_t code_from_size(uint32_t bytes);
}  // namespace cfg

class ConfigSpace {
 public:
  /// `bar0_bytes` and config.bar1_bytes size the two BARs (powers of two).
  ConfigSpace(const PcieConfig& config, uint64_t bar0_bytes);

  /// A naturally aligned access of 1, 2 or 4 bytes inside the space (the caller checks).
  static bool valid_access(uint32_t offset, unsigned bytes);
  uint32_t read(uint32_t offset, unsigned bytes) const;
  /// Writable bits take the new value; read-only bits keep theirs.
  void write(uint32_t offset, unsigned bytes, uint32_t value);
  /// Whether a write of `value` at `offset` sets Device Control's Initiate Function Level Reset.
  static bool initiates_function_level_reset(uint32_t offset, unsigned bytes, uint32_t value);
  /// Every register back to its value at power-on. A Function Level Reset keeps what belongs to
  /// the link rather than the function (PCI Express Base 6.6.2): Max_Payload_Size in Device
  /// Control, and Link Control.
  void reset(bool function_level);

  bool memory_space_enabled() const;
  bool bus_master_enabled() const;
  uint64_t bar_address(unsigned bar) const;  // bar 0 or 1, as programmed
  uint64_t bar_size(unsigned bar) const;
  bool msi_enabled() const;
  bool interrupt_disabled() const;  // Command bit 10
  /// Status bit 3: an interrupt is pending (whether or not INTx or MSI carries it).
  void set_interrupt_status(bool pending);
  uint64_t msi_address() const;
  uint32_t msi_data() const;
  uint32_t max_payload_bytes() const;       // as programmed in Device Control, within what the
  uint32_t max_read_request_bytes() const;  // device supports

 private:
  void put(uint32_t offset, unsigned bytes, uint32_t value, uint32_t writable = 0);
  void bar(uint32_t offset, uint64_t size, uint32_t type_bits);

  std::array<uint8_t, cfg::kSize> bytes_{};
  std::array<uint8_t, cfg::kSize> writable_{};  // per bit: 1 = software may change it
  std::array<uint8_t, cfg::kSize> power_on_{};  // bytes_ as constructed
  uint64_t bar_bytes_[2];
  uint32_t supported_payload_bytes_;
};

}  // namespace gpusoc::pcie
