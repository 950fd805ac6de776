// Reciprocal, square root and transcendentals (rcp, sqrt, rsqrt, sin, cos, ex2, lg2, tanh), plus
// copysign and testp. The IEEE forms (.rn/.rz/.rm/.rp) are correctly rounded by the host. The
// .approx forms are evaluated in double and rounded once, which is well inside every error bound
// the PTX ISA documents for them (e.g. 2^-20.9 absolute for sin/cos, 2 ulp for ex2).
#include <cmath>

#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/half.h"

namespace gpusoc::ptx::sem {
namespace {

struct RcpOp {
  template <class F>
  static F apply(F x) {
    return F(1) / x;
  }
};
struct SqrtOp {
  template <class F>
  static F apply(F x) {
    return std::sqrt(x);
  }
};
struct RsqrtOp {
  template <class F>
  static F apply(F x) {
    return F(1.0 / std::sqrt(double(x)));
  }
};
struct SinOp {
  template <class F>
  static F apply(F x) {
    return F(std::sin(double(x)));
  }
};
struct CosOp {
  template <class F>
  static F apply(F x) {
    return F(std::cos(double(x)));
  }
};
struct Ex2Op {
  template <class F>
  static F apply(F x) {
    return F(std::exp2(double(x)));
  }
};
struct Lg2Op {
  template <class F>
  static F apply(F x) {
    return F(std::log2(double(x)));
  }
};
struct TanhOp {
  template <class F>
  static F apply(F x) {
    return F(std::tanh(double(x)));
  }
};

template <class F, class UOp, unsigned kFlags>
void unary(const Inst& in, ExecContext& ctx) {
  const RoundingScope scope(in.rounding);
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    d.put(l, fp_out<F, kFlags>(UOp::apply(fp_in<F, kFlags>(a.get<F>(l)))));
  });
}

// Half-precision ex2 and tanh: evaluated in double, rounded once to the half format.
template <class UOp>
struct HalfUnary {
  static constexpr unsigned kArity = 1;
  static double apply(const double* v, const HalfMode&) { return UOp::apply(v[0]); }
};

template <class F>
void copysign(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const FloatBitsOf<F> sign = bits_of(a.get<F>(l)) & kSignMask<F>;
    d.put(l, (bits_of(b.get<F>(l)) & ~kSignMask<F>) | sign);
  });
}

template <class F, TestpMode M>
void testp(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const F x = a.get<F>(l);
    bool r = false;
    switch (M) {
      case TestpMode::Finite:
        r = std::isfinite(x);
        break;
      case TestpMode::Infinite:
        r = std::isinf(x);
        break;
      case TestpMode::Number:
        r = !std::isnan(x);
        break;
      case TestpMode::NotANumber:
        r = std::isnan(x);
        break;
      case TestpMode::Normal:
        r = std::isnormal(x);
        break;
      case TestpMode::Subnormal:
        r = std::fpclassify(x) == FP_SUBNORMAL;
        break;
    }
    d.put(l, r);
  });
}

template <class UOp>
ExecFn unary_fn(const Inst& in) {
  return dispatch_float(in.type, [&](auto tag) -> ExecFn {
    using F = typename decltype(tag)::type;
    return in.flags & kFtz ? &unary<F, UOp, kFpFtz> : &unary<F, UOp, 0>;
  });
}

// rcp and sqrt: .approx (f32; f64 rcp only as .approx.ftz) or IEEE rounding.
template <class UOp>
ExecFn select_rcp_sqrt(const Inst& in, std::string& why) {
  const bool f64 = in.type == ScalarType::F64, approx = in.flags & kApprox;
  if (!flags_allowed(in, kFtz | kApprox, why)) return nullptr;
  if (approx) {
    if (!no_rounding(in, why)) return nullptr;
    if (f64 && (in.op == Op::Sqrt || !(in.flags & kFtz))) {
      return reject(why, in, ".approx is only defined as rcp.approx.ftz.f64 for .f64");
    }
  } else {
    if (!ieee_rounding(in, why)) return nullptr;
    if (f64 && (in.flags & kFtz)) return reject(why, in, ".ftz is only defined for .f32");
  }
  return unary_fn<UOp>(in);
}

template <class UOp>
ExecFn select_transcendental(const Inst& in, std::string& why) {
  if (!no_rounding(in, why)) return nullptr;
  if (is_half_type(in.type)) {
    if (in.op != Op::Ex2 && in.op != Op::Tanh) {
      return reject(why, in, "half precision is only defined for ex2.approx and tanh.approx");
    }
    if (!flags_allowed(in, kApprox | kFtz, why)) return nullptr;
    return dispatch_half(in.type, [](auto h, auto n) -> ExecFn {
      return &half_elementwise<typename decltype(h)::type, decltype(n)::value, HalfUnary<UOp>>;
    });
  }
  const bool f64_ok = in.op == Op::Rsqrt;
  if (in.type != ScalarType::F32 && !(f64_ok && in.type == ScalarType::F64)) {
    return reject(why, in, f64_ok ? "needs .f32 or .f64" : "needs .f32");
  }
  if (!flags_allowed(in, in.op == Op::Tanh ? kApprox : kApprox | kFtz, why)) return nullptr;
  return unary_fn<UOp>(in);
}

}  // namespace

ExecFn select_sfu(const Inst& in, std::string& why) {
  const bool pred_out = in.op == Op::Testp;
  if (!operands_are(in, 1, in.op == Op::Copysign ? 2 : 1, why)) return nullptr;
  if (!is_half_type(in.type) && in.type != ScalarType::F32 && in.type != ScalarType::F64) {
    return reject(why, in, "needs a floating-point type");
  }
  switch (in.op) {
    case Op::Rcp:
      return select_rcp_sqrt<RcpOp>(in, why);
    case Op::Sqrt:
      return select_rcp_sqrt<SqrtOp>(in, why);
    case Op::Rsqrt:
      return select_transcendental<RsqrtOp>(in, why);
    case Op::Sin:
      return select_transcendental<SinOp>(in, why);
    case Op::Cos:
      return select_transcendental<CosOp>(in, why);
    case Op::Ex2:
      return select_transcendental<Ex2Op>(in, why);
    case Op::Lg2:
      return select_transcendental<Lg2Op>(in, why);
    case Op::Tanh:
      return select_transcendental<TanhOp>(in, why);
    default:
      break;
  }
  if (is_half_type(in.type)) return reject(why, in, "needs .f32 or .f64");
  if (!flags_allowed(in, 0, why) || !no_rounding(in, why)) return nullptr;
  if (pred_out) {
    return dispatch_float(in.type, [&](auto tag) {
      using F = typename decltype(tag)::type;
      return dispatch_enum<TestpMode, TestpMode::Finite, TestpMode::Infinite, TestpMode::Number,
                           TestpMode::NotANumber, TestpMode::Normal, TestpMode::Subnormal>(
          TestpMode(in.sub), [](auto m) -> ExecFn { return &testp<F, decltype(m)::value>; });
    });
  }
  return in.type == ScalarType::F32 ? &copysign<float> : &copysign<double>;
}

}  // namespace gpusoc::ptx::sem
