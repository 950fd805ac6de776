// select_handler() and classify(): route an instruction to its family, and the shared helpers
// that explain a rejection.
#include <iterator>

#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/lanes.h"
#include "models/ptx/semantics/semantics.h"

namespace gpusoc::ptx {
namespace sem {
namespace {

// Spellings for messages, indexed by enum value (local: the front end's to_string need not be
// linked into the executor).
constexpr const char* kOpNames[] = {
    "mov",      "mov",   "mov",       "add",       "sub",        "mul",        "mad",
    "mul24",    "mad24", "sad",       "fma",       "div",        "rem",        "abs",
    "neg",      "min",   "max",       "setp",      "set",        "selp",       "slct",
    "and",      "or",    "xor",       "not",       "cnot",       "shl",        "shr",
    "shf",      "bfe",   "bfi",       "bfind",     "bmsk",       "brev",       "clz",
    "popc",     "prmt",  "dp4a",      "dp2a",      "vabsdiff4",  "cvt",        "rcp",
    "sqrt",     "rsqrt", "sin",       "cos",       "ex2",        "lg2",        "tanh",
    "copysign", "testp", "shfl.sync", "vote.sync", "activemask", "redux.sync", "match.sync"};
static_assert(sizeof(kOpNames) / sizeof(kOpNames[0]) == size_t(Op::Match) + 1);

constexpr const char* kTypeSuffixes[] = {
    "",     ".b8",  ".b16", ".b32", ".b64",   ".b128", ".u8",     ".u16", ".u32", ".u64", ".s8",
    ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64", ".pred"};
static_assert(sizeof(kTypeSuffixes) / sizeof(kTypeSuffixes[0]) == size_t(ScalarType::Pred) + 1);

constexpr const char* kRoundingSuffixes[] = {"",     ".rn",  ".rz",  ".rm",  ".rp",
                                             ".rni", ".rzi", ".rmi", ".rpi", ".rna"};

constexpr const char* kFlagNames[] = {
    ".ftz",      ".sat",     ".approx", ".cc",       "carry-in (addc/subc/madc)",
    ".volatile", ".uni",     ".full",   ".nc",       ".relu",
    ".NaN",      ".xorsign", ".abs",    ".shiftamt", "a predicate destination"};

}  // namespace

const char* type_suffix(ScalarType t) {
  return size_t(t) < std::size(kTypeSuffixes) ? kTypeSuffixes[size_t(t)] : ".?";
}

const char* rounding_suffix(Rounding r) {
  return size_t(r) < std::size(kRoundingSuffixes) ? kRoundingSuffixes[size_t(r)] : ".?";
}

std::string inst_name(const Inst& in) {
  std::string name = in.op <= Op::Match ? kOpNames[size_t(in.op)] : "op";
  name += type_suffix(in.type);
  if (in.op == Op::Cvt || in.op == Op::Set) name += type_suffix(in.type2);
  return name;
}

ExecFn reject(std::string& why, const Inst& in, const std::string& reason) {
  why = inst_name(in) + ": " + reason;
  return nullptr;
}

bool flags_allowed(const Inst& in, uint16_t allowed, std::string& why) {
  const uint16_t extra = in.flags & uint16_t(~allowed);
  if (extra == 0) return true;
  const unsigned bit = unsigned(__builtin_ctz(extra));
  reject(why, in,
         std::string(bit < std::size(kFlagNames) ? kFlagNames[bit] : "an unknown modifier") +
             " is not allowed here");
  return false;
}

bool no_rounding(const Inst& in, std::string& why) {
  if (in.rounding == Rounding::None) return true;
  reject(why, in, std::string("rounding ") + rounding_suffix(in.rounding) + " is not allowed");
  return false;
}

bool ieee_rounding(const Inst& in, std::string& why) {
  if (in.rounding == Rounding::None ||
      (in.rounding >= Rounding::Rn && in.rounding <= Rounding::Rp)) {
    return true;
  }
  reject(why, in, std::string("rounding ") + rounding_suffix(in.rounding) + " is not allowed");
  return false;
}

bool operands_are(const Inst& in, unsigned dst, unsigned src, std::string& why) {
  bool ok = in.num_dst == dst && in.num_src == src;
  for (unsigned i = 0; ok && i < dst; ++i) ok = in.dst(i).kind == Operand::Kind::Reg;
  for (unsigned i = 0; ok && i < src; ++i) {
    ok = in.src(i).kind == Operand::Kind::Reg || in.src(i).kind == Operand::Kind::Imm;
  }
  if (!ok) {
    reject(why, in,
           "expects " + std::to_string(dst) + " register destination(s) and " +
               std::to_string(src) + " register or immediate source(s)");
  }
  return ok;
}

}  // namespace sem

ExecFn select_handler(const Inst& in, std::string& why_not) {
  using namespace sem;
  why_not.clear();
  ExecFn fn = nullptr;
  switch (in.op) {
    case Op::Mov:
    case Op::Pack:
    case Op::Unpack:
    case Op::Cvt:
      fn = select_convert(in, why_not);
      break;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Mad:
    case Op::Div:
    case Op::Abs:
    case Op::Neg:
    case Op::Min:
    case Op::Max:
    case Op::Fma:
      if (is_half_type(in.type)) {
        fn = select_half(in, why_not);
      } else if (is_float_type(in.type) || in.op == Op::Fma) {
        fn = select_float(in, why_not);
      } else {
        fn = select_integer(in, why_not);
      }
      break;
    case Op::Mul24:
    case Op::Mad24:
    case Op::Sad:
    case Op::Rem:
      fn = select_integer(in, why_not);
      break;
    case Op::Setp:
    case Op::Set:
    case Op::Selp:
    case Op::Slct:
      fn = select_compare(in, why_not);
      break;
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Not:
    case Op::Cnot:
    case Op::Shl:
    case Op::Shr:
    case Op::Shf:
    case Op::Bfe:
    case Op::Bfi:
    case Op::Bfind:
    case Op::Bmsk:
    case Op::Brev:
    case Op::Clz:
    case Op::Popc:
    case Op::Prmt:
    case Op::Dp4a:
    case Op::Dp2a:
    case Op::Vabsdiff4:
      fn = select_bits(in, why_not);
      break;
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Sin:
    case Op::Cos:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Tanh:
    case Op::Copysign:
    case Op::Testp:
      fn = select_sfu(in, why_not);
      break;
    case Op::Shfl:
    case Op::Vote:
    case Op::Activemask:
    case Op::Redux:
    case Op::Match:
      fn = select_warp_level(in, why_not);
      break;
    default:
      why_not = "op is not an ALU, conversion or warp-level instruction";
      return nullptr;
  }
  if (fn == nullptr && why_not.empty()) why_not = inst_name(in) + ": not supported";
  return fn;
}

InstClass classify(const Inst& in) {
  using sem::is_float_type;
  switch (in.op) {
    case Op::Mov:
    case Op::Pack:
    case Op::Unpack:
      return InstClass::Move;
    case Op::Cvt:
      return InstClass::Conversion;
    case Op::Shfl:
    case Op::Vote:
    case Op::Activemask:
    case Op::Redux:
    case Op::Match:
      return InstClass::WarpLevel;
    case Op::Sin:
    case Op::Cos:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Tanh:
    case Op::Rsqrt:
      return InstClass::Sfu;
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Div:
      // The approximate f32 forms are one MUFU operation; the IEEE forms are FMA sequences.
      if ((in.flags & (kApprox | kFull)) && in.type == ScalarType::F32) return InstClass::Sfu;
      break;
    case Op::Selp:
    case Op::Slct:
      return InstClass::Int;
    default:
      break;
  }
  const ScalarType t = in.op == Op::Set ? in.type2 : in.type;
  if (t == ScalarType::F64) return InstClass::Fp64;
  if (is_float_type(t)) return InstClass::Fp32;
  const bool multiply =
      in.op == Op::Mul || in.op == Op::Mad || in.op == Op::Mul24 || in.op == Op::Mad24;
  return multiply ? InstClass::IntMultiply : InstClass::Int;
}

}  // namespace gpusoc::ptx
