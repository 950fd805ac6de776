// MemoryPartition: packets in, DRAM bursts out to one controller per channel, replies back in
// completion order. Packets in flight live in a pool of slots (grown on demand, then reused: no
// allocation in steady state); a burst's request id is its packet's slot. Atomics reach DRAM as
// reads: the ROP beside the L2 slice computes, and the line goes back as an ordinary write later.
#include "models/mempart/memory_partition.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc::mempart {
namespace {

constexpr const char* kModule = "memory partition";

struct Burst {
  uint32_t channel;
  MemRequest request;
};

}  // namespace

struct MemoryPartition::Impl {
  struct Slot {
    MemPacket packet;
    uint64_t accepted = 0;
    uint64_t answered = 0;   // the latest completion of its bursts so far
    uint32_t remaining = 0;  // bursts not yet complete
  };
  struct Reply {  // a packet answered: ready from `cycle`; `seq` keeps acceptance order in ties
    uint64_t cycle, seq;
    uint32_t slot;
    bool operator>(const Reply& o) const {
      return cycle != o.cycle ? cycle > o.cycle : seq > o.seq;
    }
  };

  Impl(uint32_t i, const AddressMapping& m, StatGroup& stats_parent)
      : index(i), mapping(m), stats(stats_parent, "partition" + std::to_string(i)) {}
  // The bursts of `packet` into `bursts` (ModelError when one belongs to another partition).
  void split(const MemPacket& packet) const;

  uint32_t index;
  const AddressMapping& mapping;
  uint32_t burst_bytes = 0;
  uint32_t pipeline_tck = 0;  // added to every reply's ready cycle
  PartitionStats stats;       // before the channels: their groups are its children
  // Per channel: its controller, its next_event() and the cycle it was advanced through
  // (`advanced` too when it is in step), side by side: advance() reads them for every channel.
  struct Channel {
    Channel(std::shared_ptr<const DramTiming> timing, const ControllerConfig& config,
            StatGroup& stats, const std::string& stats_name, const std::string& prefix)
        : controller(std::move(timing), config, stats, stats_name, prefix) {
      next = controller.next_event();
    }
    uint64_t next = kNever, synced = kNever;
    MemoryController controller;  // by value: one pointer hop less from a step to its plan
  };
  std::vector<Channel> channels;
  std::vector<Slot> slots;
  std::vector<uint32_t> free;
  std::vector<Reply> replies;  // a min-heap on (cycle, seq)
  uint64_t next_seq = 0, last_accept = 0;
  // advance() leaves a controller with nothing due untouched (its state is cold in a large
  // configuration); it is brought to `advanced` before a request enters it.
  uint64_t advanced = kNever;  // the last advance()'s `until`; kNever: none yet
  void sync(uint32_t channel) {
    Channel& c = channels[channel];
    if (c.synced == advanced) return;
    done.clear();
    c.controller.advance(advanced, done);  // nothing is due: this only moves its clock
    c.synced = advanced;
  }
  std::function<void(uint32_t, const DramCommand&)> observer;
  mutable std::vector<Burst> bursts;  // split()'s result, of this packet:
  mutable bool split_valid = false;
  mutable uint64_t split_address = 0;
  mutable uint32_t split_mask = 0;
  mutable MemOp split_op = MemOp::Read;
  // can_accept()'s scratch, per channel and direction: 0 between calls.
  mutable std::vector<uint32_t> need;
  std::vector<MemCompletion> done;  // advance()'s scratch
};

