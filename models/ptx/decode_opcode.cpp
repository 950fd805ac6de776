#include "models/ptx/decode_opcode.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "models/ptx/types.h"

namespace gpusoc::ptx::detail {
namespace {

struct OpcodeEntry {
  Op op;
  int min_src, max_src;
  uint16_t flags = 0;
};

const std::unordered_map<std::string_view, OpcodeEntry>& opcode_table() {
  static const std::unordered_map<std::string_view, OpcodeEntry> table = {
      {"mov", {Op::Mov, 1, 1}},
      {"add", {Op::Add, 2, 2}},
      {"sub", {Op::Sub, 2, 2}},
      {"mul", {Op::Mul, 2, 2}},
      {"mad", {Op::Mad, 3, 3}},
      {"mul24", {Op::Mul24, 2, 2}},
      {"mad24", {Op::Mad24, 3, 3}},
      {"sad", {Op::Sad, 3, 3}},
      {"fma", {Op::Fma, 3, 3}},
      {"div", {Op::Div, 2, 2}},
      {"rem", {Op::Rem, 2, 2}},
      {"abs", {Op::Abs, 1, 1}},
      {"neg", {Op::Neg, 1, 1}},
      {"min", {Op::Min, 2, 3}},
      {"max", {Op::Max, 2, 3}},
      {"addc", {Op::Add, 2, 2, kCarryIn}},
      {"subc", {Op::Sub, 2, 2, kCarryIn}},
      {"madc", {Op::Mad, 3, 3, kCarryIn}},
      {"setp", {Op::Setp, 2, 3}},
      {"set", {Op::Set, 2, 3}},
      {"selp", {Op::Selp, 3, 3}},
      {"slct", {Op::Slct, 3, 3}},
      {"and", {Op::And, 2, 2}},
      {"or", {Op::Or, 2, 2}},
      {"xor", {Op::Xor, 2, 2}},
      {"not", {Op::Not, 1, 1}},
      {"cnot", {Op::Cnot, 1, 1}},
      {"shl", {Op::Shl, 2, 2}},
      {"shr", {Op::Shr, 2, 2}},
      {"shf", {Op::Shf, 3, 3}},
      {"bfe", {Op::Bfe, 3, 3}},
      {"bfi", {Op::Bfi, 4, 4}},
      {"bfind", {Op::Bfind, 1, 1}},
      {"bmsk", {Op::Bmsk, 2, 2}},
      {"brev", {Op::Brev, 1, 1}},
      {"clz", {Op::Clz, 1, 1}},
      {"popc", {Op::Popc, 1, 1}},
      {"prmt", {Op::Prmt, 3, 3}},
      {"dp4a", {Op::Dp4a, 3, 3}},
      {"dp2a", {Op::Dp2a, 3, 3}},
      {"vabsdiff4", {Op::Vabsdiff4, 3, 3}},
      {"cvt", {Op::Cvt, 1, 2}},
      {"rcp", {Op::Rcp, 1, 1}},
      {"sqrt", {Op::Sqrt, 1, 1}},
      {"rsqrt", {Op::Rsqrt, 1, 1}},
      {"sin", {Op::Sin, 1, 1}},
      {"cos", {Op::Cos, 1, 1}},
      {"ex2", {Op::Ex2, 1, 1}},
      {"lg2", {Op::Lg2, 1, 1}},
      {"tanh", {Op::Tanh, 1, 1}},
      {"copysign", {Op::Copysign, 2, 2}},
      {"testp", {Op::Testp, 1, 1}},
      {"shfl", {Op::Shfl, 4, 4}},
      {"vote", {Op::Vote, 2, 2}},
      {"activemask", {Op::Activemask, 0, 0}},
      {"redux", {Op::Redux, 2, 2}},
      {"match", {Op::Match, 2, 2}},
      {"ld", {Op::Ld, 1, 1}},
      {"ldu", {Op::Ld, 1, 1}},
      {"st", {Op::St, 2, 5}},
      {"atom", {Op::Atom, 2, 3}},
      {"red", {Op::Red, 2, 2}},
      {"cvta", {Op::Cvta, 1, 1}},
      {"prefetch", {Op::Prefetch, 1, 1}},
      {"prefetchu", {Op::Prefetch, 1, 1}},
      {"bra", {Op::Bra, 1, 1}},
      {"call", {Op::Call, 0, 0}},
      {"ret", {Op::Ret, 0, 0}},
      {"exit", {Op::Exit, 0, 0}},
      {"trap", {Op::Trap, 0, 0}},
      {"brkpt", {Op::Trap, 0, 0}},
      {"bar", {Op::BarSync, 1, 3}},
      {"barrier", {Op::BarSync, 1, 3}},
      {"membar", {Op::Membar, 0, 0}},
      {"fence", {Op::Membar, 0, 0}},
      {"nanosleep", {Op::Nanosleep, 1, 1}},
      {"mbarrier", {Op::MbarInit, 1, 3}},
      {"pmevent", {Op::Nop, 1, 1}},
  };
  return table;
}

std::optional<Rounding> parse_rounding(std::string_view w) {
  static const std::unordered_map<std::string_view, Rounding> table = {
      {"rn", Rounding::Rn},   {"rz", Rounding::Rz},   {"rm", Rounding::Rm},
      {"rp", Rounding::Rp},   {"rni", Rounding::Rni}, {"rzi", Rounding::Rzi},
      {"rmi", Rounding::Rmi}, {"rpi", Rounding::Rpi}, {"rna", Rounding::Rna}};
  auto it = table.find(w);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

template <typename E>
std::optional<E> lookup(const std::unordered_map<std::string_view, E>& t, std::string_view w) {
  auto it = t.find(w);
  if (it == t.end()) return std::nullopt;
  return it->second;
}

const std::unordered_map<std::string_view, CmpOp> kCmpOps = {
    {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},
    {"gt", CmpOp::Gt},   {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},
    {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},   {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu},
    {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu}, {"geu", CmpOp::Geu},
    {"num", CmpOp::Num}, {"nan", CmpOp::Nan}};
const std::unordered_map<std::string_view, BoolOp> kBoolOps = {
    {"and", BoolOp::And}, {"or", BoolOp::Or}, {"xor", BoolOp::Xor}};
const std::unordered_map<std::string_view, AtomOp> kAtomOps = {
    {"add", AtomOp::Add},   {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
    {"dec", AtomOp::Dec},   {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
    {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}};
const std::unordered_map<std::string_view, ShflMode> kShflModes = {{"up", ShflMode::Up},
                                                                   {"down", ShflMode::Down},
                                                                   {"bfly", ShflMode::Bfly},
                                                                   {"idx", ShflMode::Idx}};
const std::unordered_map<std::string_view, VoteMode> kVoteModes = {{"all", VoteMode::All},
                                                                   {"any", VoteMode::Any},
                                                                   {"uni", VoteMode::Uni},
                                                                   {"ballot", VoteMode::Ballot}};
const std::unordered_map<std::string_view, MatchMode> kMatchModes = {{"any", MatchMode::Any},
                                                                     {"all", MatchMode::All}};
const std::unordered_map<std::string_view, PrmtMode> kPrmtModes = {
    {"f4e", PrmtMode::F4e}, {"b4e", PrmtMode::B4e}, {"rc8", PrmtMode::Rc8},
    {"ecl", PrmtMode::Ecl}, {"ecr", PrmtMode::Ecr}, {"rc16", PrmtMode::Rc16}};
const std::unordered_map<std::string_view, TestpMode> kTestpModes = {
    {"finite", TestpMode::Finite}, {"infinite", TestpMode::Infinite},
    {"number", TestpMode::Number}, {"notanumber", TestpMode::NotANumber},
    {"normal", TestpMode::Normal}, {"subnormal", TestpMode::Subnormal}};
const std::unordered_map<std::string_view, uint16_t> kFlagWords = {
    {"ftz", kFtz},           {"sat", kSat},
    {"approx", kApprox},     {"full", kFull},
    {"cc", kCarryOut},       {"uni", kUniform},
    {"relu", kRelu},         {"NaN", kNaN},
    {"xorsign", kXorSign},   {"shiftamt", kShiftAmount},
    {"volatile", kVolatile}, {"nc", kNonCoherent}};

// Words that change nothing in a functional model: memory ordering, scopes, cache hints.
bool is_ignored_word(std::string_view w) {
  static const std::unordered_set<std::string_view> words = {
      "relaxed", "acquire", "release", "acq_rel", "sc",      "weak",  "mmio",  "cta",  "gpu",
      "sys",     "cluster", "gl",      "sync",    "aligned", "ca",    "cg",    "cs",   "lu",
      "cv",      "wb",      "wt",      "L2",      "L1",      "proxy", "async", "alias"};
  return words.count(w) != 0 || w.rfind("L1::", 0) == 0 || w.rfind("L2::", 0) == 0 ||
         w.rfind("proxy", 0) == 0;
}

}  // namespace

bool decode_opcode(const ast::Instruction& ai, Inst& in, OpcodeShape& shape, std::string& error) {
  const auto& table = opcode_table();
  auto it = table.find(ai.opcode);
  if (it == table.end()) {
    error = "unsupported instruction '" + ai.opcode + "'";
    return false;
  }
  in.op = it->second.op;
  in.flags = it->second.flags;
  shape.min_src = it->second.min_src;
  shape.max_src = it->second.max_src;
  shape.is_call = in.op == Op::Call;

  ScalarType types[3] = {ScalarType::None, ScalarType::None, ScalarType::None};
  unsigned num_types = 0;
  bool have_mode = false;
  const bool is_setp = in.op == Op::Setp || in.op == Op::Set;
  const bool is_mul =
      in.op == Op::Mul || in.op == Op::Mad || in.op == Op::Mul24 || in.op == Op::Mad24;
  const bool is_atomic = in.op == Op::Atom || in.op == Op::Red || in.op == Op::Redux;
  const bool is_bar = in.op == Op::BarSync;
  const std::string& opc = ai.opcode;

  for (const std::string& word : ai.modifiers) {
    std::string_view w = word;
    auto bad = [&]() {
      error = "unsupported modifier '." + word + "' on '" + opc + "'";
      return false;
    };
    if (auto t = parse_scalar_type(w)) {
      if (num_types == 3) return bad();
      types[num_types++] = *t;
      continue;
    }
    if (auto sp = parse_state_space(w)) {
      in.space = *sp;
      continue;
    }
    if (w.rfind("shared::", 0) == 0) {  // shared::cta is the CTA's own shared memory
      if (w != "shared::cta") return bad();
      in.space = StateSpace::Shared;
      continue;
    }
    if (w.rfind("param::", 0) == 0) {
      in.space = StateSpace::Param;
      continue;
    }
    if (w == "v2" || w == "v4") {
      in.vec = uint8_t(w[1] - '0');
      continue;
    }
    if (w == "to" && in.op == Op::Cvta) {
      in.sub = 1;
      continue;
    }
    if (w == "L2::cache_hint") {
      shape.l2_cache_hint = true;
      continue;
    }
    // Mode words whose meaning depends on the opcode come before the generic flags:
    // "lo" is a comparison for setp and a product half for mul; "and" a combiner or an atomic op.
    if (is_setp) {
      if (auto c = lookup(kCmpOps, w); c && !have_mode) {
        in.sub = uint8_t(*c);
        have_mode = true;
        continue;
      }
      if (auto b = lookup(kBoolOps, w)) {
        in.sub2 = uint8_t(*b);
        continue;
      }
    }
    if ((is_mul || in.op == Op::Dp2a) && (w == "lo" || w == "hi" || w == "wide")) {
      in.sub = uint8_t(w == "lo" ? MulMode::Lo : w == "hi" ? MulMode::Hi : MulMode::Wide);
      continue;
    }
    if (is_atomic) {
      if (auto a = lookup(kAtomOps, w)) {
        in.sub = uint8_t(*a);
        have_mode = true;
        continue;
      }
    }
    if (in.op == Op::Shfl) {
      if (auto m = lookup(kShflModes, w)) {
        in.sub = uint8_t(*m);
        have_mode = true;
        continue;
      }
    }
    if (in.op == Op::Vote) {
      if (auto m = lookup(kVoteModes, w)) {
        in.sub = uint8_t(*m);
        have_mode = true;
        continue;
      }
    }
    if (in.op == Op::Match) {
      if (auto m = lookup(kMatchModes, w)) {
        in.sub = uint8_t(*m);
        have_mode = true;
        continue;
      }
    }
    if (in.op == Op::Prmt) {
      if (auto m = lookup(kPrmtModes, w)) {
        in.sub = uint8_t(*m);
        continue;
      }
    }
    if (in.op == Op::Testp) {
      if (auto m = lookup(kTestpModes, w)) {
        in.sub = uint8_t(*m);
        have_mode = true;
        continue;
      }
    }
    if (in.op == Op::Shf) {
      if (w == "l") {
        in.sub |= kShfLeft;
        continue;
      }
      if (w == "r") {
        continue;
      }
      if (w == "wrap") {
        in.sub |= kShfWrap;
        continue;
      }
      if (w == "clamp") {
        continue;
      }
    }
    if (in.op == Op::Bmsk && (w == "clamp" || w == "wrap")) {
      in.sub = w == "wrap" ? 1 : 0;
      continue;
    }
    if (in.op == Op::Vabsdiff4 && w == "add") {
      in.sub = 1;
      continue;
    }
    if (is_bar) {
      if (w == "sync") continue;
      if (w == "arrive") {
        in.op = Op::BarArrive;
        continue;
      }
      if (w == "red") {
        in.op = Op::BarRed;
        continue;
      }
      if (w == "warp") {
        in.op = Op::BarWarpSync;
        continue;
      }
      if (w == "popc") {
        in.sub = uint8_t(BarRedOp::Popc);
        continue;
      }
      if (w == "and") {
        in.sub = uint8_t(BarRedOp::And);
        continue;
      }
      if (w == "or") {
        in.sub = uint8_t(BarRedOp::Or);
        continue;
      }
    }
    if (in.op == Op::MbarInit || in.op == Op::MbarArrive || in.op == Op::MbarTestWait) {
      if (w == "init") {
        in.op = Op::MbarInit;
        continue;
      }
      if (w == "arrive") {
        in.op = Op::MbarArrive;
        continue;
      }
      if (w == "test_wait") {
        in.op = Op::MbarTestWait;
        continue;
      }
      if (w == "try_wait") {
        in.op = Op::MbarTestWait;
        shape.is_mbarrier_try = true;
        continue;
      }
      if (w == "parity") return bad();
    }
    if (in.op == Op::Min || in.op == Op::Max || in.op == Op::Redux) {
      if (w == "abs") {
        in.flags |= kAbsInput;
        continue;
      }
    }
    if (auto f = lookup(kFlagWords, w)) {
      in.flags |= *f;
      continue;
    }
    if (auto r = parse_rounding(w)) {
      in.rounding = *r;
      continue;
    }
    if (is_ignored_word(w)) continue;
    return bad();
  }

  in.type = types[0];
  in.type2 = types[1];
  switch (in.op) {
    case Op::Cvt:
      if (num_types != 2) {
        error = "cvt needs a destination and a source type";
        return false;
      }
      break;
    case Op::Set:
      if (num_types != 2) {
        error = "set needs a destination and a source type";
        return false;
      }
      break;
    case Op::Slct:
      if (num_types != 2) {
        error = "slct needs a value type and a selector type";
        return false;
      }
      break;
    case Op::Dp4a:
    case Op::Dp2a:
      if (num_types != 2) {
        error = opc + " needs two source types";
        return false;
      }
      break;
    case Op::Vabsdiff4:
      if (num_types != 3) {
        error = "vabsdiff4 needs three types";
        return false;
      }
      in.type2 = types[1];
      break;
    case Op::Setp:
    case Op::Testp:
    case Op::Shfl:
    case Op::Vote:
    case Op::Match:
      if (!have_mode) {
        error = "'" + opc + "' is missing its mode";
        return false;
      }
      [[fallthrough]];
    default:
      if (num_types > 1) {
        error = "'" + opc + "' takes one type, got " + std::to_string(num_types);
        return false;
      }
  }
  if ((in.op == Op::Atom || in.op == Op::Red) && !have_mode) {
    error = "'" + opc + "' is missing its operation (.add, .cas, ...)";
    return false;
  }
  if (in.op == Op::Atom && in.sub == uint8_t(AtomOp::Cas)) shape.min_src = shape.max_src = 3;
  if (in.op == Op::Atom && in.sub != uint8_t(AtomOp::Cas)) shape.max_src = 2;
  if (in.op == Op::St) shape.min_src = shape.max_src = 1 + in.vec;
  if (in.op == Op::MbarTestWait) shape.max_src = shape.is_mbarrier_try ? 3 : 2;
  if (in.op == Op::BarWarpSync) shape.min_src = shape.max_src = 1;
  return true;
}

}  // namespace gpusoc::ptx::detail
