// setp, set, selp, slct.
#include <cmath>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;

uint64_t setp(T type, CmpOp c, uint64_t a, uint64_t b, uint16_t flags = 0) {
  return eval(I(Op::Setp, type).mode(c).flags(flags).dsts(1).srcs(2), {a, b});
}

TEST(Compare, IntegerSignedAndUnsigned) {
  EXPECT_EQ(setp(T::S32, CmpOp::Lt, s32(-1), 1), 1u);
  EXPECT_EQ(setp(T::U32, CmpOp::Lt, s32(-1), 1), 0u);
  EXPECT_EQ(setp(T::S32, CmpOp::Lo, s32(-1), 1), 0u);  // lo compares unsigned
  EXPECT_EQ(setp(T::S32, CmpOp::Hi, s32(-1), 1), 1u);
  EXPECT_EQ(setp(T::U64, CmpOp::Hs, 5, 5), 1u);
  EXPECT_EQ(setp(T::S16, CmpOp::Ge, 0x8000, 0x7fff), 0u);     // -32768 >= 32767
  EXPECT_EQ(setp(T::B32, CmpOp::Ne, 0x100000000ull, 0), 0u);  // only the low 32 bits count
  EXPECT_EQ(setp(T::S64, CmpOp::Le, s64(INT64_MIN), s64(INT64_MAX)), 1u);
}

TEST(Compare, FloatOrderedAndUnorderedWithNaN) {
  const uint64_t nan = f32(NAN), one = f32(1), two = f32(2);
  // Rows: eq ne lt le gt ge equ neu ltu leu gtu geu num nan.
  const CmpOp ops[] = {CmpOp::Eq,  CmpOp::Ne,  CmpOp::Lt,  CmpOp::Le,  CmpOp::Gt,
                       CmpOp::Ge,  CmpOp::Equ, CmpOp::Neu, CmpOp::Ltu, CmpOp::Leu,
                       CmpOp::Gtu, CmpOp::Geu, CmpOp::Num, CmpOp::Nan};
  const bool with_nan[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 1};
  const bool one_two[] = {0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0};
  for (int i = 0; i < 14; ++i) {
    EXPECT_EQ(setp(T::F32, ops[i], nan, one), uint64_t(with_nan[i])) << i;
    EXPECT_EQ(setp(T::F32, ops[i], one, two), uint64_t(one_two[i])) << i;
    EXPECT_EQ(setp(T::F64, ops[i], f64(1), f64(2)), uint64_t(one_two[i])) << i;
  }
  EXPECT_EQ(setp(T::F32, CmpOp::Eq, f32(0), f32(-0.0f)), 1u);
  const float sub = 1e-40f;
  EXPECT_EQ(setp(T::F32, CmpOp::Eq, f32(sub), f32(0)), 0u);
  EXPECT_EQ(setp(T::F32, CmpOp::Eq, f32(sub), f32(0), kFtz), 1u);
}

TEST(Compare, BoolOpAndPredicatePair) {
  Warp w;
  w.set(1, [](unsigned l) { return l; });
  w.set_all(2, 16);
  w.set(3, [](unsigned l) { return l & 1; });  // c
  // setp.lt.and.u32 p|q, a, b, !c: p = (l < 16) && !c, q = !(l < 16) && !c.
  run(I(Op::Setp, T::U32)
          .mode(CmpOp::Lt)
          .sub2(uint8_t(BoolOp::And))
          .dsts(2)
          .srcs(2)
          .src_reg(3, true),
      w);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const bool c = !(l & 1);
    EXPECT_EQ(w.at(kDst, l), uint64_t(l < 16 && c)) << l;
    EXPECT_EQ(w.at(kDst2, l), uint64_t(l >= 16 && c)) << l;
  }
  run(I(Op::Setp, T::U32).mode(CmpOp::Eq).sub2(uint8_t(BoolOp::Xor)).dsts(1).srcs(3), w);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(w.at(kDst, l), uint64_t((l == 16) != (l & 1)));
}

TEST(Compare, HalfPrecision) {
  EXPECT_EQ(setp(T::F16, CmpOp::Lt, 0xbc00, 0x3c00), 1u);
  EXPECT_EQ(setp(T::BF16, CmpOp::Gtu, 0x7fc0, 0x3f80), 1u);
  // f16x2: p from the low halves, q from the high halves.
  const Inst x2 = I(Op::Setp, T::F16x2).mode(CmpOp::Gt).dsts(2).srcs(2);
  EXPECT_EQ(eval(x2, {0x40003c00u, 0x3c004000u}, 0), 0u);  // 1 > 2
  EXPECT_EQ(eval(x2, {0x40003c00u, 0x3c004000u}, 1), 1u);  // 2 > 1
}

TEST(Compare, SetWritesOnesOrOneFloat) {
  const Inst su = I(Op::Set, T::U32).type2(T::S32).mode(CmpOp::Lt).dsts(1).srcs(2);
  EXPECT_EQ(eval(su, {s32(-5), 3}), 0xffffffffu);
  EXPECT_EQ(eval(su, {3, s32(-5)}), 0u);
  EXPECT_EQ(
      eval(I(Op::Set, T::S32).type2(T::F64).mode(CmpOp::Nan).dsts(1).srcs(2), {f64(NAN), f64(0)}),
      ~uint64_t(0));
  EXPECT_EQ(eval(I(Op::Set, T::F32)
                     .type2(T::U16)
                     .mode(CmpOp::Eq)
                     .sub2(uint8_t(BoolOp::Or))
                     .dsts(1)
                     .srcs(3),
                 {1, 2, 1}),
            f32(1));
}

TEST(Compare, SelpAndSlct) {
  Warp w;
  w.set_all(1, s32(-10));
  w.set_all(2, 20);
  w.set(3, [](unsigned l) { return l % 2; });
  run(I(Op::Selp, T::S32).dsts(1).srcs(3), w);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(w.at(kDst, l), l % 2 ? s32(-10) : 20u);
  const Inst si = I(Op::Slct, T::S32).type2(T::S32).dsts(1).srcs(3);
  EXPECT_EQ(eval(si, {1, 2, 0}), 1u);
  EXPECT_EQ(eval(si, {1, 2, s32(-1)}), 2u);
  const Inst sf = I(Op::Slct, T::F32).type2(T::F32).dsts(1).srcs(3);
  EXPECT_EQ(eval(sf, {f32(1), f32(2), f32(-0.0f)}), f32(1));
  EXPECT_EQ(eval(sf, {f32(1), f32(2), f32(NAN)}), f32(2));
  EXPECT_EQ(eval(sf, {f32(1), f32(2), f32(-1e-40f)}), f32(2));
  EXPECT_EQ(eval(I(Op::Slct, T::F32).type2(T::F32).flags(kFtz).dsts(1).srcs(3),
                 {f32(1), f32(2), f32(-1e-40f)}),
            f32(1));
}

}  // namespace
}  // namespace gpusoc::ptx::test
