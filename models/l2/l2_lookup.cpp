// The L2 slice's lookup of its head packet, and what memory's answers do. Every lookup checks
// all it needs (MSHR, merge slot, victim, memory and reply room) before changing anything, so a
// refused head leaves the slice as it was and is simply tried again.
#include <algorithm>

#include <fmt/format.h>

#include "models/common/bit_count.h"
#include "models/common/error.h"
#include "models/l2/l2_slice_impl.h"

namespace gpusoc::l2 {

auto L2Slice::Impl::lookup(const MemPacket& p, uint64_t cycle) -> Wait {
  if (!cache) return pass_through(p, cycle);
  const uint64_t line = p.address & line_mask;
  const uint32_t sectors = p.sector_mask << ((p.address - line) / kSectorBytes);
  const uint32_t set = set_of(line);
  uint32_t slot = kNone;  // a line is in one way at most: search them all, without branching
  for (uint32_t w = set * ways, end = w + ways; w < end; ++w) slot = tag[w] == line ? w : slot;
  if (p.op == MemOp::Write) return lookup_write(p, cycle, line, sectors, set, slot);

  const bool atomic = p.op == MemOp::Atomic;
  const uint32_t need = slot == kNone ? sectors : sectors & ~valid[slot];
  if (need == 0) {
    if (replies.full()) return Wait::Queue;
    ++(atomic ? stats.atomic_hits : stats.read_hits);
    policy->touched(set, slot - set * ways);
    answer(p, slot, sectors, cycle, config.hit_latency);
    return Wait::None;
  }

  if (slot != kNone && pending[slot] != kNone) {  // the line is on its way: merge
    const uint32_t m = pending[slot];
    const uint32_t extra = need & ~mshrs[m].fetching;
    if (mshrs[m].waiters == config.mshr_merges) return Wait::Mshr;
    if (extra != 0 && memory.full()) return Wait::Queue;
    ++(atomic ? stats.atomic_misses : stats.read_misses);
    ++stats.mshr_merges;
    policy->touched(set, slot - set * ways);
    if (extra != 0) send_fill(m, line, extra, p.source);
    add_waiter(m, p, sectors);
    return Wait::None;
  }

  if (free_mshrs.empty()) return Wait::Mshr;
  if (slot == kNone) {
    const uint32_t victim = choose_victim(set);
    if (victim == kNone) return Wait::Mshr;
    if (memory.room() < (dirty[victim] != 0 ? 2u : 1u)) return Wait::Queue;
  } else if (memory.full()) {
    return Wait::Queue;
  }
  ++(atomic ? stats.atomic_misses : stats.read_misses);
  // The fill goes first: a read waits for it, nothing waits for the write-back.
  const uint64_t evicted = slot == kNone ? tag[held_victim] : kNoLine;
  const uint32_t evicted_dirty = slot == kNone ? dirty[held_victim] : 0;
  if (slot == kNone) {
    slot = held_victim;
    empty_ways[set] &= ~(uint64_t(1) << (slot - set * ways));
    tag[slot] = line;
    valid[slot] = dirty[slot] = 0;
    policy->inserted(set, slot - set * ways);
  } else {
    policy->touched(set, slot - set * ways);
  }
  const uint32_t m = take_mshr(line, slot);
  send_fill(m, line, need, p.source);
  if (evicted_dirty != 0) send_writeback(evicted, evicted_dirty);
  add_waiter(m, p, sectors);
  return Wait::None;
}

// Write-allocate without fetching: whole sectors are written, so they become valid and dirty.
auto L2Slice::Impl::lookup_write(const MemPacket& p, uint64_t cycle, uint64_t line,
                                 uint32_t sectors, uint32_t set, uint32_t slot) -> Wait {
  if (slot == kNone) {
    const uint32_t victim = choose_victim(set);
    if (victim == kNone) return Wait::Mshr;
    if (dirty[victim] != 0 && memory.full()) return Wait::Queue;
  }
  if (replies.full()) return Wait::Queue;
  if (slot == kNone) {
    slot = held_victim;
    empty_ways[set] &= ~(uint64_t(1) << (slot - set * ways));
    evict(slot);
    tag[slot] = line;
    policy->inserted(set, slot - set * ways);
    ++stats.write_misses;
  } else {
    policy->touched(set, slot - set * ways);
    ++stats.write_hits;
  }
  valid[slot] |= sectors;
  dirty[slot] |= sectors;
  insert_reply(cycle + config.hit_latency, p);
  return Wait::None;
}

// No cache: the packet itself goes to memory. Reads and atomics hold an MSHR until memory
// answers; writes are posted.
auto L2Slice::Impl::pass_through(const MemPacket& p, uint64_t cycle) -> Wait {
  if (p.op == MemOp::Write) {
    // Posted: the controller's write queue holds it, and the writer is answered at once; the
    // write's own acknowledgement from memory is ignored, like a write-back's.
    if (memory.full() || replies.full()) return Wait::Queue;
    ++stats.write_misses;
    MemPacket posted = p;
    posted.id = next_writeback_id();
    memory.push_back(posted);
    insert_reply(cycle, p);
    return Wait::None;
  }
  if (free_mshrs.empty()) return Wait::Mshr;
  if (memory.full()) return Wait::Queue;
  ++(p.op == MemOp::Read ? stats.read_misses : stats.atomic_misses);
  const uint32_t m = take_mshr(p.address, kNone);
  mshrs[m].fetching = 1;
  add_waiter(m, p, p.sector_mask);
  memory.push_back(p);
  return Wait::None;
}

// Empty ways first; never a way whose line is still being fetched. One pass in the common
// case (a full set): empty ways only exist until the set first fills.
uint32_t L2Slice::Impl::choose_victim(uint32_t set) {
  if (held_victim != kNone) return held_victim;
  // Ways whose line is not on its way; never-filled ones among them first.
  const uint64_t free = all_ways & ~pending_ways[set];
  if (free == 0) return kNone;
  const uint64_t empty = free & empty_ways[set];
  held_victim = set * ways + policy->victim(set, empty != 0 ? empty : free);
  return held_victim;
}

void L2Slice::Impl::evict(uint32_t slot) {
  if (dirty[slot] != 0) send_writeback(tag[slot], dirty[slot]);
  valid[slot] = dirty[slot] = 0;
}

void L2Slice::Impl::send_fill(uint32_t m, uint64_t line, uint32_t sectors, uint16_t source) {
  const uint32_t first = uint32_t(__builtin_ctz(sectors));
  MemPacket fill;
  fill.id = (uint64_t(sectors) << 32) | m;
  fill.address = line + uint64_t(first) * kSectorBytes;
  fill.sector_mask = sectors >> first;
  fill.op = MemOp::Read;
  fill.source = source;  // for DRAM schedulers that tell requesters apart
  memory.push_back(fill);
  mshrs[m].fetching |= sectors;
  ++stats.fills;
  stats.fill_sectors += count_bits(sectors);
}

void L2Slice::Impl::send_writeback(uint64_t line, uint32_t sectors) {
  const uint32_t first = uint32_t(__builtin_ctz(sectors));
  MemPacket wb;
  wb.id = next_writeback_id();
  wb.address = line + uint64_t(first) * kSectorBytes;
  wb.sector_mask = sectors >> first;
  wb.op = MemOp::Write;
  wb.source = kNoRequester;
  memory.push_back(wb);
  ++stats.writebacks;
  stats.writeback_sectors += count_bits(sectors);
}

uint32_t L2Slice::Impl::take_mshr(uint64_t line, uint32_t slot) {
  const uint32_t m = free_mshrs.back();
  free_mshrs.pop_back();
  mshrs[m] = Mshr{true, false, line, slot, 0, 0};
  if (slot != kNone) {
    pending[slot] = m;
    pending_ways[slot / ways] |= uint64_t(1) << (slot % ways);
  }
  return m;
}

void L2Slice::Impl::add_waiter(uint32_t m, const MemPacket& packet, uint32_t sectors) {
  waiter[size_t(m) * config.mshr_merges + mshrs[m].waiters++] = Waiter{packet, sectors, kNever};
}

void L2Slice::Impl::fill_landed(uint64_t id, uint64_t cycle) {
  if (id & kWritebackBit) return;  // a write-back's acknowledgement: nothing waits for it
  const uint64_t m = id & (kWritebackBit - 1);
  const uint32_t sectors = uint32_t(id >> 32);
  if (m >= mshrs.size() || !mshrs[m].busy || sectors == 0 ||
      (mshrs[m].fetching & sectors) != sectors) {
    throw ModelError(module,
                     fmt::format("memory answered {:#x}, which no fill is waiting for", id));
  }
  Mshr& mshr = mshrs[m];
  mshr.fetching &= ~sectors;
  valid[mshr.slot] |= sectors;
  Waiter* w = &waiter[m * config.mshr_merges];
  for (uint32_t i = 0; i < mshr.waiters; ++i) {
    if (w[i].ready_from == kNever && (w[i].sectors & ~valid[mshr.slot]) == 0) {
      w[i].ready_from = cycle;
    }
  }
  // Replies waiting for room go first; these join them.
  if (mshr.draining || !draining.empty() || !place(uint32_t(m), cycle)) {
    if (!mshr.draining) draining.push_back(uint32_t(m));
    mshr.draining = true;
  }
}

void L2Slice::Impl::pass_through_landed(uint64_t id, uint64_t cycle) {
  if (id & kWritebackBit) return;  // a posted write's acknowledgement
  for (uint32_t m = 0; m < mshrs.size(); ++m) {
    Mshr& mshr = mshrs[m];
    Waiter& w = waiter[size_t(m) * config.mshr_merges];
    if (!mshr.busy || mshr.fetching == 0 || w.packet.id != id) continue;
    mshr.fetching = 0;
    w.ready_from = cycle;
    if (!draining.empty() || !place(m, cycle)) {
      draining.push_back(m);
      mshr.draining = true;
    }
    return;
  }
  throw ModelError(module, fmt::format("memory answered packet {}, which is not in flight", id));
}

bool L2Slice::Impl::place(uint32_t m, uint64_t from) {
  Mshr& mshr = mshrs[m];
  Waiter* w = &waiter[size_t(m) * config.mshr_merges];
  uint32_t kept = 0;
  bool room = true;
  for (uint32_t i = 0; i < mshr.waiters; ++i) {
    if (w[i].ready_from != kNever && room && !replies.full()) {
      const uint64_t base = std::max(w[i].ready_from, from);
      answer(w[i].packet, mshr.slot, w[i].sectors, base, cache ? config.hit_latency : 0);
    } else {
      room &= w[i].ready_from == kNever;  // answered ones leave in order
      w[kept++] = w[i];
    }
  }
  mshr.waiters = kept;
  if (kept == 0 && mshr.fetching == 0) {
    if (mshr.slot != kNone) {
      pending[mshr.slot] = kNone;
      pending_ways[mshr.slot / ways] &= ~(uint64_t(1) << (mshr.slot % ways));
    }
    mshr.busy = false;
    free_mshrs.push_back(m);
  }
  return room;
}

void L2Slice::Impl::drain() {
  while (!draining.empty()) {
    const uint32_t m = draining.front();
    if (!place(m, now)) return;
    mshrs[m].draining = false;
    draining.pop_front();
  }
}

// The reply of a packet whose sectors are present from `base`: an atomic goes through the ROP
// (one operation per sector) and leaves its sectors dirty.
void L2Slice::Impl::answer(const MemPacket& packet, uint32_t slot, uint32_t sectors, uint64_t base,
                           uint64_t latency) {
  if (packet.op != MemOp::Atomic) {
    insert_reply(base + latency, packet);
    return;
  }
  uint64_t ready = base;
  for (uint32_t s = 0; s < 32; ++s) {
    if (packet.sector_mask >> s & 1) {
      ready = std::max(
          ready, rop.execute(packet.address + uint64_t(s) * kSectorBytes, base, packet.atomic));
    }
  }
  if (slot != kNone) dirty[slot] |= sectors;
  insert_reply(ready, packet);
}

void L2Slice::Impl::insert_reply(uint64_t ready, const MemPacket& packet) {
  replies.push_back({ready, packet});
  for (uint32_t i = replies.size() - 1; i > 0 && replies.at(i - 1).ready > ready; --i) {
    std::swap(replies.at(i - 1), replies.at(i));
  }
  news |= ready <= now;
}

void L2Slice::Impl::continue_flush() {
  for (; flush_cursor < tag.size() && !memory.full(); ++flush_cursor) {
    if (tag[flush_cursor] == kNoLine || dirty[flush_cursor] == 0) continue;
    send_writeback(tag[flush_cursor], dirty[flush_cursor]);
    dirty[flush_cursor] = 0;
    news = true;
  }
}

}  // namespace gpusoc::l2
