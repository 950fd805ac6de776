#include "models/memsys/memory_hierarchy.h"

#include <algorithm>
#include <functional>
#include <cmath>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/memsys/memory_totals.h"

namespace gpusoc::memsys {

MemoryHierarchy::MemoryHierarchy(const HierarchyConfig& config, StatGroup& stats)
    : config_(config) {
  if (config.ports == 0) throw ConfigError("memory hierarchy: no ports (requesters) to serve");
  if (!(config.l2_clock_mhz > 0))
    throw ConfigError(fmt::format("l2.clock_mhz = {}: must be positive", config.l2_clock_mhz));
  mapping_ = std::make_unique<mempart::AddressMapping>(config.mapping);
  totals_ = memory_totals(stats, *this, config.through_l2, config.mapping.channels);
  if (config.through_l2) xbar_stats_ = std::make_unique<StatGroup>(stats, "xbar");
  const uint32_t count = config.mapping.partitions;
  partitions_.reserve(count);
  // One timing for every controller: it stays in the host's cache.
  const auto timing = std::make_shared<const mempart::DramTiming>(config.dram);
  const uint32_t pipeline_tck =
      config.through_l2 ? uint32_t(std::llround(config.partition_latency_ns / config.dram.tck_ns))
                        : 0;
  for (uint32_t p = 0; p < count; ++p) {
    partitions_.emplace_back(p, *mapping_, timing, config.controller, stats, "memory",
                             pipeline_tck);
  }
  advanced_.assign(count, kNever);
  slice_advanced_.assign(count, kNever);
  next_.assign(count, kNever);
  partition_next_.assign(count, kNever);
  slice_next_.assign(count, kNever);
  slice_work_.assign(count, 0);
  is_stale_.assign(count, 0);
  for (uint32_t p = 0; p < count; ++p) stale(p, kPartitionStale);
  visits_ = IndexBits(count);
  ports_ready_ = IndexBits(config.ports);
  part_steps_.assign(count, 0);
  refused_by_.assign(config.ports, 0);
  retrying_.assign(count, 0);
  is_reply_blocked_.assign(count, 0);
  const double tck_ps = config.dram.tck_ns * 1000.0;
  if (!config.through_l2) {
    cycle_ps_ = tck_ps;
    dram_per_cycle_ = 1.0;
    line_bytes_ = config.l2.line_bytes;
    return;
  }
  cycle_ps_ = 1e6 / config.l2_clock_mhz;
  dram_per_cycle_ = cycle_ps_ / tck_ps;
  cycles_per_dram_ = tck_ps / cycle_ps_;
  line_bytes_ = config.l2.line_bytes;
  slices_.reserve(count);
  for (uint32_t p = 0; p < count; ++p) {
    StatGroup& part = partitions_[p].stats_group();
    rops_.push_back(std::make_unique<mempart::Rop>(config.rop, part, "rop"));
    slices_.emplace_back(config.l2, *rops_.back(), part, "l2", mapping_.get());
  }
  requests_ = std::make_unique<xbar::Crossbar>(config.xbar, config.ports, count, true,
                                               *xbar_stats_, "xbar");
  replies_ = std::make_unique<xbar::Crossbar>(config.xbar, count, config.ports, false,
                                              *xbar_stats_, "xbar");
}

MemoryHierarchy::~MemoryHierarchy() = default;

uint64_t MemoryHierarchy::dram_cycle(uint64_t cycle) const {
  if (!through_l2()) return cycle;
  return uint64_t(double(cycle) * dram_per_cycle_);  // truncation: floor, as it is not negative
}

uint64_t MemoryHierarchy::cycle_of_dram(uint64_t dram) const {
  if (!through_l2() || dram == kNever) return dram;
  uint64_t c = uint64_t(double(dram) * cycles_per_dram_);
  // A guess a cycle or so short or long of the exact answer; settle it on dram_cycle().
  while (dram_cycle(c) < dram) ++c;
  while (c > 0 && dram_cycle(c - 1) >= dram) --c;
  return c;
}

bool MemoryHierarchy::can_offer(uint32_t port, const MemPacket& packet) const {
  if (through_l2()) return requests_->can_accept(port);
  const uint32_t partition = mapping_->map(packet.address).partition;
  if (partitions_[partition].can_accept(packet)) return true;
  if (port < refused_by_.size()) refused_by_[port] = partition;
  return false;
}

uint64_t MemoryHierarchy::room_version(uint32_t port) const {
  if (port >= config_.ports) return 0;  // never room: can_offer() refuses it
  // Through the L2 a port's room is its crossbar input's, which grants free.
  return through_l2() ? requests_->granted(port) : part_steps_[refused_by_[port]];
}

void MemoryHierarchy::offer(uint32_t port, const MemPacket& packet, uint64_t cycle) {
  if (port >= config_.ports)
    throw ModelError("memory hierarchy", fmt::format("port {} of {}", port, config_.ports));
  const uint64_t line = packet.address & ~uint64_t(line_bytes_ - 1);
  const uint64_t last = packet.address + (32 - __builtin_clz(packet.sector_mask)) * kSectorBytes;
  if (last - line > line_bytes_)
    throw ModelError("memory hierarchy",
                     fmt::format("packet at {:#x} with sectors {:#x} spans "
                                 "more than one {}-byte line",
                                 packet.address, packet.sector_mask, line_bytes_));
  // can_offer(), without mapping the address twice (a partition checks its own room).
  const uint32_t partition = mapping_->map(packet.address).partition;
  if (through_l2() && !requests_->can_accept(port))
    throw ModelError("memory hierarchy",
                     fmt::format("port {} offered a packet it cannot take", port));
  MemPacket p = packet;
  p.source = uint16_t(port);
  ++in_flight_;
  if (through_l2()) {
    requests_->push(port, partition, p, std::max(cycle, now_));
  } else {
    catch_up(partition);
    partitions_[partition].accept(p, std::max(cycle, now_));
    stale(partition, kPartitionStale);
  }
}

void MemoryHierarchy::stale(uint32_t part, uint8_t what) const {
  if (!is_stale_[part]) stale_.push_back(part);
  is_stale_[part] |= what;
}

void MemoryHierarchy::list(std::vector<uint32_t>& parts, std::vector<uint8_t>& listed,
                           uint32_t part) {
  if (!listed[part]) listed[part] = 1, parts.push_back(part);
}

// Takes again the next events of the parts something happened to since.
void MemoryHierarchy::refresh_next() const {
  for (uint32_t p : stale_) {
    if (is_stale_[p]) refresh(p);
  }
  stale_.clear();
}

// Takes again part p's next events, as far as they are stale. A step does this at the end of each
// visit, while the part's state is still in the host's cache (nothing later in the step changes
// it), rather than leave it all to next_event().
void MemoryHierarchy::refresh(uint32_t p) const {
  if (is_stale_[p] & kPartitionStale) {
    partition_next_[p] = cycle_of_dram(partitions_[p].next_event());
  }
  if (through_l2() && (is_stale_[p] & kSliceStale)) slice_next_[p] = slices_[p].next_event();
  is_stale_[p] = 0;
  next_[p] = std::min(partition_next_[p], slice_next_[p]);
}

uint64_t MemoryHierarchy::next_event() const {
  refresh_next();
  uint64_t next = *std::min_element(next_.begin(), next_.end());
  if (through_l2()) next = std::min({next, requests_->next_event(), replies_->next_event()});
  // Work handed over between parts but not yet taken (an output buffer's packet, an L2's memory
  // or reply queue) waits for its receiver to make room, at one of the events above, and goes
  // the cycle after (retry_): not at whatever step comes next, so that the steps taken never
  // change the outcome (a step with nothing due for a part leaves it as it was).
  if (!retry_.empty()) next = std::min(next, now_ + 1);
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
    last_step_ = c;
    last_step_dram_ = dram_cycle(c);
  }
  now_ = std::max(now_, until == kNever ? now_ : until);
}

