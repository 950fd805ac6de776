// The GPU's memory hierarchy below the SMs, assembled: the crossbar's request network from the
// SM ports to the L2 slices, one L2 slice per memory partition (with the partition's ROP), the
// partitions' memory controllers and DRAM, and the reply network back. Or, in partition mode,
// requests straight into the partitions (the DRAM side alone, for calibration and for
// comparison with DRAM simulators).
//
// Pure C++ and event-driven: the owner (the memtrace driver, or the SystemC MemorySystem that
// the SMs talk to) offers packets at a cycle, asks when the next thing happens, and advances to
// it; a hierarchy with nothing to do costs nothing. Cycles are the hierarchy's clock: the
// crossbar and L2 clock, or in partition mode the DRAM command clock. The partitions run in
// their own clock underneath, so DRAM command timing is exact; only hand-offs between the L2 and
// a partition are rounded to the hierarchy's cycles.
//
// Every queue on the way is bounded (crossbar buffers, L2 queues, controller queues): a full
// one stops whoever feeds it, back to can_offer() at the ports.
//
// Statistics, in the owner's group: totals over the parts (dram_*, l2_*, rop_*), then
// xbar.requests and xbar.replies (per port), then partition<p> with its channels' controllers
// (channel<c>), its ROP (rop) and its L2 slice (l2).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/index_bits.h"
#include "models/common/mem_packet.h"
#include "models/common/stat.h"
#include "models/common/stat_group.h"
#include "models/l2/l2_slice.h"
#include "models/mempart/address_mapping.h"
#include "models/mempart/dram_timing.h"
#include "models/mempart/memory_controller.h"
#include "models/mempart/memory_partition.h"
#include "models/mempart/rop.h"
#include "models/memsys/packet_network.h"
#include "models/xbar/crossbar.h"

namespace gpusoc::memsys {

struct HierarchyConfig {
  uint32_t ports = 1;          // requesters: SMs, or the trace driver's sources
  bool through_l2 = true;      // false: partition mode (no crossbar, no L2)
  /// memory.model = tlm: the MemorySystem assembles the parts as SystemC modules bound by
  /// sockets (module_hierarchy.h) instead of the fused MemoryHierarchy.
  bool modules = false;
  /// With modules: the slices' memory sockets are left for the platform to bind
  /// (ModuleHierarchy::Options::external_memory).
  bool external_memory = false;
  /// With modules: the crossbar's slice sockets are left for the platform to bind its own L2
  /// (ModuleHierarchy::Options::external_slices).
  bool external_slices = false;
  /// With modules: a base-protocol checker on every socket binding between them.
  bool check_protocol = false;
  double l2_clock_mhz = 1000;  // crossbar and L2 clock
  mempart::DramTiming dram;    // one channel's device (the preset), its tCK the DRAM clock
  mempart::AddressMappingConfig mapping;  // partitions and channels per partition included
  mempart::ControllerConfig controller;
  xbar::CrossbarConfig xbar;
  l2::L2Config l2;
  mempart::RopConfig rop;
  /// Latency of the pipelines between the SM and the L2 that are not timed stage by stage (the
  /// SM's memory interface, the crossbar's stages), both ways, L2 hits included: whoever reports
  /// a reply adds it. It delays, it never limits bandwidth.
  double fixed_latency_ns = 0;
  /// Latency of the frame-buffer pipeline an L2 miss crosses beyond DRAM timing (controller front
  /// end, PHY, the way back to the slice): each partition's replies are ready this much later.
  /// Only through the L2: partition mode measures the DRAM side alone. It never limits bandwidth.
  double partition_latency_ns = 0;
  /// Requests each port's memory interface holds before the crossbar takes them (the SoC's
  /// MemorySystem; memtrace keeps one request in hand per port).
  uint32_t port_queue = 16;
};

class MemoryHierarchy final : public PacketNetwork {
 public:
  /// ConfigError naming the key of whatever part is misconfigured. Statistics go in `stats`.
  MemoryHierarchy(const HierarchyConfig& config, StatGroup& stats);
  ~MemoryHierarchy() override;

  double cycle_ps() const override { return cycle_ps_; }
  uint32_t line_bytes() const override { return line_bytes_; }
  const mempart::AddressMapping& mapping() const override { return *mapping_; }

  bool can_offer(uint32_t port, const MemPacket& packet) const override;
  uint64_t room_version(uint32_t port) const override;
  void offer(uint32_t port, const MemPacket& packet, uint64_t cycle) override;
  /// Never kNever for long: DRAM refresh goes on while idle.
  uint64_t next_event() const override;
  uint64_t in_flight() const override { return in_flight_; }
  void advance(uint64_t until, std::vector<HierarchyCompletion>& done) override;

