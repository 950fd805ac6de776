// shfl.sync, vote.sync, activemask, redux.sync, match.sync.
#include <cmath>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;
constexpr uint32_t kValue = 1, kB = 2, kC = 3, kMask = 4;

Inst shfl(ShflMode m, bool pred = true) {
  return I(Op::Shfl, T::B32).mode(m).dsts(pred ? 2 : 1).srcs(4);
}

/// A warp whose lane l holds 100 + l in the shuffled register.
Warp shfl_warp(uint32_t b, uint32_t c) {
  Warp w;
  w.set(kValue, [](unsigned l) { return 100 + l; });
  w.set_all(kB, b);
  w.set_all(kC, c);
  w.set_all(kMask, 0xffffffffu);
  return w;
}

TEST(WarpLevel, ShflUpDownBflyIdx) {
  Warp up = shfl_warp(1, 0);  // scan idiom: c = 0
  run(shfl(ShflMode::Up), up);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(up.at(kDst, l), l == 0 ? 100u : 99u + l);
    EXPECT_EQ(up.at(kDst2, l), uint64_t(l != 0));
  }
  Warp down = shfl_warp(3, 0x1f);
  run(shfl(ShflMode::Down), down);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(down.at(kDst, l), l + 3 <= 31 ? 103u + l : 100u + l);
    EXPECT_EQ(down.at(kDst2, l), uint64_t(l + 3 <= 31));
  }
  Warp bfly = shfl_warp(0x10, 0x1f);
  run(shfl(ShflMode::Bfly, false), bfly);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(bfly.at(kDst, l), 100u + (l ^ 16));
  Warp idx = shfl_warp(37, 0x1f);  // b[4:0] = 5
  run(shfl(ShflMode::Idx), idx);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(idx.at(kDst, l), 105u);
}

TEST(WarpLevel, ShflSegmentsAndClamps) {
  // Width-8 segments: c = (32 - 8) << 8 | clamp.
  Warp idx = shfl_warp(2, 0x1f | (24 << 8));
  run(shfl(ShflMode::Idx), idx);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(idx.at(kDst, l), 100u + (l & ~7u) + 2);
  Warp up = shfl_warp(2, 24 << 8);
  run(shfl(ShflMode::Up), up);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const bool in_range = (l & 7) >= 2;
    EXPECT_EQ(up.at(kDst, l), in_range ? 98u + l : 100u + l) << l;
    EXPECT_EQ(up.at(kDst2, l), uint64_t(in_range));
  }
  Warp down = shfl_warp(1, 0x7 | (24 << 8));
  run(shfl(ShflMode::Down), down);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(down.at(kDst, l), (l & 7) != 7 ? 101u + l : 100u + l) << l;
  }
  // A clamp below the segment end: down within the first 4 lanes of each 8.
  Warp clamp = shfl_warp(1, 0x3 | (24 << 8));
  run(shfl(ShflMode::Down), clamp);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(clamp.at(kDst2, l), uint64_t((l & 7) + 1 <= 3)) << l;
  }
  // bfly out of the clamp range keeps the own value.
  Warp bfly = shfl_warp(4, 0x3 | (24 << 8));
  run(shfl(ShflMode::Bfly), bfly);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(bfly.at(kDst, l), (l & 7) >= 4 ? 100u + (l ^ 4) : 100u + l);
    EXPECT_EQ(bfly.at(kDst2, l), uint64_t(((l ^ 4) & 7) <= 3));
  }
}

TEST(WarpLevel, ShflPartialMasksAndAliasing) {
  Warp w = shfl_warp(1, 0x1f);
  w.ctx.exec = w.ctx.active = 0x0000ffffu;
  // d is the value register itself: every lane must read before any lane writes.
  run(I(Op::Shfl, T::B32).mode(ShflMode::Down).dst_reg(kValue).srcs(4), w);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    // Lane 15 reads lane 16, which is inactive: its current register value.
    EXPECT_EQ(w.at(kValue, l), l < 16 ? 101u + l : 100u + l) << l;
  }
  Warp g = shfl_warp(0, 0x1f);
  g.ctx.exec = 0x5;  // guard false elsewhere: only lanes 0 and 2 write
  run(shfl(ShflMode::Idx), g);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(g.at(kDst, l), (0x5 >> l) & 1 ? 100u : kPoison);
  }
}

TEST(WarpLevel, VoteAndBallotWithPartialMasks) {
  Warp w;
  w.set(kValue, [](unsigned l) { return l % 3 == 0; });
  w.set_all(kB, 0x0000ffffu);  // membermask
  w.ctx.active = 0x00ff00ffu;
  w.ctx.exec = 0x000000ffu;
  const auto vote = [&](VoteMode m, T t, bool negate = false) {
    run(I(Op::Vote, t).mode(m).dsts(1).src_reg(kValue, negate).src_reg(kB), w);
    return w.at(kDst, 0);
  };
  // Participants: lanes 0-7; predicate true on 0, 3, 6.
  EXPECT_EQ(vote(VoteMode::Ballot, T::B32), 0x49u);
  EXPECT_EQ(vote(VoteMode::Ballot, T::B32, true), 0xb6u);
  EXPECT_EQ(vote(VoteMode::Any, T::Pred), 1u);
  EXPECT_EQ(vote(VoteMode::All, T::Pred), 0u);
  EXPECT_EQ(vote(VoteMode::Uni, T::Pred), 0u);
  EXPECT_EQ(w.at(kDst, 8), kPoison);  // not executing
  w.set_all(kValue, 1);
  EXPECT_EQ(vote(VoteMode::All, T::Pred), 1u);
  EXPECT_EQ(vote(VoteMode::Uni, T::Pred), 1u);
  EXPECT_EQ(vote(VoteMode::Any, T::Pred, true), 0u);
  EXPECT_EQ(vote(VoteMode::Uni, T::Pred, true), 1u);
  run(I(Op::Activemask, T::B32).dsts(1), w);
  EXPECT_EQ(w.at(kDst, 3), 0x00ff00ffu);
}