// Advances a partition that steps passed by to the last of them.
void MemoryHierarchy::catch_up(uint32_t part) {
  if (advanced_[part] == last_step_) return;
  advanced_[part] = last_step_;
  partitions_[part].advance(last_step_dram_);
}

void MemoryHierarchy::step_partitions(uint64_t cycle, std::vector<HierarchyCompletion>& done) {
  for (uint32_t p = 0; p < partitions_.size(); ++p) visits_.insert_if(p, next_[p] <= cycle);
  visits_.take([&](uint32_t p) {
    mempart::MemoryPartition& partition = partitions_[p];
    catch_up(p);
    partition.advance(cycle);
    advanced_[p] = cycle;
    ++part_steps_[p];
    while (partition.reply_ready(cycle)) {
      done.push_back({partition.reply(), cycle});
      partition.pop_reply();
      --in_flight_;
    }
    stale(p, kPartitionStale);
    refresh(p);
  });
}

// One cycle, in the order data flows: requests cross the switch into the slices, the slices
// look up, misses go to the partitions, fills come back, replies cross back to the ports.
void MemoryHierarchy::step(uint64_t cycle, std::vector<HierarchyCompletion>& done) {
  requests_->advance(cycle);
  // Parts with work for their slice, and parts whose partition alone has an event due (a DRAM
  // command, most of the time: nothing the slice need hear of unless data comes back).
  for (uint32_t s : retry_) retrying_[s] = 0, visits_.insert(s), slice_work_[s] = 1;
  retry_.clear();
  for (uint32_t s : requests_->delivered()) visits_.insert(s), slice_work_[s] = 1;
  for (uint32_t s = 0; s < slices_.size(); ++s) {
    visits_.insert_if(s, next_[s] <= cycle);
    slice_work_[s] |= slice_next_[s] <= cycle;
  }
  const uint64_t dram = dram_cycle(cycle);
  visits_.take([&](uint32_t s) {
    if (slice_work_[s] || !visit_partition(s, cycle, dram)) visit(s, cycle, dram);
    slice_work_[s] = 0;
    refresh(s);
  });
  replies_->advance(cycle);
  for (size_t i = 0; i < reply_blocked_.size();) {
    const uint32_t s = reply_blocked_[i];
    if (!replies_->can_accept(s)) {
      ++i;
      continue;
    }
    list(retry_, retrying_, s);
    is_reply_blocked_[s] = 0;
    reply_blocked_[i] = reply_blocked_.back();
    reply_blocked_.pop_back();
  }
  for (uint32_t port : replies_->delivered()) ports_ready_.insert(port);
  ports_ready_.take([&](uint32_t port) {
    while (replies_->ready(port, cycle)) {
      done.push_back({replies_->front(port), cycle});
      replies_->pop(port);
      --in_flight_;
    }
  });
}

