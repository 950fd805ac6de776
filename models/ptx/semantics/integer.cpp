// Integer arithmetic: add, sub (with saturation and carry chains), mul, mad, mul24, mad24, sad,
// div, rem, abs, neg, min, max. All arithmetic that may wrap is done in unsigned types, so signed
// overflow (undefined behaviour in C++) never happens on the host.
#include <limits>

#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/lanes.h"

namespace gpusoc::ptx::sem {
namespace {

template <class T>
using Wide =
    std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 2, int32_t, int64_t>,
                       std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;

/// The value's bits, zero-extended: the operand of wrapping arithmetic.
template <class T>
inline uint64_t u64(T v) {
  return uint64_t(UnsignedOf<T>(v));
}

template <class T>
inline T saturate(int64_t v) {
  constexpr int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  return T(v < lo ? lo : v > hi ? hi : v);
}

template <class T>
inline T mul_hi(T a, T b) {
  if constexpr (sizeof(T) < 8) {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return T(uint64_t(W(a) * W(b)) >> (8 * sizeof(T)));
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return T(uint64_t((unsigned __int128)(W(a) * W(b)) >> 64));
  }
}

template <class T, MulMode M>
inline auto multiply(T a, T b) {
  if constexpr (M == MulMode::Wide) {
    return Wide<T>(Wide<T>(a) * Wide<T>(b));  // cannot overflow the wide type
  } else if constexpr (M == MulMode::Hi) {
    return mul_hi(a, b);
  } else {
    return T(u64(a) * u64(b));
  }
}

template <class T, bool kSub>
void add_sub(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint64_t x = u64(a.get<T>(l)), y = u64(b.get<T>(l));
    d.put(l, T(kSub ? x - y : x + y));
  });
}

template <bool kSub>
void add_sub_sat_s32(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const int64_t x = a.get<int32_t>(l), y = b.get<int32_t>(l);
    d.put(l, saturate<int32_t>(kSub ? x - y : x + y));
  });
}

// add.cc/addc/sub.cc/subc: the carry register holds the carry (add) or borrow (sub) as 0 or 1,
// so add.cc + addc and sub.cc + subc chains compute multi-word sums and differences.
template <class T, bool kSub, bool kIn, bool kOut>
void add_sub_carry(const Inst& in, ExecContext& ctx) {
  using U = UnsignedOf<T>;
  const Dst d(ctx, in.dst(0)), carry_out(ctx, kCarryReg);
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), carry_reg(ctx, kCarryReg);
  for_each_lane(ctx.exec, [&](unsigned l) {
    const U x = a.get<U>(l), y = b.get<U>(l);
    U r;
    bool carry = kSub ? __builtin_sub_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r);
    if constexpr (kIn) {
      const U cin = U(carry_reg.get<U>(l) & 1);
      carry |= kSub ? __builtin_sub_overflow(r, cin, &r) : __builtin_add_overflow(r, cin, &r);
    }
    d.put(l, T(r));
    if constexpr (kOut) carry_out.put(l, carry);
  });
}

template <class T, MulMode M>
void mul(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) { d.put(l, multiply<T, M>(a.get<T>(l), b.get<T>(l))); });
}

// mad (and mad.cc/madc): d = product + c, c and d as wide as the product.
template <class T, MulMode M, bool kIn, bool kOut>
void mad(const Inst& in, ExecContext& ctx) {
  using R = decltype(multiply<T, M>(T(), T()));
  using U = UnsignedOf<R>;
  const Dst d(ctx, in.dst(0)), carry_out(ctx, kCarryReg);
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2)), carry_reg(ctx, kCarryReg);
  for_each_lane(ctx.exec, [&](unsigned l) {
    const U p = U(multiply<T, M>(a.get<T>(l), b.get<T>(l)));
    U r;
    bool carry = __builtin_add_overflow(p, c.get<U>(l), &r);
    if constexpr (kIn) carry |= __builtin_add_overflow(r, U(carry_reg.get<U>(l) & 1), &r);
    d.put(l, R(r));
    if constexpr (kOut) carry_out.put(l, carry);
  });
}

void mad_hi_sat_s32(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const int64_t hi = mul_hi(a.get<int32_t>(l), b.get<int32_t>(l));
    d.put(l, saturate<int32_t>(hi + c.get<int32_t>(l)));
  });
}

/// The low 24 bits of a mul24 operand, sign-extended for .s32.
template <class T>
inline int64_t low24(T v) {
  const int64_t x = int64_t(uint32_t(v) & 0xffffff);
  return std::is_signed_v<T> && (x & 0x800000) ? x - 0x1000000 : x;
}

