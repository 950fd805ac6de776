// The host CPU's interrupt controller, reduced to what a PCIe device needs: a 4 KiB window at
// the MSI address where message-signalled interrupts land as memory writes. Each write is
// latched at the writer's local time (sc_time_stamp() + delay) and wakes the CPU; latched
// interrupts stay pending until the CPU takes them, so none is lost.
#pragma once

#include <cstdint>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/stat.h"
#include "models/common/stat_group.h"

namespace gpusoc::host {

/// What the CPU sees of its interrupt controller.
class MsiReceiver : public virtual sc_core::sc_interface {
 public:
  /// Takes every MSI latched so far; how many there were.
  virtual unsigned take_pending() = 0;
  /// Notified whenever an MSI is latched.
  virtual const sc_core::sc_event& msi_event() const = 0;
};

class InterruptController : public sc_core::sc_module, public MsiReceiver {
 public:
  /// MSI writes (addresses relative to the window; 4-byte writes, the data is the vector).
  /// Reads get TLM_COMMAND_ERROR_RESPONSE, other sizes TLM_BURST_ERROR_RESPONSE.
  tlm_utils::simple_target_socket<InterruptController> target;
  sc_core::sc_export<MsiReceiver> cpu_export;  // bind the CPU's MSI port here

  SC_HAS_PROCESS(InterruptController);
  InterruptController(sc_core::sc_module_name name, StatGroup& stats_parent);

  unsigned take_pending() override;
  const sc_core::sc_event& msi_event() const override { return latched_; }
  uint32_t last_vector() const { return last_vector_; }

 private:
  struct Stats : StatGroup {
    using StatGroup::StatGroup;
    Counter msis{*this, "msis", "interrupts", "MSI writes received"};
    Counter bad_accesses{*this, "bad_accesses", "accesses",
                         "accesses to the MSI window that were not 4-byte writes"};
  };
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  void latch();

  sc_core::sc_event_queue arrivals_;  // one notification per MSI, at its local time
  sc_core::sc_event latched_;
  unsigned pending_ = 0;
  uint32_t last_vector_ = 0;
  Stats stats_;
};

}  // namespace gpusoc::host
