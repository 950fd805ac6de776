// One command channel: its registers (bar0::CH_*), and a thread that, when the doorbell rings,
// fetches packets by DMA from the ring in host memory, from GET up to PUT, and executes them in
// order, each to completion. The first error latches in CH_ERROR until the host clears it; the
// channel reports every error and carries on with the next packet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/common/logging.h"
#include "models/common/register_block.h"
#include "models/gigathread/command_services.h"
#include "models/gigathread/command_stats.h"
#include "models/gigathread/packet_executor.h"
#include "models/gigathread/packets.h"

namespace gpusoc::gigathread {

class Channel : public sc_core::sc_module {
 public:
  Channel(sc_core::sc_module_name name, uint32_t index, CommandServices& services,
          StatGroup& stats_parent);

  /// An MMIO access to the channel's registers (address relative to the channel's block);
  /// `delay` is when, after the current time, the access takes effect.
  void access(tlm::tlm_generic_payload& tx, const sc_core::sc_time& delay);
  RegisterBlock& registers() { return regs_; }
  /// A reset begins: the channel disables itself as CH_CONTROL = 0 would (the packet in
  /// execution ends, waits end, nothing more is fetched) and forgets doorbells.
  void stop();
  /// Executes nothing and has nothing pending.
  bool idle() const { return !busy_ && !doorbell_pending_; }
  /// A reset ends (the channel idle): registers and ring state as at power-on.
  void reset();
  const CommandStats& stats() const { return stats_; }

  static constexpr uint32_t kMinRingBytes = sizeof(cmd::Packet);
  static constexpr uint32_t kMaxRingBytes = 16u << 20;

 private:
  void run();      // the channel's SC_THREAD
  void service();  // fetch and execute until GET reaches PUT, or the channel cannot go on
  /// Why the ring registers or `put` are unusable; empty when they are fine.
  std::string ring_problem(uint32_t put) const;
  void execute(const cmd::Packet& packet, uint32_t offset);
  /// Counts, logs and reports an error; the first since CH_ERROR_CLEAR latches and is written
  /// to the error log.
  void record_error(cmd::ErrorCode code, uint32_t offset, const std::string& message);
  void write_error_log(const std::string& message);

  void on_control(uint32_t value);
  uint32_t status() const;

  uint32_t index_;
  CommandServices& services_;
  CommandStats stats_;
  Logger log_;
  RegisterBlock regs_;
  sc_core::sc_event doorbell_;
  sc_core::sc_time access_delay_;   // of the MMIO access being answered
  sc_core::sc_time doorbell_time_;  // when the last doorbell write takes effect
  bool doorbell_pending_ = false;
  bool doorbell_while_disabled_ = false;  // an error to record, not work to do
  bool enabled_ = false;
  bool fetch_stopped_ = false;  // after a fault fetching packets, until enabled again
  bool busy_ = false;
  uint64_t epoch_ = 0;  // counts enables and disables; packets of an old epoch are dropped
  sc_core::sc_event epoch_changed_;
  uint64_t ring_base_ = 0;  // latched when enabled
  uint32_t ring_size_ = 0;
  uint32_t get_ = 0;
  std::vector<cmd::Packet> batch_;
  PacketExecutor executor_;
};

}  // namespace gpusoc::gigathread