TEST(WarpLevel, Redux) {
  Warp w;
  w.set(kValue, [](unsigned l) { return l == 5 ? s32(-7) : uint64_t(l); });
  w.set_all(kB, 0xfffffff0u);               // lanes 4..31 participate (if active)
  w.ctx.active = w.ctx.exec = 0x000000ffu;  // so lanes 4..7
  const auto redux = [&](AtomOp op, T t) {
    run(I(Op::Redux, t).mode(op).dsts(1).srcs(2), w);
    return w.at(kDst, 4);
  };
  EXPECT_EQ(redux(AtomOp::Add, T::S32), s32(4 - 7 + 6 + 7));
  EXPECT_EQ(redux(AtomOp::Add, T::U32), uint64_t(uint32_t(4 - 7 + 6 + 7)));
  EXPECT_EQ(redux(AtomOp::Min, T::S32), s32(-7));
  EXPECT_EQ(redux(AtomOp::Min, T::U32), 4u);
  EXPECT_EQ(redux(AtomOp::Max, T::U32), 0xfffffff9u);
  EXPECT_EQ(redux(AtomOp::Max, T::S32), 7u);
  EXPECT_EQ(redux(AtomOp::And, T::B32), uint64_t(4u & 0xfffffff9u & 6u & 7u));
  EXPECT_EQ(redux(AtomOp::Or, T::B32), uint64_t(4u | 0xfffffff9u | 6u | 7u));
  EXPECT_EQ(redux(AtomOp::Xor, T::B32), uint64_t(4u ^ 0xfffffff9u ^ 6u ^ 7u));
  EXPECT_EQ(w.at(kDst, 7), w.at(kDst, 4));
  // f32 min/max: -0 < +0, NaN ignored unless .NaN, .abs.
  w.set(kValue, [](unsigned l) {
    const float v[] = {0, 0, 0, 0, 0.0f, -0.0f, NAN, -3.0f};
    return f32(l < 8 ? v[l] : 0);
  });
  EXPECT_EQ(redux(AtomOp::Min, T::F32), f32(-3));
  EXPECT_EQ(redux(AtomOp::Max, T::F32), f32(0));
  run(I(Op::Redux, T::F32).mode(AtomOp::Max).flags(kAbsInput).dsts(1).srcs(2), w);
  EXPECT_EQ(w.at(kDst, 4), f32(3));
  run(I(Op::Redux, T::F32).mode(AtomOp::Min).flags(kNaN).dsts(1).srcs(2), w);
  EXPECT_EQ(w.at(kDst, 4), kCanonNaN32);
  w.set(kValue, [](unsigned) { return f32(NAN); });
  EXPECT_EQ(redux(AtomOp::Max, T::F32), kCanonNaN32);
  // The destination may be the source register.
  w.set(kValue, [](unsigned l) { return l; });
  run(I(Op::Redux, T::U32).mode(AtomOp::Add).dst_reg(kValue).srcs(2), w);
  for (unsigned l = 4; l < 8; ++l) EXPECT_EQ(w.at(kValue, l), 22u);
}

TEST(WarpLevel, Match) {
  Warp w;
  w.set(kValue, [](unsigned l) { return l % 2 ? 0x100000007ull : 7u; });
  w.set_all(kB, 0x0000000fu);
  w.ctx.active = w.ctx.exec = 0x0000000fu;
  run(I(Op::Match, T::B32).mode(MatchMode::Any).dsts(1).srcs(2), w);
  for (unsigned l = 0; l < 4; ++l) EXPECT_EQ(w.at(kDst, l), 0xfu);  // low 32 bits all 7
  run(I(Op::Match, T::B64).mode(MatchMode::Any).dsts(1).srcs(2), w);
  for (unsigned l = 0; l < 4; ++l) EXPECT_EQ(w.at(kDst, l), l % 2 ? 0xau : 0x5u);
  run(I(Op::Match, T::B64).mode(MatchMode::All).dsts(2).srcs(2), w);
  EXPECT_EQ(w.at(kDst, 0), 0u);
  EXPECT_EQ(w.at(kDst2, 0), 0u);
  w.set_all(kB, 0x5u);  // only the even lanes
  run(I(Op::Match, T::B64).mode(MatchMode::All).dsts(2).srcs(2), w);
  EXPECT_EQ(w.at(kDst, 0), 0x5u);
  EXPECT_EQ(w.at(kDst2, 2), 1u);
}

}  // namespace
}  // namespace gpusoc::ptx::test
