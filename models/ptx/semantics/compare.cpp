// Comparison and selection: setp, set, selp, slct.
#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/half.h"

namespace gpusoc::ptx::sem {
namespace {

template <class T, CmpOp C>
inline bool compare(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    // Ordered comparisons are false when either operand is NaN; the u-forms are true then.
    switch (C) {
      case CmpOp::Eq:
        return a == b;
      case CmpOp::Ne:
        return a < b || a > b;
      case CmpOp::Lt:
        return a < b;
      case CmpOp::Le:
        return a <= b;
      case CmpOp::Gt:
        return a > b;
      case CmpOp::Ge:
        return a >= b;
      case CmpOp::Equ:
        return !(a < b || a > b);
      case CmpOp::Neu:
        return a != b;
      case CmpOp::Ltu:
        return !(a >= b);
      case CmpOp::Leu:
        return !(a > b);
      case CmpOp::Gtu:
        return !(a <= b);
      case CmpOp::Geu:
        return !(a < b);
      case CmpOp::Num:
        return a == a && b == b;
      case CmpOp::Nan:
        return a != a || b != b;
      default:
        return false;  // lo/ls/hi/hs: rejected at selection
    }
  } else {
    using U = UnsignedOf<T>;
    switch (C) {
      case CmpOp::Eq:
        return a == b;
      case CmpOp::Ne:
        return a != b;
      case CmpOp::Lt:
        return a < b;
      case CmpOp::Le:
        return a <= b;
      case CmpOp::Gt:
        return a > b;
      case CmpOp::Ge:
        return a >= b;
      case CmpOp::Lo:
        return U(a) < U(b);
      case CmpOp::Ls:
        return U(a) <= U(b);
      case CmpOp::Hi:
        return U(a) > U(b);
      case CmpOp::Hs:
        return U(a) >= U(b);
      default:
        return false;  // unordered forms: rejected at selection
    }
  }
}

inline bool combine(BoolOp op, bool t, bool c) {
  switch (op) {
    case BoolOp::And:
      return t && c;
    case BoolOp::Or:
      return t || c;
    case BoolOp::Xor:
      return t != c;
    default:
      return t;
  }
}

/// Reads compared values: T itself, with .ftz flushing f32 inputs.
template <class T, unsigned kFlags>
inline T operand(const Src& o, unsigned l) {
  if constexpr (std::is_floating_point_v<T>) return fp_in<T, kFlags>(o.get<T>(l));
  return o.get<T>(l);
}

// setp: p = BoolOp(a CmpOp b, c) and, with p|q, q = BoolOp(!(a CmpOp b), c).
template <class T, CmpOp C, unsigned kFlags>
void setp(const Inst& in, ExecContext& ctx) {
  const auto bop = BoolOp(in.sub2);
  const bool q = in.flags & kPredOut;
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(bop == BoolOp::None ? 1 : 2));
  const Dst p(ctx, in.dst(0)), pq(ctx, in.dst(q ? 1 : 0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const bool t = compare<T, C>(operand<T, kFlags>(a, l), operand<T, kFlags>(b, l));
    const bool cv = bop != BoolOp::None && c.get<bool>(l);
    p.put(l, combine(bop, t, cv));
    if (q) pq.put(l, combine(bop, !t, cv));
  });
}

// setp on f16/bf16: the scalar form as above; the x2 form compares the halves separately,
// p from the low half and q from the high half, each combined with c.
template <class H, unsigned kElements, CmpOp C>
void setp_half(const Inst& in, ExecContext& ctx) {
  const HalfMode m(in);
  const auto bop = BoolOp(in.sub2);
  const bool q = in.flags & kPredOut;
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(bop == BoolOp::None ? 1 : 2));
  const Dst p(ctx, in.dst(0)), pq(ctx, in.dst(q ? 1 : 0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint64_t x = a.bits(l), y = b.bits(l);
    const bool cv = bop != BoolOp::None && c.get<bool>(l);
    bool t[2];
    for (unsigned e = 0; e < kElements; ++e) {
      t[e] = compare<double, C>(half_in<H>(uint16_t(x >> (16 * e)), m),
                                half_in<H>(uint16_t(y >> (16 * e)), m));
    }
    p.put(l, combine(bop, t[0], cv));
    if (q) pq.put(l, combine(bop, kElements == 2 ? t[1] : !t[0], cv));
  });
}

// set: d = BoolOp(a CmpOp b, c) ? (1.0f or all ones) : 0.
template <class T, CmpOp C, unsigned kFlags>
void set(const Inst& in, ExecContext& ctx) {
  const auto bop = BoolOp(in.sub2);
  const uint64_t on = in.type == ScalarType::F32   ? 0x3f800000u
                      : in.type == ScalarType::S32 ? ~uint64_t(0)
                                                   : 0xffffffffu;
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(bop == BoolOp::None ? 1 : 2));
  const Dst d(ctx, in.dst(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const bool t = compare<T, C>(operand<T, kFlags>(a, l), operand<T, kFlags>(b, l));
    const bool cv = bop != BoolOp::None && c.get<bool>(l);
    d.put_bits(l, combine(bop, t, cv) ? on : 0);
  });
}

template <class T>
void selp(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec,
                [&](unsigned l) { d.put(l, c.get<bool>(l) ? a.get<T>(l) : b.get<T>(l)); });
}

