// Post-dominators on hand-built control flow, checked against the reconvergence points worked
// out by hand from the definition (the first block every path to the exit must pass).
#include "models/ptx/cfg.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpusoc::ptx {
namespace {

Inst plain() {
  return Inst{};
}
Inst bra(uint32_t target, bool guarded) {
  Inst in;
  in.op = Op::Bra;
  in.target = target;
  if (guarded) in.guard = 5;
  return in;
}
Inst op(Op o) {
  Inst in;
  in.op = o;
  return in;
}

TEST(Cfg, IfElseDiamondReconvergesAtJoin) {
  // 0: @p bra 3 | 1: then | 2: bra 4 | 3: else | 4: join | 5: exit
  std::vector<Inst> code = {bra(3, true), plain(), bra(4, false), plain(), plain(), op(Op::Exit)};
  ControlFlowGraph cfg(code);
  ASSERT_EQ(cfg.blocks().size(), 4u);  // {0} {1,2} {3} {4,5}
  EXPECT_EQ(cfg.blocks()[1].first, 1u);
  EXPECT_EQ(cfg.blocks()[1].last, 2u);
  assign_reconvergence_points(code);
  EXPECT_EQ(code[0].reconverge, 4u);
}

TEST(Cfg, IfWithoutElseReconvergesAfterThen) {
  // 0: @p bra 2 | 1: then | 2: join | 3: exit
  std::vector<Inst> code = {bra(2, true), plain(), plain(), op(Op::Exit)};
  assign_reconvergence_points(code);
  EXPECT_EQ(code[0].reconverge, 2u);
}

TEST(Cfg, NestedIfReconvergesInnermostFirst) {
  // 0: @p bra 6 (outer) | 1: @q bra 4 (inner) | 2: a | 3: bra 5 | 4: b | 5: inner join
  // 6: outer join | 7: exit
  std::vector<Inst> code = {bra(6, true), bra(4, true), plain(), bra(5, false),
                            plain(),      plain(),      plain(), op(Op::Exit)};
  assign_reconvergence_points(code);
  EXPECT_EQ(code[0].reconverge, 6u);
  EXPECT_EQ(code[1].reconverge, 5u);
}

TEST(Cfg, LoopBackEdgeReconvergesAtLoopExit) {
  // 0: body | 1: @p bra 0 | 2: after | 3: exit
  std::vector<Inst> code = {plain(), bra(0, true), plain(), op(Op::Exit)};
  assign_reconvergence_points(code);
  EXPECT_EQ(code[1].reconverge, 2u);
}

TEST(Cfg, LoopWithBreakReconvergesAfterLoop) {
  // 0: @p bra 3 (break) | 1: body | 2: bra 0 | 3: after | 4: exit
  std::vector<Inst> code = {bra(3, true), plain(), bra(0, false), plain(), op(Op::Exit)};
  assign_reconvergence_points(code);
  EXPECT_EQ(code[0].reconverge, 3u);
}

TEST(Cfg, EarlyExitMeansNoReconvergenceBeforeTheEnd) {
  // 0: @p bra 2 | 1: exit | 2: rest | 3: exit   -- paths meet only at the virtual exit
  std::vector<Inst> code = {bra(2, true), op(Op::Exit), plain(), op(Op::Exit)};
  assign_reconvergence_points(code);
  EXPECT_EQ(code[0].reconverge, kNoReconverge);
}

TEST(Cfg, GuardedExitStillFallsThrough) {
  // 0: @p exit | 1: @q bra 3 | 2: a | 3: join | 4: ret
  Inst guarded_exit = op(Op::Exit);
  guarded_exit.guard = 3;
  std::vector<Inst> code = {guarded_exit, bra(3, true), plain(), plain(), op(Op::Ret)};
  ControlFlowGraph cfg(code);
  EXPECT_TRUE(cfg.blocks()[0].reaches_exit);
  ASSERT_EQ(cfg.blocks()[0].successors.size(), 1u);
  assign_reconvergence_points(code);
  EXPECT_EQ(code[1].reconverge, 3u);
}

TEST(Cfg, EndlessLoopIsIgnoredByPostDominance) {
  // 0: @p bra 2 | 1: bra 1 (spins forever) | 2: exit
  // Only paths that reach the exit count: the spinning block has no post-dominator, and the
  // branch reconverges where its exiting path goes (the spinning lanes never arrive there).
  std::vector<Inst> code = {bra(2, true), bra(1, false), op(Op::Exit)};
  ControlFlowGraph cfg(code);
  const auto& ipdom = cfg.immediate_post_dominators();
  EXPECT_EQ(ipdom[cfg.block_of(1)], cfg.exit_node());
  assign_reconvergence_points(code);
  EXPECT_EQ(code[0].reconverge, 2u);
}

TEST(Cfg, ShortCircuitConditionJoinsAtCommonSuccessor) {
  // if (a && b) x; y;   0: @!a bra 3 | 1: @!b bra 3 | 2: x | 3: y | 4: exit
  std::vector<Inst> code = {bra(3, true), bra(3, true), plain(), plain(), op(Op::Exit)};
  assign_reconvergence_points(code);
  EXPECT_EQ(code[0].reconverge, 3u);
  EXPECT_EQ(code[1].reconverge, 3u);
}

TEST(Cfg, EmptyCodeIsFine) {
  std::vector<Inst> code;
  assign_reconvergence_points(code);
  ControlFlowGraph cfg(code);
  EXPECT_TRUE(cfg.blocks().empty());
}

}  // namespace
}  // namespace gpusoc::ptx
