// Logic, shifts and bit manipulation against bit-by-bit transcriptions of the PTX ISA
// pseudo-code.
#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;

bool bit(uint64_t v, unsigned i) {
  return i < 64 && ((v >> i) & 1);
}

TEST(Bits, LogicOnPredicatesAndIntegers) {
  EXPECT_EQ(eval(I(Op::And, T::B32).dsts(1).srcs(2), {0xff00ff00u, 0x0ff00ff0u}), 0x0f000f00u);
  EXPECT_EQ(eval(I(Op::Or, T::B16).dsts(1).srcs(2), {0x00f0, 0x0f00}), 0x0ff0u);
  EXPECT_EQ(eval(I(Op::Xor, T::B64).dsts(1).srcs(2), {~uint64_t(0), 1}), ~uint64_t(1));
  EXPECT_EQ(eval(I(Op::Not, T::B32).dsts(1).srcs(1), {0x0000ffffu}), 0xffff0000u);
  EXPECT_EQ(eval(I(Op::Cnot, T::B32).dsts(1).srcs(1), {0}), 1u);
  EXPECT_EQ(eval(I(Op::Cnot, T::B32).dsts(1).srcs(1), {0x100000000ull}), 1u);  // low 32 bits
  EXPECT_EQ(eval(I(Op::Cnot, T::B16).dsts(1).srcs(1), {7}), 0u);
  EXPECT_EQ(eval(I(Op::And, T::Pred).dsts(1).srcs(2), {1, 0}), 0u);
  EXPECT_EQ(eval(I(Op::Xor, T::Pred).dsts(1).srcs(2), {1, 0}), 1u);
  EXPECT_EQ(eval(I(Op::Not, T::Pred).dsts(1).srcs(1), {1}), 0u);
  EXPECT_EQ(eval(I(Op::Or, T::Pred).dsts(1).src_reg(1, true).src_reg(2), {1, 0}), 0u);
}

TEST(Bits, ShiftsAtAndBeyondTheWidth) {
  const auto shl = [](T t, uint64_t a, uint64_t n) {
    return eval(I(Op::Shl, t).dsts(1).srcs(2), {a, n});
  };
  const auto shr = [](T t, uint64_t a, uint64_t n) {
    return eval(I(Op::Shr, t).dsts(1).srcs(2), {a, n});
  };
  EXPECT_EQ(shl(T::B32, 1, 31), 0x80000000u);
  EXPECT_EQ(shl(T::B32, 1, 32), 0u);
  EXPECT_EQ(shl(T::B32, 1, 0xffffffffu), 0u);
  EXPECT_EQ(shl(T::B16, 0xffff, 15), 0x8000u);
  EXPECT_EQ(shl(T::B64, 3, 63), 0x8000000000000000ull);
  EXPECT_EQ(shl(T::B64, 3, 64), 0u);
  EXPECT_EQ(shr(T::U32, 0x80000000u, 31), 1u);
  EXPECT_EQ(shr(T::U32, 0x80000000u, 32), 0u);
  EXPECT_EQ(shr(T::B32, 0x80000000u, 4), 0x08000000u);
  EXPECT_EQ(shr(T::S32, s32(-256), 4), s32(-16));
  EXPECT_EQ(shr(T::S32, s32(-256), 32), s32(-1));
  EXPECT_EQ(shr(T::S32, s32(-256), 0x80000000u), s32(-1));  // amount is unsigned
  EXPECT_EQ(shr(T::S32, 256, 40), 0u);
  EXPECT_EQ(shr(T::S16, 0x8000, 100), s64(-1));
  EXPECT_EQ(shr(T::S64, s64(INT64_MIN), 63), s64(-1));
  // The amount is a 32-bit operand: a 64-bit register holding 2^32 + 1 shifts by 1.
  EXPECT_EQ(shl(T::B32, 1, 0x100000001ull), 2u);
}

uint32_t shf_reference(bool left, bool wrap, uint32_t a, uint32_t b, uint32_t c) {
  const uint32_t n = wrap ? c & 0x1f : (c < 32 ? c : 32);
  const uint64_t bn = uint64_t(b) << n, b32n = n == 0 ? 0 : uint64_t(b) << (32 - n);
  const uint64_t an = n == 32 ? 0 : uint64_t(a) >> n, a32n = n == 0 ? 0 : uint64_t(a) >> (32 - n);
  return uint32_t(left ? bn | a32n : b32n | an);
}