// mul24/mad24: the 48-bit product's bits 31..0 (.lo) or 47..16 (.hi), plus c for mad24.
template <class T, bool kHi, bool kMad, bool kSat>
void mul24(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(kMad ? 2 : 1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint64_t t = uint64_t(low24(a.get<T>(l)) * low24(b.get<T>(l)));
    const T p = T(kHi ? t >> 16 : t);
    if constexpr (kSat) {
      d.put(l, saturate<int32_t>(int64_t(p) + c.get<int32_t>(l)));
    } else if constexpr (kMad) {
      d.put(l, T(u64(p) + u64(c.get<T>(l))));
    } else {
      d.put(l, p);
    }
  });
}

template <class T>
void sad(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T x = a.get<T>(l), y = b.get<T>(l);
    const uint64_t diff = x > y ? u64(x) - u64(y) : u64(y) - u64(x);
    d.put(l, T(diff + u64(c.get<T>(l))));
  });
}

// Division by zero is unspecified in PTX. We give what NVIDIA GPUs compute: the quotient of the
// magnitudes is all ones, negated when the signs differ (so x/0 is 0xffff..ff unsigned, and for
// signed -1 when x >= 0, +1 when x < 0), and x % 0 = x. INT_MIN / -1 wraps to INT_MIN and
// INT_MIN % -1 is 0, as on the GPU; neither traps the host.
template <class T>
inline T divide(T a, T b) {
  if (b == 0) {
    if constexpr (std::is_signed_v<T>) return a < 0 ? T(1) : T(-1);
    return std::numeric_limits<T>::max();
  }
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T(0 - u64(a));
  }
  return T(a / b);
}

template <class T>
inline T remainder(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return 0;
  }
  return T(a % b);
}

template <class T, bool kRem>
void div_rem(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T x = a.get<T>(l), y = b.get<T>(l);
    d.put(l, kRem ? remainder(x, y) : divide(x, y));
  });
}

// abs(INT_MIN) and neg(INT_MIN) are INT_MIN (two's complement wrap).
template <class T, bool kNeg>
void abs_neg(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T x = a.get<T>(l);
    d.put(l, T(kNeg || x < 0 ? 0 - u64(x) : u64(x)));
  });
}

template <class T, bool kMax, bool kRelu>
void min_max(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T x = a.get<T>(l), y = b.get<T>(l);
    T r = (x < y) != kMax ? x : y;
    if constexpr (kRelu) r = r < 0 ? T(0) : r;
    d.put(l, r);
  });
}

ExecFn select_add_sub(const Inst& in, std::string& why) {
  const bool sub = in.op == Op::Sub, cin = in.flags & kCarryIn, cout = in.flags & kCarryOut;
  if (in.flags & kSat) {
    if (in.type != ScalarType::S32) return reject(why, in, ".sat is only defined for .s32");
    if (cin || cout) return reject(why, in, ".sat cannot be combined with a carry");
    return sub ? &add_sub_sat_s32<true> : &add_sub_sat_s32<false>;
  }
  if ((cin || cout) && bit_width(in.type) < 32) {
    return reject(why, in, "carry is only defined for 32- and 64-bit types");
  }
  return dispatch_int(in.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_bool(sub, [&](auto s) {
      constexpr bool kSub = decltype(s)::value;
      return dispatch_bool(cin, [&](auto i) {
        constexpr bool kIn = decltype(i)::value;
        return dispatch_bool(cout, [&](auto o) -> ExecFn {
          constexpr bool kOut = decltype(o)::value;
          if constexpr (!kIn && !kOut) {
            return &add_sub<T, kSub>;
          } else if constexpr (sizeof(T) >= 4) {
            return &add_sub_carry<T, kSub, kIn, kOut>;
          }
          return nullptr;  // excluded above
        });
      });
    });
  });
}

