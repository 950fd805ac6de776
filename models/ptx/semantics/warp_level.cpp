// Warp-level instructions: shfl.sync, vote.sync, activemask, redux.sync, match.sync. Values
// other lanes supply are read for the whole warp before any lane writes its destination, so a
// destination that is also the source register is handled correctly. Participants are the lanes
// in both membermask and ctx.active; lanes outside ctx.active supply their current register value
// where a shuffle names them (undefined in PTX).
#include <limits>

#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/fp.h"

namespace gpusoc::ptx::sem {
namespace {

template <class T>
void snapshot(const ExecContext& ctx, const Operand& o, T (&v)[kWarpSize]) {
  const Src src(ctx, o);
  for (unsigned l = 0; l < kWarpSize; ++l) v[l] = src.get<T>(l);
}

// shfl.sync d[|p], a, b, c, membermask: the PTX ISA pseudo-code, with c = segmask << 8 | clamp.
template <ShflMode M>
void shfl(const Inst& in, ExecContext& ctx) {
  uint32_t value[kWarpSize];
  snapshot(ctx, in.src(0), value);
  const bool with_pred = in.flags & kPredOut;
  const Src b(ctx, in.src(1)), c_op(ctx, in.src(2));
  const Dst d(ctx, in.dst(0)), p(ctx, in.dst(with_pred ? 1 : 0));
  for_each_lane(ctx.exec, [&](unsigned lane) {
    const uint32_t bval = b.get<uint32_t>(lane) & 31;
    const uint32_t c = c_op.get<uint32_t>(lane);
    const uint32_t cval = c & 31, segmask = (c >> 8) & 31;
    const int max_lane = int((lane & segmask) | (cval & ~segmask));
    const int min_lane = int(lane & segmask);
    int j = 0;
    bool pval = false;
    switch (M) {
      case ShflMode::Up:
        j = int(lane) - int(bval);
        pval = j >= max_lane;
        break;
      case ShflMode::Down:
        j = int(lane + bval);
        pval = j <= max_lane;
        break;
      case ShflMode::Bfly:
        j = int(lane ^ bval);
        pval = j <= max_lane;
        break;
      case ShflMode::Idx:
        j = min_lane | int(bval & ~segmask);
        pval = j <= max_lane;
        break;
    }
    d.put(lane, value[pval ? unsigned(j) : lane]);
    if (with_pred) p.put(lane, pval);
  });
}

template <VoteMode M>
void vote(const Inst& in, ExecContext& ctx) {
  const Src a(ctx, in.src(0)), member_mask(ctx, in.src(1));
  const Dst d(ctx, in.dst(0));
  LaneMask ballot = 0;
  for_each_lane(ctx.active, [&](unsigned l) {
    if (a.get<bool>(l)) ballot |= LaneMask(1) << l;
  });
  for_each_lane(ctx.exec, [&](unsigned l) {
    const LaneMask members = member_mask.get<uint32_t>(l) & ctx.active;
    const LaneMask set = ballot & members;
    switch (M) {
      case VoteMode::All:
        d.put(l, set == members);
        break;
      case VoteMode::Any:
        d.put(l, set != 0);
        break;
      case VoteMode::Uni:
        d.put(l, set == 0 || set == members);
        break;
      case VoteMode::Ballot:
        d.put(l, uint32_t(set));
        break;
    }
  });
}

void activemask(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  for_each_lane(ctx.exec, [&](unsigned l) { d.put(l, uint32_t(ctx.active)); });
}

/// Reduction over the lanes of `members`: integer add (mod 2^32), min, max, and, or, xor, and
/// f32 min/max (with .abs and .NaN; -0 < +0).
template <class T, AtomOp O>
T reduce(const T (&v)[kWarpSize], LaneMask members, bool abs, bool nan) {
  T acc;
  if constexpr (std::is_floating_point_v<T>) {
    acc = canonical_nan<T>();  // loses to any number: the result is NaN only if all inputs are
    bool any_nan = false;
    for_each_lane(members, [&](unsigned l) {
      const T x = abs ? std::fabs(v[l]) : v[l];
      any_nan |= x != x;
      acc = pick<T, O == AtomOp::Max>(acc, x, false);
    });
    return any_nan && nan ? canonical_nan<T>() : acc;
  } else {
    acc = O == AtomOp::Min   ? std::numeric_limits<T>::max()
          : O == AtomOp::Max ? std::numeric_limits<T>::min()
          : O == AtomOp::And ? T(~T(0))
                             : T(0);
    for_each_lane(members, [&](unsigned l) {
      switch (O) {
        case AtomOp::Add:
          acc = T(uint32_t(acc) + uint32_t(v[l]));
          break;
        case AtomOp::Min:
          acc = v[l] < acc ? v[l] : acc;
          break;
        case AtomOp::Max:
          acc = v[l] > acc ? v[l] : acc;
          break;
        case AtomOp::And:
          acc &= v[l];
          break;
        case AtomOp::Or:
          acc |= v[l];
          break;
        default:
          acc ^= v[l];
          break;
      }
    });
    return acc;
  }
}

template <class T, AtomOp O>
void redux(const Inst& in, ExecContext& ctx) {
  T value[kWarpSize];
  snapshot(ctx, in.src(0), value);
  const bool abs = in.flags & kAbsInput, nan = in.flags & kNaN;
  const Src member_mask(ctx, in.src(1));
  const Dst d(ctx, in.dst(0));
  LaneMask last = 0;
  T result = reduce<T, O>(value, last, abs, nan);
  for_each_lane(ctx.exec, [&](unsigned l) {
    const LaneMask members = member_mask.get<uint32_t>(l) & ctx.active;
    if (members != last) {  // the mask is almost always uniform: reduce once
      last = members;
      result = reduce<T, O>(value, members, abs, nan);
    }
    d.put(l, result);
  });
}

template <class T, MatchMode M>
void match(const Inst& in, ExecContext& ctx) {
  T value[kWarpSize];
  snapshot(ctx, in.src(0), value);
  const bool with_pred = in.flags & kPredOut;
  const Src member_mask(ctx, in.src(1));
  const Dst d(ctx, in.dst(0)), p(ctx, in.dst(with_pred ? 1 : 0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const LaneMask members = member_mask.get<uint32_t>(l) & ctx.active;
    LaneMask equal = 0;
    for_each_lane(members, [&](unsigned k) {
      if (value[k] == value[l]) equal |= LaneMask(1) << k;
    });
    if (M == MatchMode::Any) {
      d.put(l, uint32_t(equal));
    } else {
      d.put(l, uint32_t(equal == members ? members : 0));
      if (with_pred) p.put(l, equal == members);
    }
  });
}

ExecFn select_redux(const Inst& in, std::string& why) {
  const auto op = AtomOp(in.sub);
  const bool logic = op == AtomOp::And || op == AtomOp::Or || op == AtomOp::Xor;
  const bool f32 = in.type == ScalarType::F32;
  if (!flags_allowed(in, f32 ? kAbsInput | kNaN : 0, why)) return nullptr;
  if (f32) {
    if (op == AtomOp::Min) return &redux<float, AtomOp::Min>;
    if (op == AtomOp::Max) return &redux<float, AtomOp::Max>;
    return reject(why, in, "only .min and .max are defined for .f32");
  }
  if (bit_width(in.type) != 32 || !is_int_type(in.type)) {
    return reject(why, in, "needs a 32-bit type");
  }
  if (logic) {
    return op == AtomOp::And  ? &redux<uint32_t, AtomOp::And>
           : op == AtomOp::Or ? &redux<uint32_t, AtomOp::Or>
                              : &redux<uint32_t, AtomOp::Xor>;
  }
  const bool s = in.type == ScalarType::S32;
  switch (op) {
    case AtomOp::Add:
      return &redux<uint32_t, AtomOp::Add>;
    case AtomOp::Min:
      return s ? &redux<int32_t, AtomOp::Min> : &redux<uint32_t, AtomOp::Min>;
    case AtomOp::Max:
      return s ? &redux<int32_t, AtomOp::Max> : &redux<uint32_t, AtomOp::Max>;
    default:
      return reject(why, in, "only .add .min .max .and .or .xor are defined");
  }
}

}  // namespace

ExecFn select_warp_level(const Inst& in, std::string& why) {
  if (!no_rounding(in, why)) return nullptr;
  const unsigned pred_dst = (in.flags & kPredOut) ? 1 : 0;
  switch (in.op) {
    case Op::Shfl:
      if (!operands_are(in, 1 + pred_dst, 4, why) || !flags_allowed(in, kPredOut, why)) {
        return nullptr;
      }
      if (bit_width(in.type) != 32) return reject(why, in, "only .b32 is defined");
      return dispatch_enum<ShflMode, ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx>(
          ShflMode(in.sub), [](auto m) -> ExecFn { return &shfl<decltype(m)::value>; });
    case Op::Vote:
      if (!operands_are(in, 1, 2, why) || !flags_allowed(in, 0, why)) return nullptr;
      return dispatch_enum<VoteMode, VoteMode::All, VoteMode::Any, VoteMode::Uni, VoteMode::Ballot>(
          VoteMode(in.sub), [](auto m) -> ExecFn { return &vote<decltype(m)::value>; });
    case Op::Activemask:
      if (!operands_are(in, 1, 0, why) || !flags_allowed(in, 0, why)) return nullptr;
      return &activemask;
    case Op::Redux:
      if (!operands_are(in, 1, 2, why)) return nullptr;
      return select_redux(in, why);
    case Op::Match: {
      const auto mode = MatchMode(in.sub);
      if (!operands_are(in, 1 + pred_dst, 2, why) ||
          !flags_allowed(in, mode == MatchMode::All ? kPredOut : 0, why)) {
        return nullptr;
      }
      if (!is_int_type(in.type) || bit_width(in.type) < 32) {
        return reject(why, in, "only .b32 and .b64 are defined");
      }
      const bool b64 = bit_width(in.type) == 64;
      if (mode == MatchMode::Any) {
        return b64 ? &match<uint64_t, MatchMode::Any> : &match<uint32_t, MatchMode::Any>;
      }
      if (mode == MatchMode::All) {
        return b64 ? &match<uint64_t, MatchMode::All> : &match<uint32_t, MatchMode::All>;
      }
      return reject(why, in, "unknown mode");
    }
    default:
      return reject(why, in, "is not a warp-level instruction");
  }
}

}  // namespace gpusoc::ptx::sem