void MemoryPartition::Impl::split(const MemPacket& packet) const {
  // accept() splits what can_accept() just split: keep that.
  if (split_valid && packet.address == split_address && packet.sector_mask == split_mask &&
      packet.op == split_op) {
    return;
  }
  split_valid = false;
  bursts.clear();
  uint64_t last = ~0ull;
  for (uint32_t mask = packet.sector_mask; mask != 0; mask &= mask - 1) {
    const uint64_t sector = packet.address + uint64_t(__builtin_ctz(mask)) * kSectorBytes;
    const uint64_t burst = sector & ~uint64_t(burst_bytes - 1);
    if (burst == last) continue;  // sectors ascend: a burst's sectors are adjacent
    last = burst;
    const DramLocation at = mapping.map(burst);
    if (at.partition != index) {
      throw ModelError(kModule, fmt::format("partition {}: packet {} address {:#x} belongs to "
                                            "partition {}",
                                            index, packet.id, burst, at.partition));
    }
    MemRequest r;
    r.write = packet.op == MemOp::Write;
    r.bank_group = at.bank_group, r.bank = at.bank, r.row = at.row, r.column = at.column;
    bursts.push_back(Burst{at.channel, r});
  }
  split_valid = true;
  split_address = packet.address, split_mask = packet.sector_mask, split_op = packet.op;
}

MemoryPartition::MemoryPartition(uint32_t index, const AddressMapping& mapping,
                                 std::shared_ptr<const DramTiming> timing,
                                 const ControllerConfig& controller, StatGroup& stats_parent,
                                 const std::string& prefix, uint32_t pipeline_tck) {
  // Checked before anything is built, its statistics group included.
  const AddressMappingConfig& m = mapping.config();
  if (index >= m.partitions) {
    throw ConfigError(fmt::format("{}: partition {} of {}", prefix, index, m.partitions));
  }
  if (!timing) throw ModelError(kModule, "constructed without a timing");
  if (m.burst_bytes != timing->burst_bytes()) {
    throw ConfigError(fmt::format("{}.mapping.burst_bytes ({}) differs from {}'s burst ({} bytes)",
                                  prefix, m.burst_bytes, timing->name, timing->burst_bytes()));
  }
  impl_ = std::make_unique<Impl>(index, mapping, stats_parent);
  impl_->pipeline_tck = pipeline_tck;
  impl_->burst_bytes = m.burst_bytes;
  impl_->channels.reserve(m.channels);
  for (uint32_t c = 0; c < m.channels; ++c) {
    impl_->channels.emplace_back(timing, controller, impl_->stats, "channel" + std::to_string(c),
                                 prefix + ".controller");
  }
  impl_->need.resize(size_t(m.channels) * 2);
  impl_->bursts.reserve(32);
  impl_->done.reserve(64);
}

MemoryPartition::~MemoryPartition() = default;
MemoryPartition::MemoryPartition(MemoryPartition&&) noexcept = default;

bool MemoryPartition::can_accept(const MemPacket& packet) const {
  Impl& p = *impl_;
  p.split(packet);
  if (p.bursts.size() == 1) {  // most packets: one sector, or sectors within one burst
    const Burst& b = p.bursts.front();
    return p.channels[b.channel].controller.can_accept(b.request.write);
  }
  // Only the channels the bursts go to: count, compare, and clear the counts again.
  for (const Burst& b : p.bursts) ++p.need[b.channel * 2 + b.request.write];
  bool room = true;
  for (const Burst& b : p.bursts) {
    room = room && p.need[b.channel * 2 + b.request.write] <=
                       p.channels[b.channel].controller.room(b.request.write);
  }
  for (const Burst& b : p.bursts) p.need[b.channel * 2 + b.request.write] = 0;
  return room;
}

