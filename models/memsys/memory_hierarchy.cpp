#include "models/memsys/memory_hierarchy.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc::memsys {

MemoryHierarchy::MemoryHierarchy(const HierarchyConfig& config) : config_(config) {
  if (config.ports == 0) throw ConfigError("memory hierarchy: no ports (requesters) to serve");
  if (!(config.l2_clock_mhz > 0))
    throw ConfigError(fmt::format("l2.clock_mhz = {}: must be positive", config.l2_clock_mhz));
  mapping_ = std::make_unique<mempart::AddressMapping>(config.mapping);
  const uint32_t count = config.mapping.partitions;
  for (uint32_t p = 0; p < count; ++p) {
    partitions_.push_back(std::make_unique<mempart::MemoryPartition>(
        p, *mapping_, config.dram, config.controller, "memory"));
  }
  const double tck_ps = config.dram.tck_ns * 1000.0;
  if (!config.through_l2) {
    cycle_ps_ = tck_ps;
    dram_per_cycle_ = 1.0;
    line_bytes_ = config.l2.line_bytes;
    return;
  }
  cycle_ps_ = 1e6 / config.l2_clock_mhz;
  dram_per_cycle_ = cycle_ps_ / tck_ps;
  line_bytes_ = config.l2.line_bytes;
  for (uint32_t p = 0; p < count; ++p) {
    rops_.push_back(std::make_unique<mempart::Rop>(config.rop, "rop"));
    slices_.push_back(std::make_unique<l2::L2Slice>(config.l2, *rops_.back(), "l2"));
  }
  requests_ = std::make_unique<xbar::Crossbar>(config.xbar, config.ports, count, true, "xbar");
  replies_ = std::make_unique<xbar::Crossbar>(config.xbar, count, config.ports, false, "xbar");
}

MemoryHierarchy::~MemoryHierarchy() = default;

uint64_t MemoryHierarchy::dram_cycle(uint64_t cycle) const {
  if (!through_l2()) return cycle;
  return uint64_t(std::floor(double(cycle) * dram_per_cycle_));
}

uint64_t MemoryHierarchy::cycle_of_dram(uint64_t dram) const {
  if (!through_l2() || dram == kNever) return dram;
  uint64_t c = uint64_t(std::ceil(double(dram) / dram_per_cycle_));
  // Rounding may land a cycle short or long of the exact answer; settle it on dram_cycle().
  while (dram_cycle(c) < dram) ++c;
  while (c > 0 && dram_cycle(c - 1) >= dram) --c;
  return c;
}

bool MemoryHierarchy::can_offer(uint32_t port, const MemPacket& packet) const {
  if (through_l2()) return requests_->can_accept(port);
  return partitions_[mapping_->map(packet.address).partition]->can_accept(packet);
}

void MemoryHierarchy::offer(uint32_t port, const MemPacket& packet, uint64_t cycle) {
  if (port >= config_.ports)
    throw ModelError("memory hierarchy", fmt::format("port {} of {}", port, config_.ports));
  if (!can_offer(port, packet))
    throw ModelError("memory hierarchy", fmt::format("port {} offered a packet it cannot take",
                                 port));
  const uint64_t line = packet.address & ~uint64_t(line_bytes_ - 1);
  const uint64_t last = packet.address + (32 - __builtin_clz(packet.sector_mask)) * kSectorBytes;
  if (last - line > line_bytes_)
    throw ModelError("memory hierarchy", fmt::format("packet at {:#x} with sectors {:#x} spans "
                                 "more than one {}-byte line",
                                 packet.address, packet.sector_mask, line_bytes_));
  MemPacket p = packet;
  p.source = uint16_t(port);
  ++in_flight_;
  const uint32_t partition = mapping_->map(p.address).partition;
  if (through_l2()) {
    requests_->push(port, partition, p, std::max(cycle, now_));
  } else {
    partitions_[partition]->accept(p, std::max(cycle, now_));
  }
}

uint64_t MemoryHierarchy::next_event() const {
  uint64_t next = kNever;
  for (const auto& p : partitions_) next = std::min(next, cycle_of_dram(p->next_event()));
  if (!through_l2()) return next;
  next = std::min({next, requests_->next_event(), replies_->next_event()});
  for (const auto& s : slices_) next = std::min(next, s->next_event());
  // Work handed over between parts but not yet taken (an output buffer's packet, an L2's memory
  // or reply queue) is taken at the cycle its receiver makes room: one of the events above.
  return next == kNever ? kNever : std::max(next, now_);
}

void MemoryHierarchy::advance(uint64_t until, std::vector<HierarchyCompletion>& done) {
  uint64_t repeats = 0;  // steps in a row at one cycle: a part that never settles is a bug
  for (uint64_t c = next_event(); c != kNever && c <= until; c = next_event()) {
    repeats = c == now_ ? repeats + 1 : 0;
    if (repeats > 100000)
      throw ModelError("memory hierarchy", fmt::format("no progress at cycle {}", c));
    now_ = c;
    if (through_l2()) {
      step(c, done);
    } else {
      step_partitions(c, done);
    }
  }
  now_ = std::max(now_, until == kNever ? now_ : until);
}

void MemoryHierarchy::step_partitions(uint64_t cycle, std::vector<HierarchyCompletion>& done) {
  for (auto& p : partitions_) {
    p->advance(cycle);
    while (p->reply_ready(cycle)) {
      done.push_back({p->reply(), cycle});
      p->pop_reply();
      --in_flight_;
    }
  }
}

// One cycle, in the order data flows: requests cross the switch into the slices, the slices
// look up, misses go to the partitions, fills come back, replies cross back to the ports.
void MemoryHierarchy::step(uint64_t cycle, std::vector<HierarchyCompletion>& done) {
  requests_->advance(cycle);
  const uint64_t dram = dram_cycle(cycle);
  for (uint32_t s = 0; s < slices_.size(); ++s) {
    l2::L2Slice& slice = *slices_[s];
    while (requests_->ready(s, cycle) && slice.can_accept()) {
      slice.accept(requests_->front(s), cycle);
      requests_->pop(s);
    }
    slice.advance(cycle);
    mempart::MemoryPartition& partition = *partitions_[s];
    while (slice.has_memory_request() && partition.can_accept(slice.memory_request())) {
      partition.accept(slice.memory_request(), dram);
      slice.pop_memory_request();
    }
    partition.advance(dram);
    while (partition.reply_ready(dram)) {
      slice.memory_reply(partition.reply().id, cycle);
      partition.pop_reply();
    }
    while (slice.reply_ready(cycle) && replies_->can_accept(s)) {
      const MemPacket& r = slice.reply();
      replies_->push(s, r.source, r, cycle);
      slice.pop_reply();
    }
  }
  replies_->advance(cycle);
  for (uint32_t port = 0; port < config_.ports; ++port) {
    while (replies_->ready(port, cycle)) {
      done.push_back({replies_->front(port), cycle});
      replies_->pop(port);
      --in_flight_;
    }
  }
}

}  // namespace gpusoc::memsys
