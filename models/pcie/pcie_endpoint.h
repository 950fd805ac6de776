// The GPU's PCI Express endpoint, shaped the way virtual platforms model one: configuration space
// behind its own socket, memory requests either decoded against the BARs as software programmed
// them (mem_target) or already decoded by the VP's bus (a target per BAR, taking offsets), BAR0
// registers (its own, the rest forwarded to the units behind it), BAR1 as an aperture onto VRAM
// with DMI, a DMA path from the GPU's units into host memory, and interrupts as MSI writes plus
// a level output. Every timed crossing of the link is timed by LinkTiming, each direction on its
// own; a DMI pointer into the aperture skips the link, its latencies the unloaded crossing's.
//
// Reset: a Function Level Reset (config space, Device Control bit 15) or the GPU's reset input
// puts the function in reset at once: config space back to power-on (an FLR keeps the link's
// settings), interrupts and errors cleared, DMI revoked, and until the GPU behind it has
// stopped its work, config reads answer all ones (no function there) and config writes are
// dropped. The owner carries the reset out through the hook and calls leave_reset().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/interrupt.h"
#include "models/common/logging.h"
#include "models/common/register_block.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/pcie/config_space.h"
#include "models/pcie/link_timing.h"
#include "models/pcie/pcie_config.h"
#include "models/tex/texture_objects.h"

namespace gpusoc::pcie {

/// What the endpoint reports about the GPU behind it (BAR0 identification registers).
struct DeviceInfo {
  uint64_t vram_base = 0;               // device address where VRAM starts
  uint64_t vram_bytes = 0;              // VRAM capacity: what BAR1 can reach
  uint64_t vram_allocatable_bytes = 0;  // VRAM_SIZE: below the firmware heap
  uint32_t channels = 0;                // NUM_CHANNELS
  tex::Limits texture_limits;           // TEX_MAX_*
};

class PcieEndpoint : public sc_core::sc_module, public InterruptSink {
 public:
  /// The endpoint owns BAR0 offsets below this; the rest go out on reg_initiator.
  static constexpr uint32_t kOwnRegisterBytes = 0x1000;

  tlm_utils::simple_target_socket<PcieEndpoint> config_target;  // offset in the 4 KiB space
  // Memory requests: bind mem_target (host physical addresses, decoded against the BARs), or the
  // BAR targets (offsets within the BAR, as a VP's PCI bus forwards them), or both. Each honours
  // Memory Space Enable; BAR1 offers DMI on both paths.
  tlm_utils::simple_target_socket_optional<PcieEndpoint> mem_target;
  tlm_utils::simple_target_socket_optional<PcieEndpoint> bar0_target;  // registers
  tlm_utils::simple_target_socket_optional<PcieEndpoint> bar1_target;  // the VRAM aperture
  tlm_utils::simple_initiator_socket<PcieEndpoint> reg_initiator;   // address = BAR0 offset
  tlm_utils::simple_initiator_socket<PcieEndpoint> vram_initiator;  // device addresses
  tlm_utils::multi_passthrough_target_socket<PcieEndpoint> upstream_target;  // units' DMA
  tlm_utils::simple_initiator_socket<PcieEndpoint> dma_initiator;            // to the root port
  sc_core::sc_out<bool> irq_out;  // INTA#: a cause pending, MSI off, Interrupt Disable clear
  sc_core::sc_export<InterruptSink> interrupt_in;

  PcieEndpoint(sc_core::sc_module_name name, const PcieConfig& config, const DeviceInfo& device,
               StatGroup& stats_parent);
  ~PcieEndpoint() override;

  /// The endpoint's BAR0 registers (offsets from bar0_map.h), for docs/registers.md.
  static const std::vector<RegisterSpec>& register_specs();
  /// One of them as a debugger reads it: stored or computed, without side effects.
  uint32_t register_value(uint32_t offset) const { return registers_.read(offset); }

  // InterruptSink: latch causes and errors; an unmasked cause sends an MSI (when enabled).
  void raise(uint32_t causes) override;
  void report_error(uint32_t error_bits) override;
  void report_mmio_fault(uint32_t error_bits, uint32_t bar0_offset) override;

  const LinkTiming& link() const { return link_; }
  const ConfigSpace& config_space() const { return config_; }

  /// Who carries out a Function Level Reset software starts: called once the function is in
  /// reset; it calls leave_reset() when the GPU has stopped. Without one, the reset ends at once.
  void on_function_level_reset(std::function<void()> hook) { flr_hook_ = std::move(hook); }
  /// Puts the function in reset (see above); `function_level`: an FLR, else a conventional reset.
  void enter_reset(bool function_level);
  /// The function answers again, its BAR0 registers at their reset values.
  void leave_reset();
  bool in_reset() const { return in_reset_; }

