// Random traffic against an independent model of the tag state: per set, a list of lines in
// recency order with their valid and dirty sectors. Every packet's hit or miss, every fill's
// sectors and every write-back's line and sectors must agree with it, and a final flush must
// write back exactly the lines it holds dirty.
#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <map>
#include <random>
#include <vector>

#include "tests/unit/l2/l2_harness.h"

namespace gpusoc::l2::testing {
namespace {

constexpr uint32_t kLine = 128, kWays = 4, kSets = 8;

// What the tags should hold, LRU order kept by moving each used line to the front.
class ReferenceTags {
 public:
  struct Line {
    uint64_t address;
    uint32_t valid, dirty;
  };
  struct Outcome {
    bool hit;
    uint32_t fetch;  // sectors a fill must bring
    bool writeback;
    Line evicted;
  };

  Outcome access(MemOp op, uint64_t line, uint32_t sectors) {
    std::list<Line>& set = sets_[(line / kLine) % kSets];
    auto it =
        std::find_if(set.begin(), set.end(), [&](const Line& l) { return l.address == line; });
    Outcome out{false, 0, false, {}};
    if (it == set.end()) {
      if (set.size() == kWays) {
        out.evicted = set.back();
        out.writeback = set.back().dirty != 0;
        set.pop_back();
      }
      set.push_front({line, 0, 0});
    } else {
      set.splice(set.begin(), set, it);
    }
    Line& l = set.front();
    if (op == MemOp::Write) {
      out.hit = it != set.end();
      l.dirty |= sectors;
    } else {
      out.fetch = sectors & ~l.valid;
      out.hit = out.fetch == 0;
      if (op == MemOp::Atomic) l.dirty |= sectors;
    }
    l.valid |= sectors;
    return out;
  }

  std::map<uint64_t, uint32_t> dirty_lines() const {
    std::map<uint64_t, uint32_t> dirty;
    for (const auto& set : sets_) {
      for (const Line& l : set) {
        if (l.dirty) dirty[l.address] = l.dirty;
      }
    }
    return dirty;
  }

 private:
  std::list<Line> sets_[kSets];
};

uint64_t hits(const L2Stats& s) {
  return s.read_hits.value() + s.write_hits.value() + s.atomic_hits.value();
}

uint32_t line_mask(const MemPacket& p) {
  return p.sector_mask << ((p.address % kLine) / kSectorBytes);
}

TEST(L2Reference, RandomTrafficClassifiesEveryPacketAsTheReferenceTagsDo) {
  L2Config c;
  c.size_bytes = kLine * kWays * kSets;
  c.ways = kWays;
  c.line_bytes = kLine;
  c.bytes_per_cycle = kLine;  // one lookup a cycle: each packet is looked up when it arrives
  c.reply_queue = 64;         // more than can be in flight: lookups never wait for room
  Harness h(c);
  ReferenceTags reference;
  std::mt19937_64 rng(7);
  uint64_t cycle = 0;
  size_t expected_memory = 0;
  for (uint64_t id = 0; id < 20000; ++id) {
    const uint64_t line = (rng() % 80) * kLine;  // 80 lines over 32 ways: plenty of evictions
    const uint32_t mask = uint32_t(rng() % 15) + 1;
    const uint32_t first = uint32_t(__builtin_ctz(mask));
    const uint32_t kind = uint32_t(rng() % 20);
    const MemOp op = kind < 10 ? MemOp::Read : kind < 17 ? MemOp::Write : MemOp::Atomic;
    const MemPacket p = packet(id, line + first * kSectorBytes, mask >> first, op);
    const ReferenceTags::Outcome want = reference.access(op, line, mask);

    const uint64_t hits_before = hits(h.slice.stats());
    h.accept(p, cycle);
    h.run_until(cycle);
    ASSERT_EQ(hits(h.slice.stats()) - hits_before, want.hit ? 1u : 0u) << "packet " << id;
    // Fill first, then the write-back; memory answers the fill at once, so no line is
    // pending when the next packet looks.
    if (want.fetch != 0) {
      ASSERT_GT(h.memory.size(), expected_memory) << "packet " << id;
      const MemPacket& fill = h.memory[expected_memory++].packet;
      EXPECT_EQ(fill.op, MemOp::Read);
      EXPECT_EQ(fill.address & ~uint64_t(kLine - 1), line);
      EXPECT_EQ(line_mask(fill), want.fetch) << "packet " << id;
      h.slice.memory_reply(fill.id, cycle);
    }
    if (want.writeback) {
      ASSERT_EQ(h.memory.size(), expected_memory + 1) << "packet " << id;
      const MemPacket& wb = h.memory[expected_memory++].packet;
      EXPECT_EQ(wb.op, MemOp::Write);
      EXPECT_EQ(wb.address & ~uint64_t(kLine - 1), want.evicted.address) << "packet " << id;
      EXPECT_EQ(line_mask(wb), want.evicted.dirty) << "packet " << id;
    }
    ASSERT_EQ(h.memory.size(), expected_memory) << "packet " << id;
    cycle += 1 + rng() % 3;
  }
  h.run_until(cycle + 1000);
  EXPECT_EQ(h.replies.size(), 20000u);  // everything answered

  h.slice.flush();
  h.run_until(cycle + 1000);
  std::map<uint64_t, uint32_t> flushed;
  for (size_t i = expected_memory; i < h.memory.size(); ++i) {
    const MemPacket& wb = h.memory[i].packet;
    EXPECT_EQ(wb.op, MemOp::Write);
    flushed[wb.address & ~uint64_t(kLine - 1)] = line_mask(wb);
  }
  EXPECT_EQ(flushed, reference.dirty_lines());
  EXPECT_FALSE(flushed.empty());
}

}  // namespace
}  // namespace gpusoc::l2::testing
