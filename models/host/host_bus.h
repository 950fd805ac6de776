// What host software sees of the simulated host: loads and stores through the host CPU's TLM
// initiator (to host memory, PCIe configuration space and BARs), direct access to host memory for
// its own data, CPU time, and interrupts. Implemented by HostCpu; valid inside its thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include <systemc>

namespace gpusoc::host {

/// Where things are in the host's physical address space (from configuration).
struct HostAddressMap {
  uint64_t memory_base = 0;            // host DRAM
  uint64_t memory_bytes = 0;
  uint64_t ecam_base = 0xE000'0000;    // PCIe configuration space, 4 KiB per function
  uint64_t ecam_bytes = 1u << 20;      // bus 0 only
  uint64_t mmio_base = 0x40'0000'0000; // window BARs are assigned in (64-bit, prefetchable ok)
  uint64_t mmio_bytes = 0x40'0000'0000;
  uint64_t msi_address = 0xFEE0'0000;  // where MSI writes land (the CPU's interrupt controller)
  uint32_t msi_data = 0x41;            // vector written by the GPU's MSI
};

/// A host access that got an error response: the message names the address and the response.
class HostBusError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class HostBus {
 public:
  virtual ~HostBus() = default;

  /// Timed accesses through the CPU's initiator socket (b_transport with the CPU's quantum
  /// keeper); throw HostBusError on any response other than TLM_OK_RESPONSE.
  virtual void read(uint64_t address, void* data, size_t bytes) = 0;
  virtual void write(uint64_t address, const void* data, size_t bytes) = 0;
  uint32_t read32(uint64_t address) {
    uint32_t v = 0;
    read(address, &v, 4);
    return v;
  }
  void write32(uint64_t address, uint32_t value) { write(address, &value, 4); }

  /// Host memory as the host program's own data: a direct pointer (DMI) to [address, +bytes),
  /// which must lie in host DRAM. Accesses through it take no simulated time by themselves;
  /// charge them with compute().
  virtual uint8_t* memory(uint64_t address, size_t bytes) = 0;

  /// The CPU works for `duration` (local time advances; synchronizes at quantum boundaries).
  virtual void compute(const sc_core::sc_time& duration) = 0;
  /// The CPU's local time: SystemC time plus its temporal-decoupling offset.
  virtual sc_core::sc_time now() const = 0;
  /// Synchronizes the local time with SystemC (lets every other process catch up).
  virtual void sync() = 0;
  /// Synchronizes, then sleeps until an MSI arrives or `timeout` passes; true on an interrupt.
  /// Interrupts that arrived since the last call count (they are not lost).
  virtual bool wait_for_interrupt(const sc_core::sc_time& timeout) = 0;

  virtual const HostAddressMap& address_map() const = 0;
};

}  // namespace gpusoc::host