ExecFn select_mul_mad(const Inst& in, std::string& why) {
  const bool is_mad = in.op == Op::Mad, cin = in.flags & kCarryIn, cout = in.flags & kCarryOut;
  const auto mode = MulMode(in.sub);
  if (mode == MulMode::Wide && bit_width(in.type) > 32) {
    return reject(why, in, ".wide is only defined for 16- and 32-bit types");
  }
  if (in.flags & kSat) {
    if (in.type != ScalarType::S32 || mode != MulMode::Hi || cin || cout) {
      return reject(why, in, ".sat is only defined for mad.hi.s32");
    }
    return &mad_hi_sat_s32;
  }
  if (cin || cout) {
    if (bit_width(in.type) < 32 || mode == MulMode::Wide) {
      return reject(why, in, "carry is only defined for .lo/.hi with 32- and 64-bit types");
    }
  }
  return dispatch_int(in.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_enum<MulMode, MulMode::Lo, MulMode::Hi, MulMode::Wide>(
        mode == MulMode::None ? MulMode::Lo : mode, [&](auto m) -> ExecFn {
          constexpr MulMode M = decltype(m)::value;
          if constexpr (M == MulMode::Wide && sizeof(T) == 8) {
            return nullptr;  // excluded above
          } else {
            if (!is_mad) return &mul<T, M>;
            return dispatch_bool(cin, [&](auto i) {
              constexpr bool kIn = decltype(i)::value;
              return dispatch_bool(
                  cout, [&](auto o) -> ExecFn { return &mad<T, M, kIn, decltype(o)::value>; });
            });
          }
        });
  });
}

ExecFn select_mul24(const Inst& in, std::string& why) {
  const bool is_mad = in.op == Op::Mad24;
  const bool hi = MulMode(in.sub) == MulMode::Hi;
  if (MulMode(in.sub) == MulMode::Wide) return reject(why, in, ".wide is not defined");
  if (in.type != ScalarType::U32 && in.type != ScalarType::S32) {
    return reject(why, in, "only .u32 and .s32 are defined");
  }
  const bool sat = in.flags & kSat;
  if (sat && !(is_mad && hi && in.type == ScalarType::S32)) {
    return reject(why, in, ".sat is only defined for mad24.hi.s32");
  }
  if (sat) return &mul24<int32_t, true, true, true>;
  return dispatch_int(in.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatch_bool(hi, [&](auto h) {
      constexpr bool kHi = decltype(h)::value;
      return dispatch_bool(
          is_mad, [&](auto m) -> ExecFn { return &mul24<T, kHi, decltype(m)::value, false>; });
    });
  });
}

}  // namespace

ExecFn select_integer(const Inst& in, std::string& why) {
  if (!is_int_type(in.type) || bit_width(in.type) < 16) {
    return reject(why, in, "needs a 16-, 32- or 64-bit integer type");
  }
  if (!no_rounding(in, why)) return nullptr;
  const ScalarType t = in.type;
  switch (in.op) {
    case Op::Add:
    case Op::Sub:
      if (!operands_are(in, 1, 2, why) || !flags_allowed(in, kSat | kCarryIn | kCarryOut, why)) {
        return nullptr;
      }
      return select_add_sub(in, why);
    case Op::Mul:
    case Op::Mad:
      if (!operands_are(in, 1, in.op == Op::Mad ? 3 : 2, why) ||
          !flags_allowed(in, in.op == Op::Mad ? kSat | kCarryIn | kCarryOut : 0, why)) {
        return nullptr;
      }
      return select_mul_mad(in, why);
    case Op::Mul24:
    case Op::Mad24:
      if (!operands_are(in, 1, in.op == Op::Mad24 ? 3 : 2, why) ||
          !flags_allowed(in, in.op == Op::Mad24 ? kSat : 0, why)) {
        return nullptr;
      }
      return select_mul24(in, why);
    default:
      break;
  }
  const bool relu = in.flags & kRelu;
  const bool minmax = in.op == Op::Min || in.op == Op::Max;
  if (!flags_allowed(in, minmax ? kRelu : 0, why)) return nullptr;
  if (relu && t != ScalarType::S32) return reject(why, in, ".relu is only defined for .s32");
  const bool unary = in.op == Op::Abs || in.op == Op::Neg;
  if (!operands_are(in, 1, unary ? 1 : in.op == Op::Sad ? 3 : 2, why)) return nullptr;
  if (unary && !is_signed_int(t)) return reject(why, in, "only signed types are defined");
  if (relu) {
    return in.op == Op::Min ? &min_max<int32_t, false, true> : &min_max<int32_t, true, true>;
  }
  return dispatch_int(t, [&](auto tag) -> ExecFn {
    using T = typename decltype(tag)::type;
    switch (in.op) {
      case Op::Sad:
        return &sad<T>;
      case Op::Div:
        return &div_rem<T, false>;
      case Op::Rem:
        return &div_rem<T, true>;
      case Op::Min:
        return &min_max<T, false, false>;
      case Op::Max:
        return &min_max<T, true, false>;
      default:
        break;
    }
    if constexpr (std::is_signed_v<T>) {
      return in.op == Op::Abs ? &abs_neg<T, false> : &abs_neg<T, true>;
    }
    return nullptr;  // unsigned abs/neg were rejected above
  });
}

}  // namespace gpusoc::ptx::sem