TEST(Bits, FunnelShiftClampAndWrap) {
  Rng rng(9);
  for (int i = 0; i < 200; ++i) {
    const uint32_t a = uint32_t(rng.next()), b = uint32_t(rng.next());
    for (uint32_t c : {0u, 1u, 5u, 31u, 32u, 33u, 63u, 64u, 0xffffffffu, uint32_t(rng.next())}) {
      for (uint8_t mode = 0; mode < 4; ++mode) {
        EXPECT_EQ(eval(I(Op::Shf, T::B32).sub(mode).dsts(1).srcs(3), {a, b, c}),
                  shf_reference(mode & kShfLeft, mode & kShfWrap, a, b, c))
            << "mode " << int(mode) << " c " << c;
      }
    }
  }
}

uint64_t bfe_reference(bool is_signed, unsigned width, uint64_t a, uint32_t b, uint32_t c) {
  const unsigned msb = width - 1, pos = b & 0xff, len = c & 0xff;
  const bool sbit = is_signed && len != 0 && bit(a, std::min(pos + len - 1, msb));
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    if (i < len && pos + i <= msb ? bit(a, pos + i) : sbit) d |= uint64_t(1) << i;
  }
  return d;
}

uint64_t bfi_reference(unsigned width, uint64_t a, uint64_t b, uint32_t c, uint32_t d) {
  const unsigned msb = width - 1, pos = c & 0xff, len = d & 0xff;
  uint64_t f = b;
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    f = (f & ~(uint64_t(1) << (pos + i))) | (uint64_t(bit(a, i)) << (pos + i));
  }
  return f;
}

TEST(Bits, BitFieldExtractAndInsertEdges) {
  Rng rng(11);
  const uint32_t positions[] = {0, 1, 7, 31, 32, 33, 63, 64, 65, 200, 255, 256, 0x1ff, 0xffffff05};
  for (int i = 0; i < 4; ++i) {
    const uint64_t a = rng.next() | (i & 1 ? 0x8000000080000000ull : 0), b = rng.next();
    for (uint32_t pos : positions) {
      for (uint32_t len : positions) {
        for (T t : {T::U32, T::S32, T::U64, T::S64}) {
          const unsigned w = t == T::U32 || t == T::S32 ? 32 : 64;
          const bool sgn = t == T::S32 || t == T::S64;
          uint64_t want = bfe_reference(sgn, w, a, pos, len);
          if (w == 32) want = sgn ? s32(int32_t(want)) : uint32_t(want);
          EXPECT_EQ(eval(I(Op::Bfe, t).dsts(1).srcs(3), {a, pos, len}), want)
              << "pos " << pos << " len " << len << " type " << int(t);
        }
        for (T t : {T::B32, T::B64}) {
          const unsigned w = t == T::B32 ? 32 : 64;
          uint64_t want = bfi_reference(w, a, b, pos, len);
          if (w == 32) want = uint32_t(want);
          EXPECT_EQ(eval(I(Op::Bfi, t).dsts(1).srcs(4), {a, b, pos, len}), want)
              << "pos " << pos << " len " << len;
        }
      }
    }
  }
}

