// select_handler's rejections (with their explanations) and classify().
#include <vector>

#include "harness.h"

namespace gpusoc::ptx::test {
namespace {

using T = ScalarType;

TEST(Select, RejectsUndefinedCombinationsWithAReason) {
  EXPECT_EQ(rejection(I(Op::Add, T::U32).flags(kSat).dsts(1).srcs(2)),
            "add.u32: .sat is only defined for .s32");
  EXPECT_EQ(rejection(I(Op::Cvt, T::F32).type2(T::F16).rnd(Rounding::Rz).dsts(1).srcs(1)),
            "cvt.f32.f16: a widening conversion is exact and takes no rounding (got .rz)");
  EXPECT_EQ(rejection(I(Op::Cvt, T::S32).type2(T::F32).rnd(Rounding::Rn).dsts(1).srcs(1)),
            "cvt.s32.f32: float-to-integer conversions round with .rni/.rzi/.rmi/.rpi (got .rn)");
  EXPECT_EQ(rejection(I(Op::Cvt, T::F32).type2(T::S32).rnd(Rounding::Rni).dsts(1).srcs(1)),
            "cvt.f32.s32: integer-to-float conversions round with .rn/.rz/.rm/.rp (got .rni)");
  EXPECT_EQ(rejection(I(Op::Cvt, T::F32).type2(T::F32).rnd(Rounding::Rn).dsts(1).srcs(1)),
            "cvt.f32.f32: same-type conversions only round to integers (got .rn)");
  EXPECT_EQ(rejection(I(Op::Cvt, T::F16).type2(T::F32).rnd(Rounding::Rni).dsts(1).srcs(1)),
            "cvt.f16.f32: narrowing conversions round with .rn/.rz/.rm/.rp (got .rni)");
  EXPECT_EQ(rejection(I(Op::Cvt, T::S32).type2(T::U32).rnd(Rounding::Rz).dsts(1).srcs(1)),
            "cvt.s32.u32: integer conversions take no rounding (got .rz)");
  EXPECT_EQ(rejection(I(Op::Cvt, T::F32).type2(T::F16).flags(kRelu).dsts(1).srcs(1)),
            "cvt.f32.f16: .relu needs an f16 or bf16 destination");
  EXPECT_EQ(rejection(I(Op::Cvt, T::F64).type2(T::S32).flags(kFtz).dsts(1).srcs(1)),
            "cvt.f64.s32: .ftz needs an .f32 source or destination");
  EXPECT_EQ(rejection(I(Op::Cvt, T::F16x2).type2(T::F64).dsts(1).srcs(2)),
            "cvt.f16x2.f64: the x2 forms convert from .f32");
  EXPECT_EQ(rejection(I(Op::Mul, T::U64).mode(MulMode::Wide).dsts(1).srcs(2)),
            "mul.u64: .wide is only defined for 16- and 32-bit types");
  EXPECT_EQ(rejection(I(Op::Add, T::U16).flags(kCarryOut).dsts(1).srcs(2)),
            "add.u16: carry is only defined for 32- and 64-bit types");
  EXPECT_EQ(rejection(I(Op::Mad, T::S32).mode(MulMode::Lo).flags(kSat).dsts(1).srcs(3)),
            "mad.s32: .sat is only defined for mad.hi.s32");
  EXPECT_EQ(rejection(I(Op::Div, T::F64).flags(kApprox).dsts(1).srcs(2)),
            "div.f64: .approx is not allowed here");
  EXPECT_EQ(rejection(I(Op::Add, T::F32).rnd(Rounding::Rzi).dsts(1).srcs(2)),
            "add.f32: rounding .rzi is not allowed");
  EXPECT_EQ(rejection(I(Op::Add, T::S32).rnd(Rounding::Rn).dsts(1).srcs(2)),
            "add.s32: rounding .rn is not allowed");
  EXPECT_EQ(rejection(I(Op::Add, T::F64).flags(kFtz).dsts(1).srcs(2)),
            "add.f64: .ftz is not allowed here");
  EXPECT_EQ(rejection(I(Op::Sqrt, T::F64).flags(kApprox).dsts(1).srcs(1)),
            "sqrt.f64: .approx is only defined as rcp.approx.ftz.f64 for .f64");
  EXPECT_EQ(rejection(I(Op::Sin, T::F64).flags(kApprox).dsts(1).srcs(1)), "sin.f64: needs .f32");
  EXPECT_EQ(rejection(I(Op::Setp, T::F32).mode(CmpOp::Lo).dsts(1).srcs(2)),
            "setp.f32: lo/ls/hi/hs compare integers only");
  EXPECT_EQ(rejection(I(Op::Setp, T::S32).mode(CmpOp::Equ).dsts(1).srcs(2)),
            "setp.s32: unordered comparisons compare floating point only");
  EXPECT_EQ(rejection(I(Op::Shf, T::B64).dsts(1).srcs(3)), "shf.b64: only .b32 is defined");
  EXPECT_EQ(rejection(I(Op::Bfe, T::U16).dsts(1).srcs(3)),
            "bfe.u16: only 32- and 64-bit types are defined");
  EXPECT_EQ(rejection(I(Op::Shfl, T::B64).mode(ShflMode::Idx).dsts(1).srcs(4)),
            "shfl.sync.b64: only .b32 is defined");
  EXPECT_EQ(rejection(I(Op::Min, T::F32).flags(kXorSign).dsts(1).srcs(2)),
            "min.f32: .xorsign needs .abs and two sources");
  EXPECT_EQ(rejection(I(Op::Fma, T::S32).dsts(1).srcs(3)), "fma.s32: needs .f32 or .f64");
  EXPECT_EQ(rejection(I(Op::Abs, T::U32).dsts(1).srcs(1)),
            "abs.u32: only signed types are defined");
  EXPECT_EQ(rejection(I(Op::Add, T::S32).dsts(1).srcs(1)),
            "add.s32: expects 1 register destination(s) and 2 register or immediate source(s)");
  EXPECT_EQ(rejection(I(Op::Redux, T::F32).mode(AtomOp::Add).dsts(1).srcs(2)),
            "redux.sync.f32: only .min and .max are defined for .f32");
  EXPECT_EQ(rejection(I(Op::Pack, T::B64).type2(T::B16).dsts(1).srcs(2)),
            "mov.b64: cannot be split into 2 elements of .b16");
  EXPECT_EQ(rejection(I(Op::Ld, T::U32)), "op is not an ALU, conversion or warp-level instruction");
}

/// One representative of each family, with operands in registers 1.. and destinations 8, 9.
const std::vector<Inst>& common_forms() {
  static const std::vector<Inst> forms = {
      I(Op::Add, T::S32).flags(kSat).dsts(1).srcs(2),
      I(Op::Add, T::U64).flags(kCarryIn | kCarryOut).dsts(1).srcs(2),
      I(Op::Mad, T::U64).mode(MulMode::Hi).flags(kCarryIn).dsts(1).srcs(3),
      I(Op::Div, T::S32).dsts(1).srcs(2),
      I(Op::Div, T::F32).flags(kFull | kFtz).dsts(1).srcs(2),
      I(Op::Fma, T::F64).rnd(Rounding::Rm).dsts(1).srcs(3),
      I(Op::Rcp, T::F64).flags(kApprox | kFtz).dsts(1).srcs(1),
      I(Op::Sin, T::F32).flags(kApprox).dsts(1).srcs(1),
      I(Op::Cvt, T::S32).type2(T::F64).dsts(1).srcs(1),
      I(Op::Cvt, T::BF16x2).type2(T::F32).rnd(Rounding::Rn).flags(kRelu).dsts(1).srcs(2),
      I(Op::Ex2, T::BF16x2).flags(kApprox | kFtz).dsts(1).srcs(1),
      I(Op::Fma, T::F16x2).rnd(Rounding::Rn).dsts(1).srcs(3),
      I(Op::Setp, T::F16x2).mode(CmpOp::Geu).dsts(2).srcs(2),
      I(Op::Setp, T::S32).mode(CmpOp::Lt).sub2(uint8_t(BoolOp::Or)).dsts(2).srcs(3),
      I(Op::Selp, T::F64).dsts(1).srcs(3),
      I(Op::Bfe, T::S64).dsts(1).srcs(3),
      I(Op::Prmt, T::B32).mode(PrmtMode::Ecl).dsts(1).srcs(3),
      I(Op::Unpack, T::B64).type2(T::B32).dst_reg(kDst).dst_reg(kDst2).srcs(1),
      I(Op::Shfl, T::B32).mode(ShflMode::Bfly).dsts(2).srcs(4),
      I(Op::Vote, T::B32).mode(VoteMode::Ballot).dsts(1).srcs(2),
      I(Op::Redux, T::S32).mode(AtomOp::Max).dsts(1).srcs(2),
      I(Op::Match, T::B64).mode(MatchMode::All).dsts(2).srcs(2),
      I(Op::Activemask, T::B32).dsts(1)};
  return forms;
}

TEST(Select, AcceptsTheCommonForms) {
  for (const Inst& in : common_forms()) EXPECT_NE(handler(in), nullptr);
}

TEST(Select, LanesOutsideExecAreNeverWritten) {
  for (size_t i = 0; i < common_forms().size(); ++i) {
    Warp w;
    w.ctx.exec = 0x0f0f0f0fu;
    w.ctx.active = 0x0fff0fffu;
    run(common_forms()[i], w);
    for (uint32_t r = 0; r < kNumRegs; ++r) {
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!((w.ctx.exec >> l) & 1)) {
          EXPECT_EQ(w.at(r, l), kPoison) << "form " << i << " r" << r;
        }
      }
    }
  }
}