// A visit for the partition's own event (a DRAM command, most of the time): the slice is left
// alone unless data came back. False, having changed nothing, when the slice has a packet for
// memory: that enters before the partition advances, in the whole visit.
bool MemoryHierarchy::visit_partition(uint32_t s, uint64_t cycle, uint64_t dram) {
  if (slices_[s].has_memory_request()) return false;
  mempart::MemoryPartition& partition = partitions_[s];
  advance_partition(s, cycle, dram, false);
  if (partition.reply_ready(dram)) {
    slice_in(s, cycle);
    take_replies(s, cycle, dram);
    slice_out(s, cycle, sendable(s));
  }
  return true;
}

// Whether slice s's next memory packet can go to its partition now.
bool MemoryHierarchy::sendable(uint32_t s) const {
  return slices_[s].has_memory_request() &&
         partitions_[s].can_accept(slices_[s].memory_request());
}

// The slice's side of a visit, first: packets from the request network, then its lookups.
void MemoryHierarchy::slice_in(uint32_t s, uint64_t cycle) {
  l2::L2Slice& slice = slices_[s];
  if (slice_advanced_[s] != last_step_) slice.advance(last_step_);  // catch up
  slice_advanced_[s] = cycle;
  stale(s, kSliceStale);
  while (requests_->ready(s, cycle) && slice.can_accept()) {
    slice.accept(requests_->front(s), cycle);
    requests_->pop(s);
  }
  slice.advance(cycle);
}

// The partition at this step: the slice's packets in (while `to_memory`), then its commands.
void MemoryHierarchy::advance_partition(uint32_t s, uint64_t cycle, uint64_t dram, bool to_memory) {
  l2::L2Slice& slice = slices_[s];
  mempart::MemoryPartition& partition = partitions_[s];
  catch_up(s);
  advanced_[s] = cycle;
  stale(s, kPartitionStale);
  for (; to_memory; to_memory = sendable(s)) {
    partition.accept(slice.memory_request(), dram);
    slice.pop_memory_request();
  }
  partition.advance(dram);
}

// The partition's answers to the slice.
void MemoryHierarchy::take_replies(uint32_t s, uint64_t cycle, uint64_t dram) {
  mempart::MemoryPartition& partition = partitions_[s];
  while (partition.reply_ready(dram)) {
    slices_[s].memory_reply(partition.reply().id, cycle);
    partition.pop_reply();
  }
}

// The slice's side of a visit, last: its replies into the reply network, and what to retry.
void MemoryHierarchy::slice_out(uint32_t s, uint64_t cycle, bool to_memory) {
  l2::L2Slice& slice = slices_[s];
  while (slice.reply_ready(cycle) && replies_->can_accept(s)) {
    const MemPacket& r = slice.reply();
    replies_->push(s, r.source, r, cycle);
    slice.pop_reply();
  }
  // What this visit made room for goes at the next cycle (next_event() says so).
  if (to_memory || (requests_->ready(s, cycle) && slice.can_accept())) list(retry_, retrying_, s);
  if (slice.reply_ready(cycle)) list(reply_blocked_, is_reply_blocked_, s);
}

void MemoryHierarchy::visit(uint32_t s, uint64_t cycle, uint64_t dram) {
  slice_in(s, cycle);
  bool to_memory = sendable(s);
  // The partition only when it takes a packet or has an event due.
  if (to_memory || partition_next_[s] <= cycle) {
    advance_partition(s, cycle, dram, to_memory);
    take_replies(s, cycle, dram);
    to_memory = sendable(s);  // fills may have made room, or write-backs
  }
  slice_out(s, cycle, to_memory);
}

}  // namespace gpusoc::memsys