TEST(Bits, BfindClzPopcBrev) {
  const auto one = [](Op op, T t, uint64_t a, uint16_t flags = 0) {
    return eval(I(op, t).flags(flags).dsts(1).srcs(1), {a});
  };
  EXPECT_EQ(one(Op::Bfind, T::U32, 0), 0xffffffffu);
  EXPECT_EQ(one(Op::Bfind, T::U32, 0, kShiftAmount), 0xffffffffu);
  EXPECT_EQ(one(Op::Bfind, T::S32, s32(-1)), 0xffffffffu);
  EXPECT_EQ(one(Op::Bfind, T::U32, 0x00010000u), 16u);
  EXPECT_EQ(one(Op::Bfind, T::U32, 0x00010000u, kShiftAmount), 15u);
  EXPECT_EQ(one(Op::Bfind, T::S32, s32(-65536)), 15u);  // most significant 0 of 0xffff0000
  EXPECT_EQ(one(Op::Bfind, T::S64, 1), 0u);
  EXPECT_EQ(one(Op::Bfind, T::U64, 0x8000000000000000ull, kShiftAmount), 0u);
  EXPECT_EQ(one(Op::Clz, T::B32, 0), 32u);
  EXPECT_EQ(one(Op::Clz, T::B32, 1), 31u);
  EXPECT_EQ(one(Op::Clz, T::B32, 0xffffffff00000000ull), 32u);  // low 32 bits only
  EXPECT_EQ(one(Op::Clz, T::B64, 0), 64u);
  EXPECT_EQ(one(Op::Clz, T::B64, 0x0000800000000000ull), 16u);
  EXPECT_EQ(one(Op::Popc, T::B32, 0xf0f0f0f0f0ull), 16u);
  EXPECT_EQ(one(Op::Popc, T::B64, ~uint64_t(0)), 64u);
  EXPECT_EQ(one(Op::Brev, T::B32, 0x00000001u), 0x80000000u);
  EXPECT_EQ(one(Op::Brev, T::B32, 0x12345678u), 0x1e6a2c48u);
  EXPECT_EQ(one(Op::Brev, T::B64, 0x3), 0xc000000000000000ull);
}

uint32_t bmsk_reference(bool wrap, uint32_t a, uint32_t b) {
  const uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1;
  uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
  bool pos_overflow = false, width_overflow = false;
  if (!wrap) {
    if (a >= 32) pos_overflow = true, mask0 = 0;
    if (b >= 32) width_overflow = true;
  }
  if (sum >= 32 || pos_overflow || width_overflow) {
    mask1 = 0;
  } else if (b1 == 0) {
    mask1 = ~0u;
  }
  return mask0 & ~mask1;
}

TEST(Bits, Bmsk) {
  EXPECT_EQ(eval(I(Op::Bmsk, T::B32).sub(1).dsts(1).srcs(2), {1, 2}), 6u);  // PTX ISA example
  for (uint32_t a : {0u, 1u, 5u, 31u, 32u, 33u, 100u}) {
    for (uint32_t b : {0u, 1u, 4u, 27u, 31u, 32u, 40u}) {
      for (uint8_t wrap : {0, 1}) {
        EXPECT_EQ(eval(I(Op::Bmsk, T::B32).sub(wrap).dsts(1).srcs(2), {a, b}),
                  bmsk_reference(wrap, a, b))
            << a << " " << b << " wrap " << int(wrap);
      }
    }
  }
}

TEST(Bits, PrmtGenericAndModes) {
  const uint32_t a = 0x33221100, b = 0x77665544;  // byte i holds 0xii
  const auto prmt = [&](PrmtMode m, uint32_t c) {
    return eval(I(Op::Prmt, T::B32).mode(m).dsts(1).srcs(3), {a, b, c});
  };
  EXPECT_EQ(prmt(PrmtMode::None, 0x3210), a);
  EXPECT_EQ(prmt(PrmtMode::None, 0x0123), 0x00112233u);
  EXPECT_EQ(prmt(PrmtMode::None, 0x7654), b);
  // Sign replication: selector msb set copies the byte's sign to all 8 bits.
  EXPECT_EQ(eval(I(Op::Prmt, T::B32).dsts(1).srcs(3), {0x0000807fu, 0, 0x8989}), 0x00ff00ffu);
  // The mode tables, as written in the PTX ISA (d.b3 d.b2 d.b1 d.b0 per c[1:0]).
  EXPECT_EQ(prmt(PrmtMode::F4e, 1), 0x44332211u);
  EXPECT_EQ(prmt(PrmtMode::F4e, 3), 0x66554433u);
  EXPECT_EQ(prmt(PrmtMode::B4e, 0), 0x55667700u);
  EXPECT_EQ(prmt(PrmtMode::B4e, 3), 0x00112233u);
  EXPECT_EQ(prmt(PrmtMode::Rc8, 2), 0x22222222u);
  EXPECT_EQ(prmt(PrmtMode::Ecl, 1), 0x33221111u);
  EXPECT_EQ(prmt(PrmtMode::Ecl, 2), 0x33222222u);
  EXPECT_EQ(prmt(PrmtMode::Ecr, 1), 0x11111100u);
  EXPECT_EQ(prmt(PrmtMode::Ecr, 2), 0x22221100u);
  EXPECT_EQ(prmt(PrmtMode::Rc16, 1), 0x33223322u);
  EXPECT_EQ(prmt(PrmtMode::Rc16, 6), 0x11001100u);  // only c[1:0] counts
}

