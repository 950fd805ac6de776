#include "models/pcie/config_space.h"

#include <algorithm>

namespace gpusoc::pcie {

uint32_t cfg::code_from_size(uint32_t bytes) {
  uint32_t code = 0;
  while (size_from_code(code) < bytes && code < 5) ++code;
  return code;
}

namespace {

constexpr uint64_t kFirst32 = 0xFFFF'FFFF;

// Writable bits of the fields software programs (PCI Local Bus 3.0, PCI Express Base 2.0).
constexpr uint32_t kCommandWritable = 0x0546;     // memory, bus master, parity, SERR, INTx disable
constexpr uint32_t kMsiControlWritable = 0x0071;  // enable, multiple message enable
constexpr uint32_t kDeviceControlWritable = 0x79FF;  // error enables, RO, MPS, tags, NS, MRRS
constexpr uint32_t kLinkControlWritable = 0x00CB;    // ASPM, RCB, common clock, ext. synch
constexpr uint32_t kDeviceControlRelaxedOrdering = 1u << 4;
constexpr uint32_t kDeviceControlNoSnoop = 1u << 11;
constexpr uint32_t kDeviceCapabilitiesRoleBasedErrors = 1u << 15;
constexpr uint32_t kLinkStatusSlotClock = 1u << 12;
constexpr uint32_t kPcieCapabilityVersion2Endpoint = 0x0002;

}  // namespace

ConfigSpace::ConfigSpace(const PcieConfig& config, uint64_t bar0_bytes)
    : bar_bytes_{bar0_bytes, config.bar1_bytes},
      supported_payload_bytes_(config.link.max_payload_bytes) {
  put(cfg::VENDOR_ID, 2, config.vendor_id);
  put(cfg::DEVICE_ID, 2, config.device_id);
  put(cfg::COMMAND, 2, 0, kCommandWritable);
  put(cfg::STATUS, 2, cfg::kStatusCapabilitiesList);
  put(cfg::CLASS_CODE, 1, config.class_code & 0xFF);
  put(cfg::CLASS_CODE + 1, 2, config.class_code >> 8);
  put(0x0C, 1, 0, 0xFF);  // cache line size: the host may write it, the device ignores it
  bar(cfg::BAR0, bar0_bytes, cfg::kBarMemory64);
  bar(cfg::BAR1, config.bar1_bytes, cfg::kBarMemory64 | cfg::kBarPrefetchable);
  put(cfg::SUBSYSTEM_VENDOR_ID, 2, config.vendor_id);
  put(cfg::SUBSYSTEM_ID, 2, config.device_id);
  put(cfg::CAPABILITIES_POINTER, 1, cfg::MSI_CAP);
  put(cfg::INTERRUPT_LINE, 1, 0, 0xFF);
  put(cfg::INTERRUPT_PIN, 1, 1);  // INTA#

  put(cfg::MSI_CAP, 1, cfg::kCapabilityMsi);
  put(cfg::MSI_CAP + 1, 1, cfg::PCIE_CAP);
  put(cfg::MSI_CONTROL, 2, cfg::kMsi64Bit, kMsiControlWritable);
  put(cfg::MSI_ADDRESS_LO, 4, 0, 0xFFFF'FFFC);
  put(cfg::MSI_ADDRESS_HI, 4, 0, 0xFFFF'FFFF);
  put(cfg::MSI_DATA, 2, 0, 0xFFFF);

  const LinkParams& link = config.link;
  put(cfg::PCIE_CAP, 1, cfg::kCapabilityPcie);
  put(cfg::PCIE_CAP + 2, 2, kPcieCapabilityVersion2Endpoint);
  put(cfg::DEVICE_CAPABILITIES, 4,
      cfg::code_from_size(link.max_payload_bytes) | kDeviceCapabilitiesRoleBasedErrors |
          cfg::kDeviceCapabilitiesFlr);
  // At reset Device Control holds the configured operating point (firmware would program it).
  put(cfg::DEVICE_CONTROL, 2,
      cfg::code_from_size(link.max_payload_bytes) << 5 |
          cfg::code_from_size(link.max_read_request_bytes) << 12 | kDeviceControlRelaxedOrdering |
          kDeviceControlNoSnoop,
      kDeviceControlWritable);
  put(cfg::LINK_CAPABILITIES, 4, link.generation | link.lanes << 4);
  put(cfg::LINK_CONTROL, 2, 0, kLinkControlWritable);
  put(cfg::LINK_STATUS, 2, link.generation | link.lanes << 4 | kLinkStatusSlotClock);
  put(cfg::LINK_CAPABILITIES_2, 4, ((1u << link.generation) - 1) << 1);
  power_on_ = bytes_;
}

void ConfigSpace::put(uint32_t offset, unsigned bytes, uint32_t value, uint32_t writable) {
  for (unsigned i = 0; i < bytes; ++i) {
    bytes_[offset + i] = static_cast<uint8_t>(value >> (8 * i));
    writable_[offset + i] = static_cast<uint8_t>(writable >> (8 * i));
  }
}

void ConfigSpace::bar(uint32_t offset, uint64_t size, uint32_t type_bits) {
  const uint64_t address_bits = ~(size - 1) & ~uint64_t{0xF};
  put(offset, 4, type_bits, static_cast<uint32_t>(address_bits & kFirst32));
  put(offset + 4, 4, 0, static_cast<uint32_t>(address_bits >> 32));
}

bool ConfigSpace::valid_access(uint32_t offset, unsigned bytes) {
  return (bytes == 1 || bytes == 2 || bytes == 4) && offset % bytes == 0 &&
         offset + bytes <= cfg::kSize;
}

uint32_t ConfigSpace::read(uint32_t offset, unsigned bytes) const {
  uint32_t value = 0;
  for (unsigned i = 0; i < bytes; ++i) value |= uint32_t{bytes_[offset + i]} << (8 * i);
  return value;
}

void ConfigSpace::write(uint32_t offset, unsigned bytes, uint32_t value) {
  for (unsigned i = 0; i < bytes; ++i) {
    const uint8_t mask = writable_[offset + i];
    const auto v = static_cast<uint8_t>(value >> (8 * i));
    bytes_[offset + i] = static_cast<uint8_t>((bytes_[offset + i] & ~mask) | (v & mask));
  }
}

bool ConfigSpace::initiates_function_level_reset(uint32_t offset, unsigned bytes,
                                                 uint32_t value) {
  const uint32_t bit = cfg::DEVICE_CONTROL * 8 + 15;  // as a bit offset in the space
  return offset * 8 <= bit && bit < (offset + bytes) * 8 && (value >> (bit - offset * 8)) & 1;
}

void ConfigSpace::reset(bool function_level) {
  const uint32_t device_control = read(cfg::DEVICE_CONTROL, 2);
  const uint32_t link_control = read(cfg::LINK_CONTROL, 2);
  bytes_ = power_on_;
  if (!function_level) return;
  const uint32_t kept = cfg::kDeviceControlMaxPayload;
  put(cfg::DEVICE_CONTROL, 2, (read(cfg::DEVICE_CONTROL, 2) & ~kept) | (device_control & kept),
      kDeviceControlWritable);
  put(cfg::LINK_CONTROL, 2, link_control, kLinkControlWritable);
}

bool ConfigSpace::memory_space_enabled() const {
  return read(cfg::COMMAND, 2) & cfg::kCommandMemorySpace;
}

bool ConfigSpace::bus_master_enabled() const {
  return read(cfg::COMMAND, 2) & cfg::kCommandBusMaster;
}

uint64_t ConfigSpace::bar_address(unsigned bar) const {
  const uint32_t offset = bar == 0 ? cfg::BAR0 : cfg::BAR1;
  const uint64_t value = read(offset, 4) | uint64_t{read(offset + 4, 4)} << 32;
  return value & ~uint64_t{0xF};
}

uint64_t ConfigSpace::bar_size(unsigned bar) const {
  return bar_bytes_[bar == 0 ? 0 : 1];
}

bool ConfigSpace::msi_enabled() const {
  return read(cfg::MSI_CONTROL, 2) & cfg::kMsiEnable;
}

bool ConfigSpace::interrupt_disabled() const {
  return read(cfg::COMMAND, 2) & cfg::kCommandInterruptDisable;
}

void ConfigSpace::set_interrupt_status(bool pending) {
  const uint32_t status = read(cfg::STATUS, 2);
  put(cfg::STATUS, 2, pending ? status | cfg::kStatusInterrupt : status & ~cfg::kStatusInterrupt,
      writable_[cfg::STATUS] | uint32_t{writable_[cfg::STATUS + 1]} << 8);
}

uint64_t ConfigSpace::msi_address() const {
  return read(cfg::MSI_ADDRESS_LO, 4) | uint64_t{read(cfg::MSI_ADDRESS_HI, 4)} << 32;
}

uint32_t ConfigSpace::msi_data() const {
  return read(cfg::MSI_DATA, 2);
}

uint32_t ConfigSpace::max_payload_bytes() const {
  const uint32_t code = (read(cfg::DEVICE_CONTROL, 2) >> 5) & 0x7;
  return std::min(cfg::size_from_code(std::min(code, 5u)), supported_payload_bytes_);
}

uint32_t ConfigSpace::max_read_request_bytes() const {
  const uint32_t code = (read(cfg::DEVICE_CONTROL, 2) >> 12) & 0x7;
  return cfg::size_from_code(std::min(code, 5u));
}

}  // namespace gpusoc::pcie
