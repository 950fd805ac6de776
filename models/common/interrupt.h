// Interrupt causes travel from GPU units (command processor, copy engines, error reporting) to
// the host interface, which latches them in its interrupt status register and signals the host
// (MSI write and/or interrupt line) when they are unmasked.
#pragma once

#include <cstdint>

#include <systemc>

namespace gpusoc {

class InterruptSink : public virtual sc_core::sc_interface {
 public:
  /// Latches `causes` (bits of INTR_STATUS, see models/pcie/bar0_map.h) at the caller's current
  /// simulation time. Called from any SystemC process; never waits.
  virtual void raise(uint32_t causes) = 0;
  /// Latches bits of ERROR_STATUS (and raises the ERROR interrupt cause).
  virtual void report_error(uint32_t error_bits) = 0;
  /// An MMIO access the unit itself refused or ignored (a write to one of its read-only
  /// registers): latches `error_bits` and records `bar0_offset` in ERROR_OFFSET. Units report
  /// only what they answer with TLM_OK_RESPONSE; error responses are flagged by the host
  /// interface that forwarded the access.
  virtual void report_mmio_fault(uint32_t error_bits, uint32_t bar0_offset) {
    (void)bar0_offset;
    report_error(error_bits);
  }
};

}  // namespace gpusoc