TEST(Bits, DotProducts) {
  // dp4a.s32.s32: bytes {1, -2, 3, -4} . {5, 6, -7, 8} + 100 = 5 - 12 - 21 - 32 + 100 = 40.
  const Inst ss = I(Op::Dp4a, T::S32).type2(T::S32).dsts(1).srcs(3);
  EXPECT_EQ(eval(ss, {0xfc03fe01u, 0x08f90605u, 100}), 40u);
  EXPECT_EQ(eval(ss, {0xfc03fe01u, 0x08f90605u, s32(-100)}), s32(-160));
  // dp4a.u32.u32: 255 * 255 * 4 + 0xffffffff wraps mod 2^32.
  EXPECT_EQ(eval(I(Op::Dp4a, T::U32).type2(T::U32).dsts(1).srcs(3),
                 {0xffffffffu, 0xffffffffu, 0xffffffffu}),
            uint64_t(uint32_t(255 * 255 * 4 - 1)));
  // dp4a.u32.s32: unsigned a bytes times signed b bytes.
  EXPECT_EQ(eval(I(Op::Dp4a, T::U32).type2(T::S32).dsts(1).srcs(3), {0x000000ffu, 0x000000ffu, 0}),
            s32(-255));
  // dp2a.lo.s32.s32: halves {-3, 2} . bytes 0-1 {4, -5}; .hi uses bytes 2-3 {6, 7}.
  const Inst lo = I(Op::Dp2a, T::S32).type2(T::S32).mode(MulMode::Lo).dsts(1).srcs(3);
  const Inst hi = I(Op::Dp2a, T::S32).type2(T::S32).mode(MulMode::Hi).dsts(1).srcs(3);
  EXPECT_EQ(eval(lo, {0x0002fffdu, 0x0706fb04u, 1}), s32(-12 - 10 + 1));
  EXPECT_EQ(eval(hi, {0x0002fffdu, 0x0706fb04u, 1}), s32(-18 + 14 + 1));
  EXPECT_EQ(eval(I(Op::Dp2a, T::U32).type2(T::U32).mode(MulMode::Hi).dsts(1).srcs(3),
                 {0x0002fffdu, 0x0706fb04u, 0}),
            uint64_t(0xfffd * 6 + 2 * 7));
}

TEST(Bits, Vabsdiff4) {
  // |{1,200,3,4} - {5,6,255,4}| = {4,194,252,0}.
  const Inst add = I(Op::Vabsdiff4, T::U32).type2(T::U32).sub(1).dsts(1).srcs(3);
  EXPECT_EQ(eval(add, {0x0403c801u, 0x04ff0605u, 10}), 10u + 4 + 194 + 252);
  const Inst simd = I(Op::Vabsdiff4, T::U32).type2(T::U32).dsts(1).srcs(3);
  EXPECT_EQ(eval(simd, {0x0403c801u, 0x04ff0605u, 0}), 0x00fcc204u);
  // Signed source bytes (type2): |-128 - 127| = 255; the .s32 destination sign-extends.
  EXPECT_EQ(eval(I(Op::Vabsdiff4, T::U32).type2(T::S32).sub(1).dsts(1).srcs(3),
                 {0x00000080u, 0x0000007fu, 0}),
            255u);
  EXPECT_EQ(eval(I(Op::Vabsdiff4, T::S32).type2(T::U32).sub(1).dsts(1).srcs(3),
                 {0x00000080u, 0x0000007fu, 0x80000000u}),
            s32(int32_t(0x80000001u)));
}

}  // namespace
}  // namespace gpusoc::ptx::test