// slct: d = c >= 0 ? a : b, c being .s32 or .f32 (-0 counts as >= 0, NaN does not).
template <class T, class C, unsigned kFlags>
void slct(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const bool take_a = operand<C, kFlags>(c, l) >= C(0);
    d.put(l, take_a ? a.get<T>(l) : b.get<T>(l));
  });
}

constexpr bool is_unsigned_cmp(CmpOp c) {
  return c >= CmpOp::Lo && c <= CmpOp::Hs;
}
constexpr bool is_unordered_cmp(CmpOp c) {
  return c >= CmpOp::Equ;
}

/// Calls f(std::integral_constant<CmpOp, c>{}).
template <class F>
ExecFn dispatch_cmp(CmpOp c, F&& f) {
  return dispatch_enum<CmpOp, CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge,
                       CmpOp::Lo, CmpOp::Ls, CmpOp::Hi, CmpOp::Hs, CmpOp::Equ, CmpOp::Neu,
                       CmpOp::Ltu, CmpOp::Leu, CmpOp::Gtu, CmpOp::Geu, CmpOp::Num, CmpOp::Nan>(
      c, std::forward<F>(f));
}

ExecFn select_setp_set(const Inst& in, std::string& why) {
  const bool is_set = in.op == Op::Set;
  const ScalarType t = is_set ? in.type2 : in.type;
  const auto cmp = CmpOp(in.sub);
  const auto bop = BoolOp(in.sub2);
  if (cmp > CmpOp::Nan || bop > BoolOp::Xor) return reject(why, in, "unknown comparison");
  const unsigned ndst = is_set ? 1 : (in.flags & kPredOut) ? 2 : 1;
  if (!operands_are(in, ndst, bop == BoolOp::None ? 2 : 3, why) ||
      !flags_allowed(in, kFtz | (is_set ? 0 : kPredOut), why) || !no_rounding(in, why)) {
    return nullptr;
  }
  const bool is_fp = is_float_type(t);
  if (!is_fp && !is_int_type(t)) return reject(why, in, "cannot compare this type");
  if (is_fp ? is_unsigned_cmp(cmp) : is_unordered_cmp(cmp)) {
    return reject(why, in,
                  is_fp ? "lo/ls/hi/hs compare integers only"
                        : "unordered comparisons compare floating point only");
  }
  if ((in.flags & kFtz) && t != ScalarType::F32 && !is_half_type(t)) {
    return reject(why, in, ".ftz is only defined for .f32 and .f16");
  }
  if (is_set) {
    if (in.type != ScalarType::U32 && in.type != ScalarType::S32 && in.type != ScalarType::F32) {
      return reject(why, in, "the destination type must be .u32, .s32 or .f32");
    }
    if (is_half_type(t)) return reject(why, in, "half-precision set is not supported");
  }
  if (!is_set && (t == ScalarType::F16x2 || t == ScalarType::BF16x2) && ndst != 2) {
    return reject(why, in, "the x2 types need a predicate pair p|q");
  }
  const bool ftz = in.flags & kFtz;
  return dispatch_cmp(cmp, [&](auto c) -> ExecFn {
    constexpr CmpOp C = decltype(c)::value;
    if (is_half_type(t)) {
      return dispatch_half(t, [](auto h, auto n) -> ExecFn {
        return &setp_half<typename decltype(h)::type, decltype(n)::value, C>;
      });
    }
    const auto pick_fn = [&](auto tag) -> ExecFn {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_floating_point_v<T> ? is_unsigned_cmp(C) : is_unordered_cmp(C)) {
        return nullptr;  // rejected above
      } else if constexpr (std::is_same_v<T, float>) {
        if (ftz) return is_set ? &set<T, C, kFpFtz> : &setp<T, C, kFpFtz>;
        return is_set ? &set<T, C, 0> : &setp<T, C, 0>;
      } else {
        return is_set ? &set<T, C, 0> : &setp<T, C, 0>;
      }
    };
    return is_fp ? dispatch_float(t, pick_fn) : dispatch_int(t, pick_fn);
  });
}

}  // namespace

ExecFn select_compare(const Inst& in, std::string& why) {
  if (in.op == Op::Setp || in.op == Op::Set) return select_setp_set(in, why);
  if (!operands_are(in, 1, 3, why) || !no_rounding(in, why) ||
      !flags_allowed(in, in.op == Op::Slct ? kFtz : 0, why)) {
    return nullptr;
  }
  const bool c_float = in.type2 == ScalarType::F32;
  if (in.op == Op::Slct && !c_float && in.type2 != ScalarType::S32 &&
      in.type2 != ScalarType::None) {
    return reject(why, in, "the selector c must be .s32 or .f32");
  }
  if ((in.flags & kFtz) && !c_float) return reject(why, in, ".ftz needs an .f32 selector");
  const auto pick_fn = [&](auto tag) -> ExecFn {
    using T = typename decltype(tag)::type;
    if (in.op == Op::Selp) return &selp<T>;
    if (!c_float) return &slct<T, int32_t, 0>;
    return in.flags & kFtz ? &slct<T, float, kFpFtz> : &slct<T, float, 0>;
  };
  if (bit_width(in.type) < 16) return reject(why, in, "needs a 16-, 32- or 64-bit type");
  if (ExecFn fn = dispatch_int(in.type, pick_fn)) return fn;
  if (ExecFn fn = dispatch_float(in.type, pick_fn)) return fn;
  if (in.type == ScalarType::F16 || in.type == ScalarType::BF16) return pick_fn(Tag<uint16_t>{});
  return reject(why, in, "cannot select this type");
}

}  // namespace gpusoc::ptx::sem
