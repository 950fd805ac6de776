// The memory hierarchy as SystemC modules bound by TLM-2.0 sockets (memory.model = tlm): the
// same crossbar, L2 slice, ROP and memory partition classes the fused MemoryHierarchy steps,
// each in its own module (xbar/crossbar_module.h, l2/l2_slice_module.h,
// mempart/partition_module.h), talking under the base protocol's approximately timed phases,
// with END_REQ as backpressure and every queue bounded:
//
//   ports --entry--> crossbar.ports | crossbar.slices --> slice<p>.target
//   slice<p>.memory --> partition<p>.target   (or a target of your own: see below)
//
// It presents the PacketNetwork its owner drives, like the fused hierarchy: packets enter
// through `entry` (an initiator binding per port) and their replies come back on it. Inside a
// running simulation (the SoC's MemorySystem) the modules run by themselves and the owner is
// woken through on_activity(); memtrace, which drives no simulation of its own, constructs it
// with `drives_simulation`, and advance() then runs SystemC up to the cycle asked for.
//
// The parts are the fused hierarchy's, so the statistics tree is the same (docs/memory.md lists
// where the two models' timing differs, and why).
//
// A memory model of your own stands in for partition p's: construct with
// `external_memory` set and bind memory_socket(p) to its target before simulation starts. It
// sees each fill as a TLM_READ_COMMAND and each write-back as a TLM_WRITE_COMMAND of the sector
// run (device address, byte enables on the sectors), with a MemPacketExtension it may ignore;
// its data is scratch (timing only). AT targets answer under the base protocol; an LT target
// (b_transport only) binds through tlm_utils::simple_target_socket, which adapts. Such a run
// has no DRAM statistics.
//
// An L2 of your own stands in for the slices (and the partitions behind them) the same way:
// `external_slices`, and bind slice_socket() once per partition. It receives the crossbar's
// packets (a MemPacketExtension: address, sector mask, op) and answers each with BEGIN_RESP.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "models/common/checked_bindings.h"
#include "models/common/cycle_clock.h"
#include "models/common/packet_payload.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/l2/l2_slice_module.h"
#include "models/memsys/memory_hierarchy.h"
#include "models/memsys/packet_network.h"
#include "models/mempart/partition_module.h"
#include "models/xbar/crossbar_module.h"

namespace gpusoc::memsys {

class ModuleHierarchy final : public sc_core::sc_module, public PacketNetwork {
 public:
  tlm_utils::multi_passthrough_initiator_socket<ModuleHierarchy> entry;  // to crossbar.ports

  struct Options {
    bool drives_simulation = false;  // advance() runs sc_start (memtrace): see above
    bool external_memory = false;    // memory_socket(p) left for the user to bind
    bool check_protocol = false;     // a base-protocol checker on every binding inside
    bool external_slices = false;    // slice_socket() left for the user to bind: no L2 of ours
  };
  /// Through the L2 only (config.through_l2): partition mode needs no crossbar to assemble.
  /// ConfigError naming the key of whatever part is misconfigured. Statistics go in `stats`.
  ModuleHierarchy(sc_core::sc_module_name name, const HierarchyConfig& config, StatGroup& stats,
                  Options options);
  ~ModuleHierarchy() override;

  /// Slice p's initiator towards its memory: bound to partition p's model, or with
  /// Options::external_memory, yours to bind.
  tlm_utils::simple_initiator_socket<l2::L2SliceModule>& memory_socket(uint32_t p);
  /// With Options::external_slices: the crossbar's initiator towards the slices, yours to bind
  /// once per partition, in partition order, to targets that take its packets
  /// (MemPacketExtension) and answer each with BEGIN_RESP on the same payload.
  tlm_utils::multi_passthrough_initiator_socket<xbar::CrossbarModule>& slice_socket();
  const xbar::CrossbarModule& crossbar() const { return *crossbar_; }

  // PacketNetwork
  double cycle_ps() const override { return clock_.period_ps(); }
  uint32_t line_bytes() const override { return config_.l2.line_bytes; }
  const mempart::AddressMapping& mapping() const override { return *mapping_; }
  bool can_offer(uint32_t port, const MemPacket& packet) const override;
  uint64_t room_version(uint32_t port) const override;
  void offer(uint32_t port, const MemPacket& packet, uint64_t cycle) override;
  uint64_t next_event() const override;
  uint64_t in_flight() const override { return in_flight_; }
  void advance(uint64_t until, std::vector<HierarchyCompletion>& done) override;
  void on_activity(std::function<void()> wake) override { wake_owner_ = std::move(wake); }
  bool through_l2() const override { return true; }
  uint32_t partitions() const override { return uint32_t(partitions_.size()); }
  const mempart::MemoryPartition& partition(uint32_t i) const override;
  uint32_t slices() const override { return uint32_t(slices_.size()); }
  const l2::L2Slice& slice(uint32_t i) const override { return slices_.at(i)->slice(); }
  const mempart::Rop& rop(uint32_t i) const override { return slices_.at(i)->rop(); }
  uint64_t dram_cycle(uint64_t cycle) const override;
  uint64_t last_cycle() const override { return now_; }

 private:
  struct Port {
    tlm::tlm_generic_payload* request_open = nullptr;  // BEGIN_REQ awaiting END_REQ
    uint64_t room = 0;                                 // END_REQs received: room_version()
  };
  tlm::tlm_sync_enum entry_bw(int port, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay);
  void request_taken(Port& port);
  void start();  // with drives_simulation: the activity that lets the first sc_start run

  HierarchyConfig config_;
  Options options_;
  CheckedBindings bindings_;
  CycleClock clock_;
  double dram_per_cycle_ = 1;
  std::unique_ptr<mempart::AddressMapping> mapping_;
  std::vector<std::unique_ptr<Stat>> totals_;
  std::unique_ptr<StatGroup> xbar_stats_;
  std::vector<std::unique_ptr<StatGroup>> slice_groups_;  // with external memory only
  std::vector<std::unique_ptr<mempart::PartitionModule>> partitions_;
  std::vector<std::unique_ptr<l2::L2SliceModule>> slices_;
  std::unique_ptr<xbar::CrossbarModule> crossbar_;
  PacketPayloadPool pool_;
  std::vector<Port> ports_;
  std::vector<HierarchyCompletion> arrived_;  // replies not yet handed to the owner
  uint64_t in_flight_ = 0;
  uint64_t now_ = 0;
  std::function<void()> wake_owner_;
};

}  // namespace gpusoc::memsys
