// The host CPU: runs one host program (the runtime and the application above it) in an
// SC_THREAD, loosely timed with a quantum keeper. Loads and stores go out on `initiator` as
// b_transport calls carrying the CPU's local time; host memory for the program's own data comes
// as DMI pointers obtained through the same socket; MSIs arrive through `msi_in`.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <systemc>
#include <tlm>

#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/host/host_bus.h"
#include "models/host/host_config.h"
#include "models/host/interrupt_controller.h"

namespace gpusoc::host {

using HostProgram = std::function<void(HostBus&)>;

class HostCpu : public sc_core::sc_module, public HostBus {
 public:
  tlm_utils::simple_initiator_socket<HostCpu> initiator;  // to the host router
  sc_core::sc_port<MsiReceiver> msi_in;                   // the interrupt controller

  SC_HAS_PROCESS(HostCpu);
  HostCpu(sc_core::sc_module_name name, const HostConfig& config, StatGroup& stats_parent);

  /// The program to run when the simulation next starts (or resumes). When it returns (or
  /// throws) the CPU synchronizes and pauses the simulation (sc_pause: sc_start() returns);
  /// another program may then be set and the simulation resumed, from where it paused.
  void set_program(HostProgram program);
  /// Whether the CPU pauses the simulation when its program ends (the default), or lets the
  /// rest of the system run on (for testbenches whose other parts still have work).
  void set_pause_on_exit(bool pause) { pause_on_exit_ = pause; }
  bool finished() const { return finished_; }
  /// Rethrows what the program threw (HostBusError, ...), if anything; call after sc_start().
  void rethrow_program_error() const;

  // HostBus
  void read(uint64_t address, void* data, size_t bytes) override;
  void write(uint64_t address, const void* data, size_t bytes) override;
  uint8_t* memory(uint64_t address, size_t bytes) override;
  void compute(const sc_core::sc_time& duration) override;
  sc_core::sc_time now() const override { return keeper_.get_current_time(); }
  void sync() override;
  bool wait_for_interrupt(const sc_core::sc_time& timeout) override;
  const HostAddressMap& address_map() const override { return config_.map; }

 private:
  /// Synchronizes at boundaries of the CPU's own quantum, not the global one.
  class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
   public:
    explicit QuantumKeeper(const sc_core::sc_time& quantum) : quantum_(quantum) {}

   protected:
    sc_core::sc_time compute_local_quantum() override;

   private:
    sc_core::sc_time quantum_;
  };
  struct Stats : StatGroup {
    using StatGroup::StatGroup;
    Counter reads{*this, "reads", "accesses", "timed loads issued"};
    Counter writes{*this, "writes", "accesses", "timed stores issued"};
    Counter bytes_read{*this, "bytes_read", "bytes", "bytes loaded by timed accesses"};
    Counter bytes_written{*this, "bytes_written", "bytes", "bytes stored by timed accesses"};
    Counter syncs{*this, "syncs", "synchronizations", "times the CPU synchronized with SystemC"};
    Counter interrupts{*this, "interrupts", "interrupts", "MSIs taken by wait_for_interrupt"};
    Counter interrupt_timeouts{*this, "interrupt_timeouts", "waits",
                               "wait_for_interrupt calls that timed out"};
    Scalar compute_ns{*this, "compute_ns", "ns", "time the program spent in compute()"};
  };

  void run();
  void transact(tlm::tlm_command command, uint64_t address, uint8_t* data, size_t bytes);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void advance(const sc_core::sc_time& duration);

  HostConfig config_;
  HostProgram program_;
  bool pause_on_exit_ = true;
  bool finished_ = false;
  std::exception_ptr error_;
  QuantumKeeper keeper_;
  tlm::tlm_generic_payload tx_;
  tlm::tlm_dmi dmi_;  // the host memory region last granted (none until asked)
  bool dmi_valid_ = false;
  sc_core::sc_time compute_time_;
  Stats stats_;
};

}  // namespace gpusoc::host
