// Integer arithmetic against 128-bit and hand-computed references.
#include <limits>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;
constexpr int32_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();

TEST(Integer, AddSubWrapAndExtend) {
  EXPECT_EQ(eval(I(Op::Add, T::S32).dsts(1).srcs(2), {s32(kMax32), 1}), s32(kMin32));
  EXPECT_EQ(eval(I(Op::Add, T::U32).dsts(1).srcs(2), {0xffffffffu, 2}), 1u);
  EXPECT_EQ(eval(I(Op::Sub, T::U32).dsts(1).srcs(2), {0, 1}), 0xffffffffu);   // zero-extended
  EXPECT_EQ(eval(I(Op::Sub, T::S16).dsts(1).srcs(2), {0, 1}), ~uint64_t(0));  // sign-extended
  EXPECT_EQ(eval(I(Op::Add, T::U16).dsts(1).srcs(2), {0xffff, 0xffff}), 0xfffeu);
  EXPECT_EQ(eval(I(Op::Sub, T::S64).dsts(1).srcs(2), {s64(kMin64), 1}), s64(INT64_MAX));
  // An immediate source (sign-extended 64-bit literal).
  EXPECT_EQ(eval(I(Op::Add, T::S32).dsts(1).srcs(1).imm(s64(-5)), {3}), s32(-2));
}

TEST(Integer, SaturatingAddSub) {
  const Inst add = I(Op::Add, T::S32).flags(kSat).dsts(1).srcs(2);
  const Inst sub = I(Op::Sub, T::S32).flags(kSat).dsts(1).srcs(2);
  EXPECT_EQ(eval(add, {s32(kMax32), 1}), s32(kMax32));
  EXPECT_EQ(eval(add, {s32(kMin32), s32(-1)}), s32(kMin32));
  EXPECT_EQ(eval(add, {s32(-7), s32(3)}), s32(-4));
  EXPECT_EQ(eval(sub, {s32(kMin32), 1}), s32(kMin32));
  EXPECT_EQ(eval(sub, {s32(kMax32), s32(-1)}), s32(kMax32));
  EXPECT_EQ(eval(sub, {0, s32(kMin32)}), s32(kMax32));
}

// add.cc + addc (and sub.cc + subc) over two 64-bit words equal 128-bit arithmetic.
TEST(Integer, CarryChainsMatch128BitArithmetic) {
  Rng rng(1);
  const Inst add_lo = I(Op::Add, T::U64).flags(kCarryOut).dst_reg(5).src_reg(1).src_reg(3);
  const Inst add_hi = I(Op::Add, T::U64).flags(kCarryIn).dst_reg(6).src_reg(2).src_reg(4);
  const Inst sub_lo = I(Op::Sub, T::U64).flags(kCarryOut).dst_reg(5).src_reg(1).src_reg(3);
  const Inst sub_hi = I(Op::Sub, T::U64).flags(kCarryIn).dst_reg(6).src_reg(2).src_reg(4);
  for (int iter = 0; iter < 200; ++iter) {
    Warp w;
    // Every other lane uses edge values that make the carry ripple.
    w.set(1, [&](unsigned l) { return l & 1 ? ~uint64_t(0) : rng.next(); });
    w.set(2, [&](unsigned) { return rng.next(); });
    w.set(3, [&](unsigned l) { return l & 1 ? uint64_t(1) : rng.next(); });
    w.set(4, [&](unsigned) { return rng.next(); });
    for (bool is_sub : {false, true}) {
      run(is_sub ? sub_lo : add_lo, w);
      run(is_sub ? sub_hi : add_hi, w);
      for (unsigned l = 0; l < kWarpSize; ++l) {
        const unsigned __int128 a = (unsigned __int128)w.at(2, l) << 64 | w.at(1, l);
        const unsigned __int128 b = (unsigned __int128)w.at(4, l) << 64 | w.at(3, l);
        const unsigned __int128 ref = is_sub ? a - b : a + b;
        EXPECT_EQ(w.at(5, l), uint64_t(ref));
        EXPECT_EQ(w.at(6, l), uint64_t(ref >> 64));
      }
    }
  }
}

TEST(Integer, CarryOutOf32BitAddAndMad) {
  Warp w;
  w.set_all(1, 0xffffffffu);
  w.set_all(2, 1);
  run(I(Op::Add, T::U32).flags(kCarryOut).dsts(1).srcs(2), w);
  EXPECT_EQ(w.at(kDst, 3), 0u);
  EXPECT_EQ(w.at(kCarryReg, 3), 1u);
  // madc.lo.u32 d = a*b + c + CF: 3*4 + 5 + 1.
  w.set_all(1, 3);
  w.set_all(2, 4);
  w.set_all(3, 5);
  run(I(Op::Mad, T::U32).mode(MulMode::Lo).flags(kCarryIn | kCarryOut).dsts(1).srcs(3), w);
  EXPECT_EQ(w.at(kDst, 0), 18u);
  EXPECT_EQ(w.at(kCarryReg, 0), 0u);
  w.set_all(3, 0xfffffff4u);  // 12 + 0xfffffff4 wraps: carry out
  run(I(Op::Mad, T::U32).mode(MulMode::Lo).flags(kCarryOut).dsts(1).srcs(3), w);
  EXPECT_EQ(w.at(kDst, 0), 0u);
  EXPECT_EQ(w.at(kCarryReg, 0), 1u);
}

