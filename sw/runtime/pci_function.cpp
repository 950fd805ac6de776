#include "sw/runtime/pci_function.h"

#include <fmt/format.h>

#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

constexpr uint32_t kBarIo = 1u << 0;
constexpr uint32_t kBarType64 = 2u << 1;  // memory BAR type field (bits 2:1) = 10b
constexpr uint32_t kBarPrefetchable = 1u << 3;
constexpr uint32_t kMaxCapabilities = 48;  // (256 - 64) / 4: a longer list is a loop

// MSI capability (PCI Local Bus 3.0, 6.8.1).
constexpr uint16_t kMsiEnable = 1u << 0;
constexpr uint16_t kMsi64Bit = 1u << 7;
constexpr uint16_t kMsiMultipleEnableMask = 7u << 4;

}  // namespace

uint32_t PciFunction::read32(uint32_t offset) {
  try {
    return bus_.read32(base_ + offset);
  } catch (const host::HostBusError& e) {
    throw Error(Status::InvalidDevice,
                fmt::format("PCI configuration read at offset {:#x} failed: {}", offset, e.what()));
  }
}

void PciFunction::write32(uint32_t offset, uint32_t value) {
  try {
    bus_.write32(base_ + offset, value);
  } catch (const host::HostBusError& e) {
    throw Error(Status::InvalidDevice, fmt::format("PCI configuration write at offset {:#x} "
                                                   "failed: {}",
                                                   offset, e.what()));
  }
}

uint16_t PciFunction::read16(uint32_t offset) {
  return uint16_t(read32(offset & ~3u) >> ((offset & 2) * 8));
}

void PciFunction::write16(uint32_t offset, uint16_t value) {
  const uint32_t dword = offset & ~3u, shift = (offset & 2) * 8;
  uint32_t v = read32(dword) & ~(0xFFFFu << shift);
  // The status register (upper half of 0x04) is write-1-to-clear: never write back its bits.
  if (dword == kCommand) v &= 0x0000FFFFu;
  write32(dword, v | uint32_t(value) << shift);
}

std::optional<uint32_t> PciFunction::find_capability(uint8_t id) {
  if (!(read16(kCommand + 2) & kStatusCapabilities)) return std::nullopt;
  uint32_t at = read32(kCapabilitiesPointer) & 0xFC;
  for (uint32_t n = 0; at != 0 && n < kMaxCapabilities; ++n) {
    const uint32_t header = read32(at);
    if ((header & 0xFF) == id) return at;
    at = (header >> 8) & 0xFC;
  }
  return std::nullopt;
}

std::vector<PciBar> PciFunction::size_memory_bars() {
  std::vector<PciBar> bars;
  for (uint32_t slot = 0; slot < 6; ++slot) {
    const uint32_t reg = kBar0 + 4 * slot;
    const uint32_t original = read32(reg);
    if (original & kBarIo) continue;
    PciBar bar;
    bar.index = slot;
    bar.is_64bit = (original & (3u << 1)) == kBarType64;
    bar.prefetchable = original & kBarPrefetchable;
    write32(reg, 0xFFFFFFFFu);
    uint64_t writable = read32(reg) & ~0xFull;  // the address bits that stick
    if (bar.is_64bit && slot < 5) {
      write32(reg + 4, 0xFFFFFFFFu);
      writable |= uint64_t(read32(reg + 4)) << 32;
      ++slot;  // the upper half is not a BAR of its own
    } else {
      bar.is_64bit = false;
    }
    if (writable == 0) continue;  // not implemented
    if (!bar.is_64bit) writable |= 0xFFFFFFFF00000000ull;
    bar.bytes = ~writable + 1;
    bars.push_back(bar);
  }
  return bars;
}

void PciFunction::assign(const PciBar& bar) {
  const uint32_t reg = kBar0 + 4 * bar.index;
  write32(reg, uint32_t(bar.address));
  if (bar.is_64bit) write32(reg + 4, uint32_t(bar.address >> 32));
}

void PciFunction::set_command(uint16_t bits) {
  write16(kCommand, bits);
}

bool PciFunction::enable_msi(uint64_t address, uint32_t data) {
  const auto cap = find_capability(kCapMsi);
  if (!cap) return false;
  uint16_t control = read16(*cap + 2);
  const bool is_64bit = control & kMsi64Bit;
  write32(*cap + 4, uint32_t(address));
  if (is_64bit) {
    write32(*cap + 8, uint32_t(address >> 32));
    write16(*cap + 12, uint16_t(data));
  } else {
    if (address >> 32) {
      throw Error(Status::InvalidDevice,
                  fmt::format("MSI address {:#x} needs 64 bits; the function's MSI capability "
                              "has 32",
                              address));
    }
    write16(*cap + 8, uint16_t(data));
  }
  control = uint16_t((control & ~kMsiMultipleEnableMask) | kMsiEnable);  // one vector
  write16(*cap + 2, control);
  return true;
}

PciLink PciFunction::link() {
  PciLink link;
  const auto cap = find_capability(kCapPciExpress);
  if (!cap) return link;
  // Link Capabilities at +0x0C, Link Status at +0x12: speed in bits 3:0, width in bits 9:4.
  const uint32_t capabilities = read32(*cap + 0x0C);
  const uint16_t status = read16(*cap + 0x12);
  link.max_generation = capabilities & 0xF;
  link.max_lanes = (capabilities >> 4) & 0x3F;
  link.generation = status & 0xF;
  link.lanes = (status >> 4) & 0x3F;
  return link;
}

}  // namespace gpusoc::rt