TEST(Select, Classify) {
  EXPECT_EQ(classify(I(Op::Add, T::S32)), InstClass::Int);
  EXPECT_EQ(classify(I(Op::Add, T::F32)), InstClass::Fp32);
  EXPECT_EQ(classify(I(Op::Fma, T::F64)), InstClass::Fp64);
  EXPECT_EQ(classify(I(Op::Add, T::F16x2)), InstClass::Fp32);
  EXPECT_EQ(classify(I(Op::Sin, T::F32)), InstClass::Sfu);
  EXPECT_EQ(classify(I(Op::Rcp, T::F32).flags(kApprox)), InstClass::Sfu);
  EXPECT_EQ(classify(I(Op::Rcp, T::F32).rnd(Rounding::Rn)), InstClass::Fp32);
  EXPECT_EQ(classify(I(Op::Sqrt, T::F64).rnd(Rounding::Rn)), InstClass::Fp64);
  EXPECT_EQ(classify(I(Op::Cvt, T::F32).type2(T::S32)), InstClass::Conversion);
  EXPECT_EQ(classify(I(Op::Pack, T::B64)), InstClass::Move);
  EXPECT_EQ(classify(I(Op::Mov, T::U32)), InstClass::Move);
  EXPECT_EQ(classify(I(Op::Shfl, T::B32)), InstClass::WarpLevel);
  EXPECT_EQ(classify(I(Op::Vote, T::Pred)), InstClass::WarpLevel);
  EXPECT_EQ(classify(I(Op::Set, T::U32).type2(T::F64)), InstClass::Fp64);
  EXPECT_EQ(classify(I(Op::Setp, T::F32)), InstClass::Fp32);
  EXPECT_EQ(classify(I(Op::Selp, T::F32)), InstClass::Int);
  EXPECT_EQ(classify(I(Op::Popc, T::B32)), InstClass::Int);
  // Integer multiplies are IMAD, whatever their width; float ones stay FMA-pipe work.
  EXPECT_EQ(classify(I(Op::Mul, T::S32)), InstClass::IntMultiply);
  EXPECT_EQ(classify(I(Op::Mad, T::U64)), InstClass::IntMultiply);
  EXPECT_EQ(classify(I(Op::Mul24, T::S32)), InstClass::IntMultiply);
  EXPECT_EQ(classify(I(Op::Mad24, T::U32)), InstClass::IntMultiply);
  EXPECT_EQ(classify(I(Op::Mul, T::F32)), InstClass::Fp32);
  EXPECT_EQ(classify(I(Op::Mad, T::F64)), InstClass::Fp64);
  EXPECT_EQ(classify(I(Op::Sub, T::S32)), InstClass::Int);
}

}  // namespace
}  // namespace gpusoc::ptx::test
