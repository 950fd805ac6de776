// The cycle-level SM's load/store unit on its own, against hand computations: shared-memory
// timing from the bank conflicts, one line per cycle to the miss path, an access done when its
// last part is (told to the client once, with the latest part's cycle), a faulting instruction's
// lines and access dropped (but not a texture request that went out), and the warps held for
// room woken when a line leaves.
#include "models/sm/lsu.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "models/sm/memory_request_port.h"
#include "tests/support/systemc_test.h"

namespace gpusoc::sm {
namespace {

struct RecordingClient : LsuClient {
  std::vector<std::pair<uint32_t, LsuAccess>> completed;
  std::vector<std::vector<uint32_t>> woken;
  void access_completed(uint32_t id, const LsuAccess& a) override { completed.emplace_back(id, a); }
  void lsu_room_again(const std::vector<uint32_t>& slots) override { woken.push_back(slots); }
};

struct LsuBench {
  CycleSmConfig config;
  std::unique_ptr<MemoryRequestPort> port;
  std::unique_ptr<L1MissPath> miss_path;
  StatGroup root;
  std::unique_ptr<CycleStats> stats;
  RecordingClient client;
  std::unique_ptr<Lsu> lsu;
  ptx::Inst load;

  explicit LsuBench(uint32_t lsu_queue = 128) {
    testing::fresh_systemc();
    config.lsu_queue = lsu_queue;
    config.shared_latency = 30;
    config.shared_replay_cycles = 2;
    config.param_latency = 4;
    port = std::make_unique<MemoryRequestPort>("port", 0, config.max_in_flight);
    miss_path = std::make_unique<L1MissPath>(config, *port);
    stats = std::make_unique<CycleStats>(root, "sm0", config.warp_slots);
    lsu = std::make_unique<Lsu>(config, *miss_path, *stats, client);
  }
  // A warp's global load of 4-byte words `stride` bytes apart, issued at `cycle` by slot 3.
  uint32_t global_load(uint64_t cycle, uint64_t stride) {
    lsu->begin_instruction(3, 7, 1, &load, nullptr, cycle);
    uint64_t addresses[ptx::kWarpSize];
    for (unsigned i = 0; i < ptx::kWarpSize; ++i) addresses[i] = 0x10000 + i * stride;
    lsu->global_access(ptx::GlobalAccess::Load, addresses, ~0u, 4);
    return lsu->instruction_access();
  }
  // A warp's shared load of 4-byte words `stride` bytes apart, issued at `cycle`.
  const LsuAccess& shared_load(uint64_t cycle, uint64_t stride) {
    lsu->begin_instruction(0, 0, 0, &load, nullptr, cycle);
    uint64_t addresses[ptx::kWarpSize];
    for (unsigned i = 0; i < ptx::kWarpSize; ++i) addresses[i] = i * stride;
    lsu->on_chip_access(ptx::StateSpace::Shared, ptx::GlobalAccess::Load, addresses, ~0u, 4);
    return lsu->access(lsu->instruction_access());
  }
};

TEST(Lsu, SharedAccessesTakeTheirConflictDegreeAndQueueBehindEachOther) {
  LsuBench b;
  // Consecutive words: 32 banks, one pass: ready after the latency.
  EXPECT_EQ(b.shared_load(100, 4).ready, 100 + 30u);
  EXPECT_EQ(b.lsu->shared_free(), 101u);
  // 128 bytes apart: every lane in bank 0, 32 passes: 1 + 31 replays of 2 cycles.
  const uint64_t busy = 1 + 31 * 2;
  EXPECT_EQ(b.shared_load(101, 128).ready, 101 + busy - 1 + 30);
  EXPECT_EQ(b.lsu->shared_free(), 101 + busy);
  // The next access waits for the banks.
  EXPECT_EQ(b.shared_load(102, 4).ready, 101 + busy + 30);
  EXPECT_EQ(b.stats->shared_accesses.value(), 3u);
  EXPECT_EQ(b.stats->shared_cycles.value(), 1 + busy + 1);
}

TEST(Lsu, LinesLeaveOnePerCycleAndTheAccessCompletesWithItsLastPart) {
  LsuBench b;
  // 4-byte words 4 KB apart: 32 lines of one sector each, all parts of one access.
  const uint32_t id = b.global_load(10, 4096);
  ASSERT_NE(id, Lsu::kNone);
  EXPECT_EQ(b.lsu->access(id).parts, 32u);
  EXPECT_EQ(b.stats->global_lines.value(), 32u);
  for (uint64_t c = 11; c < 11 + 32; ++c) {
    EXPECT_EQ(b.miss_path->waiting(), c - 11);
    b.lsu->cycle(c);
  }
  EXPECT_TRUE(b.lsu->idle());
  EXPECT_EQ(b.miss_path->waiting(), 32u);
  // Parts answered out of order: one completion, at the latest part's cycle.
  for (uint32_t k = 0; k < 31; ++k) b.lsu->part_done(id, 500 - k);
  EXPECT_TRUE(b.client.completed.empty());
  b.lsu->part_done(id, 300);
  ASSERT_EQ(b.client.completed.size(), 1u);
  EXPECT_EQ(b.client.completed[0].first, id);
  EXPECT_EQ(b.client.completed[0].second.ready, 500u);
  EXPECT_EQ(b.client.completed[0].second.slot, 3u);
  EXPECT_EQ(b.client.completed[0].second.generation, 7u);
  // Its record is free again: the next access takes it.
  EXPECT_EQ(b.global_load(600, 4), id);
}

TEST(Lsu, AFaultingInstructionLeavesNoLinesAndNoAccess) {
  LsuBench b;
  const uint32_t first = b.global_load(10, 4);  // one line, kept
  b.global_load(11, 4096);                      // 32 lines, then the instruction faults
  const uint32_t faulted = b.lsu->instruction_access();
  b.lsu->abandon_instruction();
  EXPECT_EQ(b.lsu->instruction_access(), Lsu::kNone);
  b.lsu->cycle(12);
  EXPECT_TRUE(b.lsu->idle()) << "only the first instruction's line was left";
  EXPECT_EQ(b.global_load(13, 4), faulted) << "the faulted access's record is free";
  EXPECT_NE(first, faulted);
}

TEST(Lsu, AFaultingTextureInstructionsAccessWaitsForItsAnswer) {
  LsuBench b;
  b.lsu->begin_instruction(2, 5, 0, &b.load, nullptr, 20);
  const uint32_t id = b.lsu->add_texture_part();
  EXPECT_TRUE(b.lsu->access(id).texture);
  b.lsu->abandon_instruction();  // the request went out already
  // A new access does not take its record while the answer is on its way.
  b.lsu->begin_instruction(1, 0, 0, &b.load, nullptr, 21);
  EXPECT_NE(b.lsu->access_for_instruction(), id);
  b.lsu->part_done(id, 90);
  ASSERT_EQ(b.client.completed.size(), 1u);
  EXPECT_EQ(b.client.completed[0].second.slot, 2u);
  EXPECT_FALSE(b.client.completed[0].second.has_result);
}

TEST(Lsu, WarpsHeldForRoomAreWokenWhenALineLeavesAndThereIsRoom) {
  LsuBench b(/*lsu_queue=*/2 * ptx::kWarpSize + 1);
  EXPECT_TRUE(b.lsu->has_room());
  b.global_load(10, 4);  // one line
  b.global_load(11, 4);  // two
  EXPECT_FALSE(b.lsu->has_room()) << "65 lines would not fit a further 64";
  b.lsu->hold(4);
  b.lsu->hold(9);
  b.lsu->cycle(12);
  ASSERT_EQ(b.client.woken.size(), 1u);
  EXPECT_EQ(b.client.woken[0], (std::vector<uint32_t>{4, 9}));
  b.lsu->cycle(13);
  EXPECT_EQ(b.client.woken.size(), 1u) << "woken once";
}

}  // namespace
}  // namespace gpusoc::sm
