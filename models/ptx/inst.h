// The decoded form of a PTX instruction: what the executor runs. Built once at module load
// (decoder.h); no strings, no lookups on the execution path.
#pragma once

#include <cstddef>
#include <cstdint>

#include "models/ptx/types.h"

namespace gpusoc::ptx {

constexpr unsigned kWarpSize = 32;
using LaneMask = uint32_t;
constexpr LaneMask kFullMask = 0xffffffffu;
constexpr uint32_t kNoReg = 0xffffffffu;
/// Register 0 of every function frame holds the per-lane carry flag of add.cc/addc and friends.
constexpr uint32_t kCarryReg = 0;

enum class Op : uint8_t {
  // ALU, conversion and warp-level ops: executed by the handler in Inst::exec (semantics/).
  Mov,
  Pack,
  Unpack,
  Add,
  Sub,
  Mul,
  Mad,
  Mul24,
  Mad24,
  Sad,
  Fma,
  Div,
  Rem,
  Abs,
  Neg,
  Min,
  Max,
  Setp,
  Set,
  Selp,
  Slct,
  And,
  Or,
  Xor,
  Not,
  Cnot,
  Shl,
  Shr,
  Shf,
  Bfe,
  Bfi,
  Bfind,
  Bmsk,
  Brev,
  Clz,
  Popc,
  Prmt,
  Dp4a,
  Dp2a,
  Vabsdiff4,
  Cvt,
  Rcp,
  Sqrt,
  Rsqrt,
  Sin,
  Cos,
  Ex2,
  Lg2,
  Tanh,
  Copysign,
  Testp,
  Shfl,
  Vote,
  Activemask,
  Redux,
  Match,
  // Memory, control and synchronization: executed by the warp itself (core/).
  Ld,
  St,
  Atom,
  Red,
  // Texture and surface instructions (warp_texture.cpp): operands after the destinations are the
  // object (a handle register or immediate), then the coordinate vector, then sust/sured values.
  Tex,
  Tld4,
  Txq,
  Suld,
  Sust,
  Sured,
  Suq,
  Cvta,
  MovAddr,
  ReadClock,
  Prefetch,
  Bra,
  Call,
  Ret,
  Exit,
  Trap,
  BarSync,
  BarArrive,
  BarRed,
  BarWarpSync,
  Membar,
  Nanosleep,
  MbarInit,
  MbarArrive,
  MbarTestWait,
  Vprintf,
  Nop,
};

/// tex, tld4, txq, suld, sust, sured, suq (contiguous in Op).
constexpr bool is_texture_op(Op op) { return op >= Op::Tex && op <= Op::Suq; }
/// suld, sust, sured, suq: the ones that take surface objects.
constexpr bool is_surface_op(Op op) { return op >= Op::Suld && op <= Op::Suq; }

/// Rounding modifier; None means the instruction's default.
enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rna };

// Inst::sub for Setp/Set (comparison)
enum class CmpOp : uint8_t {
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Lo,
  Ls,
  Hi,
  Hs,
  Equ,
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,
  Num,
  Nan
};
// Inst::sub2 for Setp/Set (combining with the c operand); Inst::sub for BarRed and Redux/Atom logic
enum class BoolOp : uint8_t { None, And, Or, Xor };
// Inst::sub for Mul/Mad/Mul24/Mad24
enum class MulMode : uint8_t { None, Lo, Hi, Wide };
// Inst::sub for Atom/Red/Redux
enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
// Inst::sub for Shfl
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
// Inst::sub for Vote
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
// Inst::sub for Match
enum class MatchMode : uint8_t { Any, All };
// Inst::sub for Prmt (None = default byte selection)
enum class PrmtMode : uint8_t { None, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
// Inst::sub for Testp
enum class TestpMode : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };
// Inst::sub for Shf: bit 0 = left (else right), bit 1 = wrap (else clamp)
enum ShfBits : uint8_t { kShfLeft = 1, kShfWrap = 2 };
// Inst::sub for Tex/Tld4/Suld/Sust/Sured: tex::Geometry; for Txq/Suq: tex::Query.
// Inst::sub2 for the texture and surface instructions:
enum TexBits : uint8_t {
  kTexComponentMask = 3,  // tld4: the channel gathered, .r .g .b .a
  kTexBoundaryShift = 2,  // suld/sust/sured: tex::Boundary in bits 2-3
  kTexFormatted = 1 << 4, // sust.p: values converted to the surface's format
};
// Inst::target for Sured: the AtomOp.
// Inst::sub for Cvta: 1 for cvta.to.<space> (generic to space), 0 for <space> to generic.
// Inst::sub for Trap: 1 when it is a failed assert() (__assertfail), 0 for trap/brkpt.
// Inst::sub for BarRed: Popc, And, Or
enum class BarRedOp : uint8_t { Popc, And, Or };