 private:
  struct Stats : StatGroup {
    Stats(StatGroup& parent, const std::string& name, const PcieEndpoint& endpoint);
    Counter config_reads{*this, "config_reads", "accesses", "configuration space reads"};
    Counter config_writes{*this, "config_writes", "accesses", "configuration space writes"};
    Counter mmio_reads{*this, "mmio_reads", "accesses", "BAR0 register reads"};
    Counter mmio_writes{*this, "mmio_writes", "accesses", "BAR0 register writes"};
    Counter mmio_errors{*this, "mmio_errors", "accesses",
                        "BAR0 accesses refused or ignored (ERROR_STATUS bits)"};
    Counter bar1_read_bytes{*this, "bar1_read_bytes", "bytes", "VRAM read by the host via BAR1"};
    Counter bar1_write_bytes{*this, "bar1_write_bytes", "bytes",
                             "VRAM written by the host via BAR1"};
    Counter dma_read_bytes{*this, "dma_read_bytes", "bytes", "host memory read by GPU DMA"};
    Counter dma_write_bytes{*this, "dma_write_bytes", "bytes",
                            "host memory written by GPU DMA (MSIs excluded)"};
    Counter dma_errors{*this, "dma_errors", "requests", "DMA requests answered with an error"};
    Counter msis{*this, "msis", "messages", "MSI writes sent"};
    Counter function_level_resets{*this, "function_level_resets", "resets",
                                  "Function Level Resets software started"};
    Counter conventional_resets{*this, "conventional_resets", "resets",
                                "resets through the GPU's reset input"};
    Formula downstream_bytes, upstream_bytes, downstream_tlps, upstream_tlps;
    Formula downstream_busy_ns, upstream_busy_ns;
  };
  enum class Bar { None, Registers, Aperture };

  void config_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned config_transport_dbg(tlm::tlm_generic_payload& tx);
  void config_access(tlm::tlm_generic_payload& tx);
  void mem_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned mem_transport_dbg(tlm::tlm_generic_payload& tx);
  bool mem_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void bar0_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned bar0_transport_dbg(tlm::tlm_generic_payload& tx);
  void bar1_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned bar1_transport_dbg(tlm::tlm_generic_payload& tx);
  bool bar1_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void vram_invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void upstream_b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned upstream_transport_dbg(int id, tlm::tlm_generic_payload& tx);

  Bar decode(uint64_t address, uint64_t bytes, uint64_t& offset) const;
  Bar bar_at(unsigned bar, uint64_t offset, uint64_t bytes) const;
  void bar_request(Bar bar, uint64_t offset, uint64_t link_address, tlm::tlm_generic_payload& tx,
                   sc_core::sc_time& delay);
  unsigned bar_debug(Bar bar, uint64_t offset, tlm::tlm_generic_payload& tx);
  bool aperture_dmi(uint64_t offset, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void revoke_aperture_dmi();
  void revoke_aperture_range(uint64_t first, uint64_t last);
  void register_access(tlm::tlm_generic_payload& tx, uint32_t offset, sc_core::sc_time& delay);
  void aperture_access(tlm::tlm_generic_payload& tx, uint64_t offset, sc_core::sc_time& delay);
  bool aperture_address(uint64_t offset, uint64_t bytes, uint64_t& device_address) const;
  template <typename Forward>
  sc_core::sc_time cross(LinkDirection& out, LinkDirection& back, tlm::tlm_generic_payload& tx,
                         const sc_core::sc_time& delay, bool posted, uint32_t header_bytes,
                         Forward&& forward);

  void wire_registers();
  void reset_registers();  // BAR0's own registers to their reset values
  void send_msi();
  void update_irq();

  PcieConfig params_;
  DeviceInfo device_;
  LinkTiming link_;
  LinkDirection downstream_;  // root port -> GPU
  LinkDirection upstream_;    // GPU -> root port
  ConfigSpace config_;
  RegisterBlock registers_;
  uint32_t intr_status_ = 0;
  uint32_t intr_mask_ = 0;
  uint32_t error_status_ = 0;
  uint32_t error_offset_ = 0;
  uint64_t bar1_window_ = 0;
  // Aperture DMI granted on each socket since the last revocation (mem_target's at BAR1's host
  // address then): a window move, a BAR1 change or Memory Space Enable cleared revokes it.
  bool bar1_dmi_granted_ = false, mem_dmi_granted_ = false;
  uint64_t mem_dmi_base_ = 0;
  bool in_reset_ = false;
  std::function<void()> flr_hook_;
  tlm::tlm_generic_payload msi_tx_;
  uint32_t msi_payload_ = 0;
  Logger log_;
  std::unique_ptr<Stats> stats_;
};

}  // namespace gpusoc::pcie
