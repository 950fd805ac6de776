// f32 and f64 arithmetic: add, sub, mul, mad/fma, div (IEEE, .approx and .full), abs, neg, min,
// max. IEEE rounding modes come from the host's arithmetic under a RoundingScope.
#include <cmath>

#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/fp.h"

namespace gpusoc::ptx::sem {
namespace {

struct AddOp {
  template <class F>
  F operator()(F a, F b) const {
    return a + b;
  }
};
struct SubOp {
  template <class F>
  F operator()(F a, F b) const {
    return a - b;
  }
};
struct MulOp {
  template <class F>
  F operator()(F a, F b) const {
    return a * b;
  }
};
struct DivOp {
  template <class F>
  F operator()(F a, F b) const {
    return a / b;
  }
};

template <class F, class BinOp, unsigned kFlags>
void binary(const Inst& in, ExecContext& ctx) {
  const RoundingScope scope(in.rounding);
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const F x = fp_in<F, kFlags>(a.get<F>(l)), y = fp_in<F, kFlags>(b.get<F>(l));
    d.put(l, fp_out<F, kFlags>(BinOp{}(x, y)));
  });
}


// mad.f32/f64 on sm_20+ is fused, exactly like fma.
template <class F, unsigned kFlags>
void fma(const Inst& in, ExecContext& ctx) {
  const RoundingScope scope(in.rounding);
  const bool nearest = dir_of(in.rounding) == RoundDir::Nearest;
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const F x = fp_in<F, kFlags>(a.get<F>(l)), y = fp_in<F, kFlags>(b.get<F>(l));
    const F z = fp_in<F, kFlags>(c.get<F>(l));
    if constexpr (std::is_same_v<F, float>) {
      d.put(l, fp_out<F, kFlags>(fma_f32(x, y, z, nearest)));
    } else {
      d.put(l, fp_out<F, kFlags>(std::fma(x, y, z)));
    }
  });
}

// With the host's FMA instruction an fma is one correctly rounded operation: the same result
// as the portable path above, several times faster. Chosen at load time when the CPU has it.
template <class F>
__attribute__((target("fma"))) void fma_host(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for (LaneMask m = ctx.exec; m; m &= m - 1) {  // no lambda: it would not inherit the target
    const unsigned l = unsigned(__builtin_ctz(m));
    if constexpr (std::is_same_v<F, float>) {
      d.put(l, fp_out<F, 0>(__builtin_fmaf(a.get<F>(l), b.get<F>(l), c.get<F>(l))));
    } else {
      d.put(l, fp_out<F, 0>(__builtin_fma(a.get<F>(l), b.get<F>(l), c.get<F>(l))));
    }
  }
}

bool host_has_fma() {
  static const bool has = __builtin_cpu_supports("fma");
  return has;
}

// div.approx.f32 is a * (1/b) with a flushed subnormal reciprocal: this gives the documented
// result for 2^126 < |b| < 2^128 (0, or NaN when a is infinite) and stays within 2 ulp elsewhere.
template <unsigned kFlags>
void div_approx(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const float x = fp_in<float, kFlags>(a.get<float>(l));
    const float y = fp_in<float, kFlags>(b.get<float>(l));
    d.put(l, fp_out<float, kFlags>(x * flush(1.0f / y)));
  });
}

// abs and neg only touch the sign bit (NaN payloads pass through).
template <class F, bool kNeg, unsigned kFlags>
void abs_neg(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const FloatBitsOf<F> x = bits_of(fp_in<F, kFlags>(a.get<F>(l)));
    d.put(l, kNeg ? x ^ kSignMask<F> : x & ~kSignMask<F>);
  });
}

// min/max with .NaN, .abs, .xorsign.abs and the three-source form.
template <class F, bool kMax, unsigned kFlags>
void min_max(const Inst& in, ExecContext& ctx) {
  const bool nan = in.flags & kNaN, abs = in.flags & kAbsInput, xorsign = in.flags & kXorSign;
  const bool three = in.num_src == 3;
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(three ? 2 : 1));
  const auto operand = [&](const Src& o, unsigned l) {
    const F v = fp_in<F, kFlags>(o.get<F>(l));
    return abs ? std::fabs(v) : v;
  };
  for_each_lane(ctx.exec, [&](unsigned l) {
    F r = pick<F, kMax>(operand(a, l), operand(b, l), nan);
    if (three) r = pick<F, kMax>(r, operand(c, l), nan);
    if (xorsign && r == r) {
      const bool neg = std::signbit(a.get<F>(l)) != std::signbit(b.get<F>(l));
      r = std::copysign(r, neg ? F(-1) : F(1));
    }
    d.put(l, fp_out<F, kFlags>(r));
  });
}

