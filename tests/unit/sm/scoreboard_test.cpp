// The scoreboard: an instruction may issue at the latest landing cycle of the pending writes to
// its registers (sources: RAW, destinations: WAW); memory writes wait for complete(tag).
#include <gtest/gtest.h>

#include <vector>

#include "models/sm/scoreboard.h"

namespace gpusoc::sm {
namespace {

uint64_t ready(Scoreboard& sb, std::vector<uint32_t> regs, uint64_t now) {
  return sb.ready_cycle(regs.data(), unsigned(regs.size()), now);
}
bool on_memory(const Scoreboard& sb, std::vector<uint32_t> regs) {
  return sb.waits_on(regs.data(), unsigned(regs.size())) == Scoreboard::Wait::Memory;
}
Scoreboard::Wait wait_of(const Scoreboard& sb, std::vector<uint32_t> regs) {
  return sb.waits_on(regs.data(), unsigned(regs.size()));
}

TEST(Scoreboard, ReadAfterWriteWaitsForTheLandingCycle) {
  Scoreboard sb;
  sb.reserve(5, 10);
  EXPECT_EQ(ready(sb, {5}, 3), 10u);
  EXPECT_EQ(ready(sb, {4, 6}, 3), 3u);  // other registers are free now
  EXPECT_EQ(ready(sb, {5}, 9), 10u);
  EXPECT_EQ(ready(sb, {5}, 10), 10u);  // landed: usable in that very cycle
  EXPECT_TRUE(sb.empty());
}

TEST(Scoreboard, WriteAfterWriteWaitsOnTheDestinationToo) {
  Scoreboard sb;
  sb.reserve(7, 20);
  // The SM asks with sources {1, 2} and destination {7}.
  EXPECT_EQ(ready(sb, {1, 2, 7}, 5), 20u);
  EXPECT_EQ(ready(sb, {1, 2}, 5), 5u);
}

TEST(Scoreboard, TheLatestOfSeveralPendingWritesDecides) {
  Scoreboard sb;
  sb.reserve(1, 8);
  sb.reserve(2, 12);
  sb.reserve(3, 30);
  EXPECT_EQ(ready(sb, {1, 2}, 0), 12u);
  EXPECT_EQ(ready(sb, {1}, 0), 8u);
  EXPECT_EQ(ready(sb, {2, 3, 1}, 0), 30u);
  EXPECT_EQ(ready(sb, {1, 2}, 9), 12u);  // drops register 1 on the way
  EXPECT_EQ(ready(sb, {}, 12), 12u);     // drops register 2
  EXPECT_FALSE(sb.empty());
  EXPECT_EQ(ready(sb, {}, 30), 30u);
  EXPECT_TRUE(sb.empty());
}

TEST(Scoreboard, UnknownCompletionWaitsForItsTag) {
  Scoreboard sb;
  sb.reserve(3, Scoreboard::kUnknown, 42);
  sb.reserve(4, Scoreboard::kUnknown, 43);
  sb.reserve(5, 160, 42);  // a known landing under the same tag stays as it is
  EXPECT_EQ(ready(sb, {3}, 100), Scoreboard::kUnknown);
  EXPECT_TRUE(on_memory(sb, {1, 3}));
  EXPECT_FALSE(on_memory(sb, {5}));
  sb.complete(99, 120);  // nobody waits on tag 99
  EXPECT_EQ(ready(sb, {3}, 100), Scoreboard::kUnknown);
  sb.complete(42, 150);
  EXPECT_TRUE(on_memory(sb, {3}));  // known now, but still a load's result until it lands
  EXPECT_EQ(ready(sb, {3}, 100), 150u);
  EXPECT_EQ(ready(sb, {5}, 100), 160u);
  EXPECT_EQ(ready(sb, {4}, 100), Scoreboard::kUnknown);
  EXPECT_TRUE(on_memory(sb, {4}));
  sb.complete(43, 151);
  EXPECT_EQ(ready(sb, {3, 4}, 140), 151u);
  EXPECT_EQ(ready(sb, {3, 4, 5}, 151), 160u);
  EXPECT_EQ(ready(sb, {}, 160), 160u);
  EXPECT_TRUE(sb.empty());
}

TEST(Scoreboard, ATextureResultOutranksALoadAndAnArithmeticOne) {
  Scoreboard sb;
  sb.reserve(1, 30);                                   // arithmetic
  sb.reserve(2, Scoreboard::kUnknown, 7);              // a load
  sb.reserve(3, Scoreboard::kUnknown, 8, true, true);  // a texture fetch
  EXPECT_EQ(wait_of(sb, {1}), Scoreboard::Wait::Arithmetic);
  EXPECT_EQ(wait_of(sb, {1, 2}), Scoreboard::Wait::Memory);
  EXPECT_EQ(wait_of(sb, {2, 3}), Scoreboard::Wait::Texture);
  EXPECT_EQ(wait_of(sb, {3, 1}), Scoreboard::Wait::Texture);
  EXPECT_EQ(wait_of(sb, {4}), Scoreboard::Wait::Arithmetic);
}

TEST(Scoreboard, ClearForgetsEverything) {
  Scoreboard sb;
  sb.reserve(1, Scoreboard::kUnknown, 1);
  sb.reserve(2, 50);
  sb.clear();
  EXPECT_TRUE(sb.empty());
  EXPECT_EQ(ready(sb, {1, 2}, 7), 7u);
}

}  // namespace
}  // namespace gpusoc::sm
