#include "models/memsys/module_hierarchy.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/memsys/memory_totals.h"

namespace gpusoc::memsys {

ModuleHierarchy::ModuleHierarchy(sc_core::sc_module_name name, const HierarchyConfig& config,
                                 StatGroup& stats, Options options)
    : sc_module(name),
      entry("entry"),
      config_(config),
      options_(options),
      bindings_(options.check_protocol),
      clock_(1e6 / config.l2_clock_mhz),
      pool_(config.l2.line_bytes),
      ports_(config.ports) {
  if (config.ports == 0) throw ConfigError("memory hierarchy: no ports (requesters) to serve");
  if (!config.through_l2) {
    throw ConfigError("memory.model = tlm assembles crossbar, L2 slices and partitions; driving "
                      "the partitions alone is the fused hierarchy's partition mode");
  }
  dram_per_cycle_ = clock_.period_ps() / (config.dram.tck_ns * 1000.0);
  mapping_ = std::make_unique<mempart::AddressMapping>(config.mapping);
  const uint32_t count = config.mapping.partitions;
  if (options.external_memory && options.external_slices) {
    throw ConfigError("external memory and external slices: with an L2 of yours there are no "
                      "slices of ours to put your memory behind");
  }
  totals_ = memory_totals(stats, *this, true, config.mapping.channels,
                          !options.external_memory && !options.external_slices);
  xbar_stats_ = std::make_unique<StatGroup>(stats, "xbar");
  // The groups in the fused hierarchy's order: partitions (with their channels), then each
  // one's ROP and slice, then the crossbar's networks.
  std::vector<StatGroup*> part_groups;
  if (options.external_slices) {
    // Nothing of ours below the crossbar.
  } else if (options.external_memory) {
    for (uint32_t p = 0; p < count; ++p) {
      slice_groups_.push_back(std::make_unique<StatGroup>(stats, "partition" + std::to_string(p)));
      part_groups.push_back(slice_groups_.back().get());
    }
  } else {
    const auto timing = std::make_shared<const mempart::DramTiming>(config.dram);
    const auto pipeline_tck =
        uint32_t(std::llround(config.partition_latency_ns / config.dram.tck_ns));
    for (uint32_t p = 0; p < count; ++p) {
      partitions_.push_back(std::make_unique<mempart::PartitionModule>(
          ("partition" + std::to_string(p)).c_str(), p, *mapping_, timing, config.controller,
          stats, "memory", pipeline_tck));
      part_groups.push_back(&partitions_.back()->partition().stats_group());
    }
  }
  for (uint32_t p = 0; p < part_groups.size(); ++p) {
    slices_.push_back(std::make_unique<l2::L2SliceModule>(
        ("slice" + std::to_string(p)).c_str(), config.l2, config.rop, config.l2_clock_mhz,
        *part_groups[p], "l2", mapping_.get()));
    if (!options.external_memory) {
      bindings_.connect(slices_.back()->memory, partitions_[p]->target,
                        "memory" + std::to_string(p));
    }
  }
  const mempart::AddressMapping* mapping = mapping_.get();
  crossbar_ = std::make_unique<xbar::CrossbarModule>(
      "crossbar", config.xbar, config.ports, count,
      [mapping](uint64_t address) { return mapping->map(address).partition; },
      config.l2_clock_mhz, *xbar_stats_);
  for (uint32_t i = 0; i < config.ports; ++i)
    bindings_.connect(entry, crossbar_->ports, "port" + std::to_string(i));
  for (uint32_t p = 0; p < slices_.size(); ++p)
    bindings_.connect(crossbar_->slices, slices_[p]->target, "slice" + std::to_string(p));
  entry.register_nb_transport_bw(this, &ModuleHierarchy::entry_bw);
  if (options.drives_simulation) {
    SC_HAS_PROCESS(ModuleHierarchy);
    SC_METHOD(start);  // runs once, at initialization
  }
}

void ModuleHierarchy::start() {}

ModuleHierarchy::~ModuleHierarchy() = default;

tlm_utils::simple_initiator_socket<l2::L2SliceModule>& ModuleHierarchy::memory_socket(uint32_t p) {
  return slices_.at(p)->memory;
}

tlm_utils::multi_passthrough_initiator_socket<xbar::CrossbarModule>&
ModuleHierarchy::slice_socket() {
  return crossbar_->slices;
}

const mempart::MemoryPartition& ModuleHierarchy::partition(uint32_t i) const {
  return partitions_.at(i)->partition();
}

uint64_t ModuleHierarchy::dram_cycle(uint64_t cycle) const {
  return uint64_t(double(cycle) * dram_per_cycle_);
}

bool ModuleHierarchy::can_offer(uint32_t port, const MemPacket&) const {
  return port < ports_.size() && ports_[port].request_open == nullptr;
}

uint64_t ModuleHierarchy::room_version(uint32_t port) const {
  return port < ports_.size() ? ports_[port].room : 0;
}

void ModuleHierarchy::offer(uint32_t port, const MemPacket& packet, uint64_t cycle) {
  if (!can_offer(port, packet))
    throw ModelError(name(), fmt::format("port {} offered a packet it cannot take", port));
  // The first packet ends elaboration: the modules run from here (start() is the activity).
  if (options_.drives_simulation && sc_core::sc_get_status() == sc_core::SC_ELABORATION)
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  MemPacket p = packet;
  p.source = uint16_t(port);
  tlm::tlm_generic_payload& tx = pool_.get(p);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = clock_.until(std::max(cycle, now_));
  ++in_flight_;
  ports_[port].request_open = &tx;
  const tlm::tlm_sync_enum answer = entry[port]->nb_transport_fw(tx, phase, delay);
  if (answer == tlm::TLM_UPDATED && phase == tlm::END_REQ) ports_[port].request_open = nullptr;
}

void ModuleHierarchy::request_taken(Port& port) {
  port.request_open = nullptr;
  ++port.room;
  if (wake_owner_) wake_owner_();
}

tlm::tlm_sync_enum ModuleHierarchy::entry_bw(int id, tlm::tlm_generic_payload& tx,
                                             tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  Port& port = ports_.at(size_t(id));
  if (port.request_open == &tx) request_taken(port);  // END_REQ, or BEGIN_RESP standing for it
  if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  if (phase != tlm::BEGIN_RESP)
    throw ModelError(name(), fmt::format("unexpected phase {} on port {}", phase, id));
  arrived_.push_back({packet_of(tx), clock_.cycle_at(sc_core::sc_time_stamp() + delay)});
  tx.release();
  if (wake_owner_) wake_owner_();
  return tlm::TLM_COMPLETED;
}

uint64_t ModuleHierarchy::next_event() const {
  uint64_t next = kNever;
  for (const HierarchyCompletion& c : arrived_) next = std::min(next, c.cycle);
  if (options_.drives_simulation && sc_core::sc_pending_activity()) {
    next = std::min(next, clock_.cycle_at(sc_core::sc_time_stamp() +
                                          sc_core::sc_time_to_pending_activity()));
  }
  return next == kNever ? kNever : std::max(next, now_);
}

void ModuleHierarchy::advance(uint64_t until, std::vector<HierarchyCompletion>& done) {
  if (options_.drives_simulation && until != kNever) {
    const sc_core::sc_time to = clock_.time_of(until), now = sc_core::sc_time_stamp();
    if (to > now) sc_core::sc_start(to - now);
    // The events at `to` itself, and their delta cycles.
    while (sc_core::sc_pending_activity_at_current_time()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  size_t kept = 0;
  for (const HierarchyCompletion& c : arrived_) {
    if (c.cycle <= until) {
      done.push_back(c);
      --in_flight_;
    } else {
      arrived_[kept++] = c;
    }
  }
  arrived_.resize(kept);
  if (until != kNever) now_ = std::max(now_, until);
}

}  // namespace gpusoc::memsys
