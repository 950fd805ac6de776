// The L2 slice's configuration, queues and event loop; the lookup itself is in l2_lookup.cpp.
#include "models/l2/l2_slice.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/error.h"
#include "models/l2/l2_slice_impl.h"

namespace gpusoc::l2 {
namespace {

bool power_of_two(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

std::string L2Config::problem(const std::string& prefix) const {
  const auto bad = [&](const char* key, uint64_t value, const std::string& why) {
    return fmt::format("{}.{} = {}: {}", prefix, key, value, why);
  };
  if (sector_bytes != kSectorBytes) {
    return bad("sector_bytes", sector_bytes, fmt::format("must be {}", kSectorBytes));
  }
  if (!power_of_two(line_bytes) || line_bytes < kSectorBytes || line_bytes > 32 * kSectorBytes) {
    return bad(
        "line_bytes", line_bytes,
        fmt::format("must be a power of two from {} to {}", kSectorBytes, 32 * kSectorBytes));
  }
  if (size_bytes != 0) {
    if (ways == 0 || ways > 64)
      return bad("ways", ways, "must be from 1 to 64");  // a set's ways: one word
    const uint64_t set_bytes = uint64_t(line_bytes) * ways;
    if (size_bytes < set_bytes || size_bytes % set_bytes != 0) {
      return bad("size_bytes", size_bytes,
                 fmt::format("must be a multiple of {}.line_bytes x {}.ways ({})", prefix, prefix,
                             set_bytes));
    }
  }
  if (hit_latency == 0) return bad("hit_latency", hit_latency, "must be at least 1 cycle");
  if (bytes_per_cycle == 0) return bad("bytes_per_cycle", bytes_per_cycle, "must be at least 1");
  if (mshrs == 0 || mshrs >= (1u << 31)) {  // MSHR indices share fill ids with a flag bit
    return bad("mshrs", mshrs, "must be from 1 to 2^31 - 1");
  }
  if (mshr_merges == 0) return bad("mshr_merges", mshr_merges, "must be at least 1 (the first)");
  if (input_queue == 0) return bad("input_queue", input_queue, "must be at least 1");
  if (memory_queue < (size_bytes != 0 ? 2u : 1u)) {
    return bad("memory_queue", memory_queue,
               "must be at least 2 (a miss may send a fill and a write-back)");
  }
  if (reply_queue == 0) return bad("reply_queue", reply_queue, "must be at least 1");
  if (!replacement_policies().find(replacement.name)) {
    return fmt::format("{}.replacement = '{}': unknown (known: {})", prefix, replacement.name,
                       fmt::join(replacement_policies().names(), ", "));
  }
  return {};
}

L2Slice::Impl::Impl(const L2Config& c, mempart::Rop& r, StatGroup& stats_parent,
                    const std::string& prefix, const mempart::AddressMapping* m)
    : config(c), rop(r), mapping(m), module(prefix), cache(c.size_bytes != 0), stats(stats_parent) {
  line_shift = unsigned(__builtin_ctz(c.line_bytes));
  line_mask = ~uint64_t(c.line_bytes - 1);
  sectors_per_line = c.line_bytes / kSectorBytes;
  if (cache) {
    ways = c.ways;
    sets = uint32_t(c.size_bytes / (uint64_t(c.line_bytes) * c.ways));
    sets_power_of_two = power_of_two(sets);
    // Per line a tag, three sector masks and a replacement byte; per set two way masks.
    const uint64_t lines = uint64_t(sets) * ways;
    tag_memory = HostMemoryClaim(prefix + ".size_bytes", c.size_bytes,
                                 lines * (sizeof(uint64_t) + 3 * sizeof(uint32_t) + 1) +
                                     uint64_t(sets) * 2 * sizeof(uint64_t));
    tag.assign(size_t(sets) * ways, kNoLine);
    valid.assign(tag.size(), 0);
    dirty.assign(tag.size(), 0);
    pending.assign(tag.size(), kNone);
    policy = replacement_policies().make(c.replacement, sets, ways);
    all_ways = ways == 64 ? ~uint64_t(0) : (uint64_t(1) << ways) - 1;
    empty_ways.assign(sets, all_ways);
    pending_ways.assign(sets, 0);
  }
  mshrs.assign(c.mshrs, Mshr{});
  waiter.assign(size_t(c.mshrs) * c.mshr_merges, Waiter{});
  for (uint32_t m = c.mshrs; m-- > 0;) free_mshrs.push_back(m);
  draining.reset(c.mshrs);
  input.reset(c.input_queue);
  memory.reset(c.memory_queue);
  // A reply waits in the hit pipeline (one lookup enters it a cycle), then for the reply
  // network: only the second wait counts against reply_queue.
  replies.reset(c.reply_queue + c.hit_latency);
  // A head still waiting when statistics are read has its stall so far counted.
  stats.set_refresh([this] {
    if (stalled == Wait::None || now <= stalled_since) return;
    (stalled == Wait::Mshr ? stats.mshr_stall_cycles : stats.queue_stall_cycles) +=
        now - stalled_since;
    stalled_since = now;
  });
}

uint64_t L2Slice::Impl::lookup_cycle() const {
  return std::max({input.front().arrival, next_lookup, now});
}

// Stall cycles run from the head's first failed attempt to its lookup (or to a change of
// reason), charged to the reason.
void L2Slice::Impl::note_wait(Wait wait, uint64_t cycle) {
  if (wait == stalled) return;
  if (stalled != Wait::None) {
    (stalled == Wait::Mshr ? stats.mshr_stall_cycles : stats.queue_stall_cycles) +=
        cycle - stalled_since;
  }
  stalled = wait;
  stalled_since = cycle;
}

L2Slice::L2Slice(const L2Config& config, mempart::Rop& rop, StatGroup& stats_parent,
                 const std::string& prefix, const mempart::AddressMapping* mapping)
    : impl_(std::make_unique<Impl>(checked_config(config, prefix), rop, stats_parent, prefix,
                                   mapping)) {}

L2Slice::~L2Slice() = default;
L2Slice::L2Slice(L2Slice&&) noexcept = default;

bool L2Slice::can_accept() const {
  return !impl_->input.full();
}

void L2Slice::accept(const MemPacket& packet, uint64_t cycle) {
  Impl& s = *impl_;
  if (s.input.full()) {
    throw ModelError(s.module, fmt::format("packet {} offered to a full input queue", packet.id));
  }
  const uint64_t offset = (packet.address & ~s.line_mask) / kSectorBytes;
  const uint64_t end = packet.sector_mask ? offset + 32 - __builtin_clz(packet.sector_mask) : 0;
  if (packet.address % kSectorBytes != 0 || packet.sector_mask == 0 || end > s.sectors_per_line) {
    throw ModelError(
        s.module, fmt::format("packet {} (address {:#x}, sectors {:#x}) does not lie "
                              "within one {}-byte line",
                              packet.id, packet.address, packet.sector_mask, s.config.line_bytes));
  }
  s.input.push_back({packet, cycle});
}

uint64_t L2Slice::next_event() const {
  const Impl& s = *impl_;
  if (s.news) return s.now;
  uint64_t next = kNever;
  if (!s.replies.empty() && s.replies.front().ready > s.now) next = s.replies.front().ready;
  if (!s.input.empty() & !s.blocked) next = std::min(next, s.lookup_cycle());
  return next;
}

void L2Slice::advance(uint64_t until) {
  Impl& s = *impl_;
  while (!s.input.empty() && !s.blocked) {
    const uint64_t cycle = s.lookup_cycle();
    if (cycle > until) break;
    const MemPacket& head = s.input.front().packet;
    const Impl::Wait wait = s.lookup(head, cycle);
    s.note_wait(wait, cycle);
    if (wait != Impl::Wait::None) {
      s.blocked = true;  // nothing inside frees an MSHR or a queue slot: wait for the caller
      break;
    }
    s.held_victim = Impl::kNone;
    // One lookup a cycle, and the port carries the packet's data in one direction or both.
    s.next_lookup =
        cycle + std::max<uint64_t>(1, ceil_div(head.data_bytes(), s.config.bytes_per_cycle));
    if (head.request_carries_data()) s.stats.bytes_in += head.data_bytes();
    s.input.pop_front();
  }
  s.news = false;
  if (until != kNever) s.now = std::max(s.now, until);
}

bool L2Slice::has_memory_request() const {
  return !impl_->memory.empty();
}

const MemPacket& L2Slice::memory_request() const {
  return impl_->memory.front();
}

void L2Slice::pop_memory_request() {
  Impl& s = *impl_;
  s.memory.pop_front();
  s.continue_flush();
  s.unblock();
}

void L2Slice::memory_reply(uint64_t id, uint64_t cycle) {
  Impl& s = *impl_;
  if (s.cache) {
    s.fill_landed(id, cycle);
  } else {
    s.pass_through_landed(id, cycle);
  }
  s.unblock();
}

bool L2Slice::reply_ready(uint64_t cycle) const {
  return !impl_->replies.empty() && impl_->replies.front().ready <= cycle;
}

const MemPacket& L2Slice::reply() const {
  return impl_->replies.front().packet;
}

void L2Slice::pop_reply() {
  Impl& s = *impl_;
  const MemPacket& packet = s.replies.front().packet;
  if (packet.reply_carries_data()) s.stats.bytes_out += packet.data_bytes();
  s.replies.pop_front();
  s.drain();
  s.unblock();
}

void L2Slice::flush() {
  Impl& s = *impl_;
  if (!s.cache) return;
  s.flush_cursor = 0;
  s.continue_flush();
}

const L2Stats& L2Slice::stats() const {
  return impl_->stats;
}

}  // namespace gpusoc::l2