template <class F, class BinOp>
ExecFn binary_fn(const Inst& in) {
  return dispatch_fp_flags<kFpFtz | kFpSat>(in.flags, [](auto f) -> ExecFn {
    return &binary < F, BinOp, sizeof(F) == 4 ? decltype(f)::value : 0u > ;
  });
}

ExecFn select_div(const Inst& in, std::string& why, bool f32) {
  const bool approx = in.flags & kApprox, full = in.flags & kFull;
  if (!f32) {
    if (!flags_allowed(in, 0, why) || !ieee_rounding(in, why)) return nullptr;
    return &binary<double, DivOp, 0>;
  }
  if (!flags_allowed(in, kFtz | kApprox | kFull, why)) return nullptr;
  if (approx || full) {
    if (approx && full) return reject(why, in, ".approx and .full exclude each other");
    if (!no_rounding(in, why)) return nullptr;
    if (approx) return in.flags & kFtz ? &div_approx<kFpFtz> : &div_approx<0>;
    // div.full.f32 promises 2 ulp; the correctly rounded quotient meets that.
  } else if (!ieee_rounding(in, why)) {
    return nullptr;
  }
  return in.flags & kFtz ? &binary<float, DivOp, kFpFtz> : &binary<float, DivOp, 0>;
}

}  // namespace

ExecFn select_float(const Inst& in, std::string& why) {
  if (in.type != ScalarType::F32 && in.type != ScalarType::F64) {
    return reject(why, in, "needs .f32 or .f64");
  }
  const bool f32 = in.type == ScalarType::F32;
  const uint16_t ftz_sat = f32 ? kFtz | kSat : 0;
  const uint16_t ftz = f32 ? kFtz : 0;
  switch (in.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
      if (!operands_are(in, 1, 2, why) || !flags_allowed(in, ftz_sat, why) ||
          !ieee_rounding(in, why)) {
        return nullptr;
      }
      return dispatch_float(in.type, [&](auto tag) {
        using F = typename decltype(tag)::type;
        return in.op == Op::Add   ? binary_fn<F, AddOp>(in)
               : in.op == Op::Sub ? binary_fn<F, SubOp>(in)
                                  : binary_fn<F, MulOp>(in);
      });
    case Op::Mad:
    case Op::Fma:
      if (!operands_are(in, 1, 3, why) || !flags_allowed(in, ftz_sat, why) ||
          !ieee_rounding(in, why)) {
        return nullptr;
      }
      if (host_has_fma() && dir_of(in.rounding) == RoundDir::Nearest &&
          (in.flags & (kFtz | kSat)) == 0) {
        return f32 ? &fma_host<float> : &fma_host<double>;
      }
      if (!f32) return &fma<double, 0>;
      return dispatch_fp_flags<kFpFtz | kFpSat>(
          in.flags, [](auto f) -> ExecFn { return &fma<float, decltype(f)::value>; });
    case Op::Div:
      if (!operands_are(in, 1, 2, why)) return nullptr;
      return select_div(in, why, f32);
    case Op::Abs:
    case Op::Neg:
      if (!operands_are(in, 1, 1, why) || !flags_allowed(in, ftz, why) || !no_rounding(in, why)) {
        return nullptr;
      }
      if (!f32) return in.op == Op::Neg ? &abs_neg<double, true, 0> : &abs_neg<double, false, 0>;
      if (in.flags & kFtz) {
        return in.op == Op::Neg ? &abs_neg<float, true, kFpFtz> : &abs_neg<float, false, kFpFtz>;
      }
      return in.op == Op::Neg ? &abs_neg<float, true, 0> : &abs_neg<float, false, 0>;
    case Op::Min:
    case Op::Max: {
      if (in.num_src != 2 && !operands_are(in, 1, 3, why)) return nullptr;
      if (in.num_src == 2 && !operands_are(in, 1, 2, why)) return nullptr;
      if (!flags_allowed(in, ftz | kNaN | kAbsInput | kXorSign, why) || !no_rounding(in, why)) {
        return nullptr;
      }
      if ((in.flags & kXorSign) && (!(in.flags & kAbsInput) || in.num_src != 2)) {
        return reject(why, in, ".xorsign needs .abs and two sources");
      }
      const bool max = in.op == Op::Max;
      if (!f32) return max ? &min_max<double, true, 0> : &min_max<double, false, 0>;
      if (in.flags & kFtz) {
        return max ? &min_max<float, true, kFpFtz> : &min_max<float, false, kFpFtz>;
      }
      return max ? &min_max<float, true, 0> : &min_max<float, false, 0>;
    }
    default:
      return reject(why, in, "is not a floating-point operation");
  }
}

}  // namespace gpusoc::ptx::sem