template <class V>
uint64_t reg_of(V v) {
  return std::is_signed_v<V> ? uint64_t(int64_t(v)) : uint64_t(v);
}

// mul.lo/.hi/.wide against __int128 products, for s32/u32/s64/u64 and edge operands.
template <class V>
void check_mul(T type) {
  using W = std::conditional_t<std::is_signed_v<V>, __int128, unsigned __int128>;
  constexpr unsigned kBits = 8 * sizeof(V);
  std::vector<V> values = {
      0,        1,        V(-1), std::numeric_limits<V>::min(), std::numeric_limits<V>::max(),
      V(12345), V(-98765)};
  Rng rng(kBits);
  for (int i = 0; i < 40; ++i) values.push_back(V(rng.next()));
  for (V a : values) {
    for (V b : values) {
      const W p = W(a) * W(b);
      const uint64_t lo = uint64_t(p) & (kBits == 64 ? ~uint64_t(0) : 0xffffffffu);
      EXPECT_EQ(eval(I(Op::Mul, type).mode(MulMode::Lo).dsts(1).srcs(2), {reg_of(a), reg_of(b)}),
                reg_of(V(lo)));
      EXPECT_EQ(eval(I(Op::Mul, type).mode(MulMode::Hi).dsts(1).srcs(2), {reg_of(a), reg_of(b)}),
                reg_of(V(uint64_t((unsigned __int128)p >> kBits))));
      if (kBits == 32) {
        EXPECT_EQ(
            eval(I(Op::Mul, type).mode(MulMode::Wide).dsts(1).srcs(2), {reg_of(a), reg_of(b)}),
            uint64_t(p));
      }
    }
  }
}

TEST(Integer, MulLoHiWide) {
  check_mul<int32_t>(T::S32);
  check_mul<uint32_t>(T::U32);
  check_mul<int64_t>(T::S64);
  check_mul<uint64_t>(T::U64);
  EXPECT_EQ(eval(I(Op::Mul, T::S16).mode(MulMode::Wide).dsts(1).srcs(2), {s64(-300), 300}),
            s32(-90000));
  EXPECT_EQ(eval(I(Op::Mul, T::U16).mode(MulMode::Lo).dsts(1).srcs(2), {0xffff, 0xffff}), 1u);
}

TEST(Integer, MadModesAndSaturation) {
  // mad.wide.s32: 64-bit c and d.
  EXPECT_EQ(eval(I(Op::Mad, T::S32).mode(MulMode::Wide).dsts(1).srcs(3),
                 {s32(kMin32), s32(kMin32), s64(-1)}),
            uint64_t(0x3fffffffffffffffull));
  EXPECT_EQ(eval(I(Op::Mad, T::U32).mode(MulMode::Hi).dsts(1).srcs(3), {0x80000000u, 4, 5}), 7u);
  const Inst sat = I(Op::Mad, T::S32).mode(MulMode::Hi).flags(kSat).dsts(1).srcs(3);
  // hi(0x7fffffff * 0x7fffffff) = 0x3fffffff; + 0x7fffffff saturates.
  EXPECT_EQ(eval(sat, {s32(kMax32), s32(kMax32), s32(kMax32)}), s32(kMax32));
  EXPECT_EQ(eval(sat, {s32(kMin32), s32(kMax32), s32(kMin32)}), s32(kMin32));
  EXPECT_EQ(eval(sat, {s32(kMin32), 2, 10}), s32(9));
}

TEST(Integer, Mul24AndMad24) {
  // Only the low 24 bits take part; .s32 sign-extends them.
  EXPECT_EQ(eval(I(Op::Mul24, T::U32).mode(MulMode::Lo).dsts(1).srcs(2), {0xff000003u, 5}), 15u);
  EXPECT_EQ(eval(I(Op::Mul24, T::S32).mode(MulMode::Lo).dsts(1).srcs(2), {0x00ffffffu, 7}),
            s32(-7));
  // 0xffffff * 0xffffff = 0xfffffe000001: .hi is bits 47..16.
  EXPECT_EQ(eval(I(Op::Mul24, T::U32).mode(MulMode::Hi).dsts(1).srcs(2), {0xffffff, 0xffffff}),
            0xfffffe00u);
  EXPECT_EQ(eval(I(Op::Mad24, T::U32).mode(MulMode::Lo).dsts(1).srcs(3), {2, 3, 0xffffffffu}), 5u);
  EXPECT_EQ(eval(I(Op::Mad24, T::S32).mode(MulMode::Hi).flags(kSat).dsts(1).srcs(3),
                 {0x7fffff, 0x7fffff, s32(kMax32)}),
            s32(kMax32));
}