  bool through_l2() const override { return !slices_.empty(); }
  uint32_t partitions() const override { return uint32_t(partitions_.size()); }
  const mempart::MemoryPartition& partition(uint32_t i) const override { return partitions_[i]; }
  uint32_t slices() const override { return uint32_t(slices_.size()); }
  const l2::L2Slice& slice(uint32_t i) const override { return slices_[i]; }
  const mempart::Rop& rop(uint32_t i) const override { return *rops_[i]; }
  uint64_t dram_cycle(uint64_t cycle) const override;
  uint64_t last_cycle() const override { return now_; }
  const xbar::Crossbar& request_network() const { return *requests_; }
  const xbar::Crossbar& reply_network() const { return *replies_; }

 private:
  void step(uint64_t cycle, std::vector<HierarchyCompletion>& done);
  void step_partitions(uint64_t cycle, std::vector<HierarchyCompletion>& done);
  // One part (a partition and, through the L2, its slice) at the step at `cycle`.
  void visit(uint32_t part, uint64_t cycle, uint64_t dram);
  bool visit_partition(uint32_t part, uint64_t cycle, uint64_t dram);
  bool sendable(uint32_t part) const;
  void slice_in(uint32_t part, uint64_t cycle);
  void advance_partition(uint32_t part, uint64_t cycle, uint64_t dram, bool to_memory);
  void take_replies(uint32_t part, uint64_t cycle, uint64_t dram);
  void slice_out(uint32_t part, uint64_t cycle, bool to_memory);
  void catch_up(uint32_t part);
  static constexpr uint8_t kSliceStale = 1, kPartitionStale = 2;
  void stale(uint32_t part, uint8_t what) const;
  void list(std::vector<uint32_t>& parts, std::vector<uint8_t>& listed, uint32_t part);
  void refresh_next() const;
  void refresh(uint32_t part) const;
  /// The first hierarchy cycle whose DRAM cycle reaches `dram`.
  uint64_t cycle_of_dram(uint64_t dram) const;

  HierarchyConfig config_;
  double cycle_ps_ = 0;
  double dram_per_cycle_ = 1;   // DRAM cycles per hierarchy cycle
  double cycles_per_dram_ = 1;  // its inverse, for cycle_of_dram()'s first guess
  uint32_t line_bytes_ = 128;
  std::unique_ptr<mempart::AddressMapping> mapping_;
  std::vector<std::unique_ptr<Stat>> totals_;
  std::unique_ptr<StatGroup> xbar_stats_;  // the two networks' groups; null in partition mode
  // By value: a step reaches a part's state in one pointer hop, not two.
  std::vector<mempart::MemoryPartition> partitions_;
  std::vector<std::unique_ptr<mempart::Rop>> rops_;
  std::vector<l2::L2Slice> slices_;  // empty in partition mode
  std::unique_ptr<xbar::Crossbar> requests_, replies_;
  uint64_t now_ = 0;  // the last cycle advanced to
  uint64_t in_flight_ = 0;

  // A step visits only the parts with something to do; the others are advanced to the last
  // step when next visited (or offered a packet), which is what advancing them at every step
  // would have done, since nothing was due for them meanwhile.
  uint64_t last_step_ = kNever, last_step_dram_ = 0;
  // Per part: the step its partition, and its slice, were last advanced to.
  std::vector<uint64_t> advanced_, slice_advanced_;
  // Per part: its next event, its partition's and its slice's (hierarchy cycles).
  mutable std::vector<uint64_t> next_, partition_next_, slice_next_;
  std::vector<uint8_t> slice_work_;        // this step: the part's slice has something to do
  mutable std::vector<uint32_t> stale_;    // parts whose next_ is to be taken again
  mutable std::vector<uint8_t> is_stale_;  // what of them: kSliceStale, kPartitionStale
  IndexBits visits_;  // this step's, taken in part order (as if every step visited all)
  // Parts whose hand-over to a neighbour was refused and may go at the next step now that the
  // neighbour has room; parts whose reply waits for room in the reply network.
  std::vector<uint32_t> retry_, reply_blocked_;
  std::vector<uint8_t> retrying_, is_reply_blocked_;
  IndexBits ports_ready_;  // the reply network's outputs with packets this step
  // room_version() in partition mode: per part, steps that advanced it; per port, the part
  // that last refused it.
  std::vector<uint64_t> part_steps_;
  mutable std::vector<uint32_t> refused_by_;
};

}  // namespace gpusoc::memsys