void MemoryPartition::accept(const MemPacket& packet, uint64_t cycle) {
  Impl& p = *impl_;
  if (!can_accept(packet)) {  // also splits it into p.bursts
    throw ModelError(
        kModule, fmt::format("partition {}: packet {} accepted without room", p.index, packet.id));
  }
  if (cycle < p.last_accept) {
    throw ModelError(kModule, fmt::format("partition {}: packet {} accepted at {}, before an "
                                          "earlier one ({})",
                                          p.index, packet.id, cycle, p.last_accept));
  }
  p.last_accept = cycle;
  if (p.free.empty()) {
    p.free.push_back(uint32_t(p.slots.size()));
    p.slots.emplace_back();
  }
  const uint32_t slot = p.free.back();
  p.free.pop_back();
  Impl::Slot& s = p.slots[slot];
  s.packet = packet, s.accepted = cycle, s.answered = cycle;
  s.remaining = uint32_t(p.bursts.size());
  for (Burst& b : p.bursts) {
    b.request.id = slot, b.request.arrival = cycle, b.request.source = packet.source;
    p.sync(b.channel);
    p.channels[b.channel].controller.enqueue(b.request);
    p.channels[b.channel].next = p.channels[b.channel].controller.next_event();
  }
  ++p.stats.packets;
  p.stats.read_packets += packet.op != MemOp::Write;
  p.stats.write_packets += packet.op == MemOp::Write;
  p.stats.bursts += p.bursts.size();
}

uint64_t MemoryPartition::next_event() const {
  uint64_t next = impl_->replies.empty() ? kNever : impl_->replies.front().cycle;
  for (const Impl::Channel& c : impl_->channels) next = std::min(next, c.next);
  return next;
}

void MemoryPartition::advance(uint64_t until) {
  Impl& p = *impl_;
  p.advanced = until;
  for (Impl::Channel& channel : p.channels) {
    if (channel.next > until) continue;
    MemoryController& c = channel.controller;
    p.done.clear();
    c.advance(until, p.done);
    channel.synced = until;
    channel.next = c.next_event();
    for (const MemCompletion& d : p.done) {
      Impl::Slot& s = p.slots[d.id];
      s.answered = std::max(s.answered, d.cycle);
      if (--s.remaining != 0) continue;
      if (s.packet.op != MemOp::Write) p.stats.read_latency_cycles += s.answered - s.accepted;
      const uint64_t ready = s.answered + p.pipeline_tck;
      p.replies.push_back(Impl::Reply{ready, p.next_seq++, uint32_t(d.id)});
      std::push_heap(p.replies.begin(), p.replies.end(), std::greater<>());
    }
  }
}

bool MemoryPartition::reply_ready(uint64_t cycle) const {
  return !impl_->replies.empty() && impl_->replies.front().cycle <= cycle;
}

const MemPacket& MemoryPartition::reply() const {
  if (impl_->replies.empty()) throw ModelError(kModule, "reply() with no reply");
  return impl_->slots[impl_->replies.front().slot].packet;
}

void MemoryPartition::pop_reply() {
  Impl& p = *impl_;
  if (p.replies.empty()) throw ModelError(kModule, "pop_reply() with no reply");
  p.free.push_back(p.replies.front().slot);
  std::pop_heap(p.replies.begin(), p.replies.end(), std::greater<>());
  p.replies.pop_back();
}

uint32_t MemoryPartition::channels() const {
  return uint32_t(impl_->channels.size());
}

const MemoryController& MemoryPartition::controller(uint32_t channel) const {
  if (channel >= impl_->channels.size()) {
    throw ModelError(kModule, fmt::format("channel {} of {}", channel, channels()));
  }
  return impl_->channels[channel].controller;
}

const PartitionStats& MemoryPartition::stats() const {
  return impl_->stats;
}

StatGroup& MemoryPartition::stats_group() {
  return impl_->stats;
}

void MemoryPartition::set_command_observer(
    std::function<void(uint32_t channel, const DramCommand&)> observer) {
  Impl& p = *impl_;
  p.observer = std::move(observer);
  for (uint32_t c = 0; c < p.channels.size(); ++c) {
    if (!p.observer) {
      p.channels[c].controller.set_command_observer(nullptr);
      continue;
    }
    p.channels[c].controller.set_command_observer(
        [&p, c](const DramCommand& command) { p.observer(c, command); });
  }
}

}  // namespace gpusoc::mempart