TEST(Integer, Sad) {
  EXPECT_EQ(eval(I(Op::Sad, T::U32).dsts(1).srcs(3), {3, 10, 100}), 107u);
  EXPECT_EQ(eval(I(Op::Sad, T::S32).dsts(1).srcs(3), {s32(-5), 4, 1}), 10u);
  EXPECT_EQ(eval(I(Op::Sad, T::S32).dsts(1).srcs(3), {s32(kMin32), s32(kMax32), 0}),
            s32(-1));  // |a - b| = 2^32 - 1, mod 2^32
}

TEST(Integer, DivisionAndRemainderIncludingZeroAndOverflow) {
  const Inst sdiv = I(Op::Div, T::S32).dsts(1).srcs(2), srem = I(Op::Rem, T::S32).dsts(1).srcs(2);
  const Inst udiv = I(Op::Div, T::U32).dsts(1).srcs(2), urem = I(Op::Rem, T::U32).dsts(1).srcs(2);
  EXPECT_EQ(eval(sdiv, {s32(-7), 2}), s32(-3));  // truncates toward zero
  EXPECT_EQ(eval(srem, {s32(-7), 2}), s32(-1));
  EXPECT_EQ(eval(udiv, {7, 0}), 0xffffffffu);
  EXPECT_EQ(eval(urem, {7, 0}), 7u);
  EXPECT_EQ(eval(sdiv, {7, 0}), s32(-1));
  EXPECT_EQ(eval(sdiv, {s32(-7), 0}), s32(1));
  EXPECT_EQ(eval(srem, {s32(-7), 0}), s32(-7));
  EXPECT_EQ(eval(sdiv, {s32(kMin32), s32(-1)}), s32(kMin32));
  EXPECT_EQ(eval(srem, {s32(kMin32), s32(-1)}), 0u);
  EXPECT_EQ(eval(I(Op::Div, T::S64).dsts(1).srcs(2), {s64(kMin64), s64(-1)}), s64(kMin64));
  EXPECT_EQ(eval(I(Op::Rem, T::S64).dsts(1).srcs(2), {s64(kMin64), s64(-1)}), 0u);
  EXPECT_EQ(eval(I(Op::Div, T::U64).dsts(1).srcs(2), {5, 0}), ~uint64_t(0));
  EXPECT_EQ(eval(I(Op::Div, T::S16).dsts(1).srcs(2), {s64(-32768), s64(-1)}), s64(-32768));
}

TEST(Integer, AbsNegMinMax) {
  EXPECT_EQ(eval(I(Op::Abs, T::S32).dsts(1).srcs(1), {s32(-9)}), 9u);
  EXPECT_EQ(eval(I(Op::Abs, T::S32).dsts(1).srcs(1), {s32(kMin32)}), s32(kMin32));
  EXPECT_EQ(eval(I(Op::Neg, T::S64).dsts(1).srcs(1), {s64(kMin64)}), s64(kMin64));
  EXPECT_EQ(eval(I(Op::Neg, T::S16).dsts(1).srcs(1), {5}), s64(-5));
  EXPECT_EQ(eval(I(Op::Min, T::S32).dsts(1).srcs(2), {s32(-1), 1}), s32(-1));
  EXPECT_EQ(eval(I(Op::Min, T::U32).dsts(1).srcs(2), {0xffffffffu, 1}), 1u);
  EXPECT_EQ(eval(I(Op::Max, T::U64).dsts(1).srcs(2), {~uint64_t(0), 1}), ~uint64_t(0));
  EXPECT_EQ(eval(I(Op::Max, T::S32).flags(kRelu).dsts(1).srcs(2), {s32(-4), s32(-2)}), 0u);
  EXPECT_EQ(eval(I(Op::Min, T::S32).flags(kRelu).dsts(1).srcs(2), {s32(7), s32(3)}), 3u);
}

TEST(Integer, LanesOutsideExecAreNotWritten) {
  Warp w;
  w.set(1, [](unsigned l) { return l; });
  w.set_all(2, 100);
  w.ctx.exec = 0x80000005u;
  run(I(Op::Add, T::U32).dsts(1).srcs(2), w);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    EXPECT_EQ(w.at(kDst, l), (w.ctx.exec >> l) & 1 ? 100u + l : kPoison) << l;
  }
  w.ctx.exec = 0;
  run(I(Op::Mul, T::U32).mode(MulMode::Lo).dst_reg(10).srcs(2), w);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(w.at(10, l), kPoison);
}

}  // namespace
}  // namespace gpusoc::ptx::test