/// Inst::flags
enum InstFlag : uint16_t {
  kFtz = 1 << 0,
  kSat = 1 << 1,
  kApprox = 1 << 2,        // .approx (and div.full, which is approximate too)
  kCarryOut = 1 << 3,      // .cc: write the carry flag
  kCarryIn = 1 << 4,       // addc/subc/madc: read the carry flag
  kVolatile = 1 << 5,      // ld/st .volatile or .relaxed/.acquire/.release: ordering only
  kUniform = 1 << 6,       // bra.uni / call.uni: the compiler promises no divergence
  kFull = 1 << 7,          // div.full.f32
  kNonCoherent = 1 << 8,   // ld.global.nc
  kRelu = 1 << 9,          // cvt .relu / min.relu / max.relu
  kNaN = 1 << 10,          // min.NaN / max.NaN: propagate NaN
  kXorSign = 1 << 11,      // min.xorsign.abs / max.xorsign.abs
  kAbsInput = 1 << 12,     // .abs on min/max with xorsign
  kShiftAmount = 1 << 13,  // bfind.shiftamt
  kPredOut = 1 << 14,      // shfl / setp / etc. wrote a second (predicate) destination
};

/// How an instruction occupies the machine; the timed SMs charge costs by this class.
enum class InstClass : uint8_t {
  Int,
  IntMultiply,  // integer mul, mad, mul24, mad24: IMAD, which may run slower than an add
  Fp32,
  Fp64,
  Sfu,
  Conversion,
  Move,
  Memory,
  Control,
  Sync,
  WarpLevel,
  Texture,  // tex, tld4, txq, suld, sust, sured, suq: the texture unit's
};
constexpr size_t kNumInstClasses = size_t(InstClass::Texture) + 1;

/// What an address operand's offset is relative to, when it names a symbol whose place is only
/// known while running.
enum class AddrBase : uint8_t {
  Absolute,       // the offset is the address in the instruction's state space
  Frame,          // local space: the current function frame's base (depots, .func params)
  DynamicShared,  // shared space: the start of the CTA's dynamic shared memory (extern .shared)
};

struct Operand {
  enum class Kind : uint8_t { None, Reg, Imm, Addr };
  Kind kind = Kind::None;
  bool negate = false;                 // !%p on a predicate source
  AddrBase base = AddrBase::Absolute;  // Addr only
  uint32_t reg = kNoReg;               // Reg: register index; Addr: base register or kNoReg
  uint64_t imm = 0;  // Imm: the value's bits (already in the instruction's type); Addr: offset
};

// tex.a2d.v4 with a residency predicate takes 5 destinations, the texture and 4 coordinates.
constexpr unsigned kMaxOperands = 12;

struct ExecContext;
struct Inst;
using ExecFn = void (*)(const Inst& in, ExecContext& ctx);

/// One decoded instruction. Operand layout: destinations first, then sources, in PTX order,
/// vector operands flattened (ld.v4: 4 destinations then the address; st.v4: the address then
/// 4 sources). A predicate pair `d|p` gives two destinations and sets kPredOut.
struct Inst {
  ExecFn exec = nullptr;  // ALU/conversion/warp-level handler; null for ops the warp runs
  Op op = Op::Nop;
  InstClass cls = InstClass::Int;
  ScalarType type = ScalarType::None;   // the instruction type (cvt: destination type)
  ScalarType type2 = ScalarType::None;  // cvt: source type; set: source type (type = dest type)
  uint8_t sub = 0;                      // op-specific mode, see the enums above
  uint8_t sub2 = 0;                     // op-specific second mode (Setp/Set: BoolOp)
  Rounding rounding = Rounding::None;
  uint16_t flags = 0;
  StateSpace space = StateSpace::None;  // ld/st/atom/red/cvta/prefetch
  uint8_t vec = 1;                      // vector width of ld/st
  uint8_t num_dst = 0, num_src = 0;
  bool guard_negated = false;
  uint32_t guard = kNoReg;  // predicate register guarding the instruction
  uint32_t target = 0;      // Bra: target pc; Call: callee function index
  uint32_t reconverge = 0;  // Bra: immediate post-dominator pc (SIMT reconvergence point)
  uint32_t line = 0;        // PTX source line, for error messages
  Operand ops[kMaxOperands];

  const Operand& dst(unsigned i = 0) const { return ops[i]; }
  const Operand& src(unsigned i) const { return ops[num_dst + i]; }
};

// Register values: every register is a 64-bit slot. Reads take the low bits of the operand's
// type; writes store the result zero-extended (unsigned, bit and float types) or sign-extended
// (signed types) to 64 bits, so a narrower load into a wider register reads back correctly.
// Predicates are 0 or 1. Immediates are decoded to bits: integer literals as sign-extended
// 64-bit values, float literals converted to the float type of the operand they feed.

/// What an ALU handler sees: the warp's registers for the current function frame, and masks.
struct ExecContext {
  uint64_t* regs = nullptr;  // register r of lane l is regs[r * kWarpSize + l]
  LaneMask exec = 0;         // lanes that execute: active and guard true
  LaneMask active = 0;       // lanes active in the warp now (membership of shfl/vote/redux/match)
};

inline uint64_t& reg_ref(ExecContext& c, uint32_t reg, unsigned lane) {
  return c.regs[size_t(reg) * kWarpSize + lane];
}
/// Raw 64-bit source value; narrower types are read from the low bits.
inline uint64_t read_bits(const ExecContext& c, const Operand& o, unsigned lane) {
  return o.kind == Operand::Kind::Reg ? c.regs[size_t(o.reg) * kWarpSize + lane] : o.imm;
}
inline bool read_pred(const ExecContext& c, const Operand& o, unsigned lane) {
  return ((read_bits(c, o, lane) & 1) != 0) != o.negate;
}

}  // namespace gpusoc::ptx
