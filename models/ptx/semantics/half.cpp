// f16 and bf16 arithmetic, scalar and packed x2: add, sub, mul, fma, neg, abs, min, max.
#include "models/ptx/semantics/half.h"
#include "models/ptx/semantics/families.h"

namespace gpusoc::ptx::sem {
namespace {

struct HalfAdd {
  static constexpr unsigned kArity = 2;
  static double apply(const double* v, const HalfMode&) { return v[0] + v[1]; }
};
struct HalfSub {
  static constexpr unsigned kArity = 2;
  static double apply(const double* v, const HalfMode&) { return v[0] - v[1]; }
};
struct HalfMul {
  static constexpr unsigned kArity = 2;
  static double apply(const double* v, const HalfMode&) { return v[0] * v[1]; }
};
// The product of two half values is exact in double, so this rounds only once before narrowing.
struct HalfFma {
  static constexpr unsigned kArity = 3;
  static double apply(const double* v, const HalfMode&) { return v[0] * v[1] + v[2]; }
};
struct HalfNeg {
  static constexpr unsigned kArity = 1;
  static double apply(const double* v, const HalfMode&) { return -v[0]; }
};
struct HalfAbs {
  static constexpr unsigned kArity = 1;
  static double apply(const double* v, const HalfMode&) { return std::fabs(v[0]); }
};
template <bool kMax>
struct HalfMinMax {
  static constexpr unsigned kArity = 2;
  static double apply(const double* v, const HalfMode& m) {
    const double a = m.abs ? std::fabs(v[0]) : v[0], b = m.abs ? std::fabs(v[1]) : v[1];
    const double r = pick<double, kMax>(a, b, m.nan);
    if (!m.xorsign || r != r) return r;
    return std::copysign(r, std::signbit(v[0]) != std::signbit(v[1]) ? -1.0 : 1.0);
  }
};

template <class HOp>
ExecFn elementwise(ScalarType t) {
  return dispatch_half(t, [](auto h, auto n) -> ExecFn {
    return &half_elementwise<typename decltype(h)::type, decltype(n)::value, HOp>;
  });
}

}  // namespace

ExecFn select_half(const Inst& in, std::string& why) {
  if (in.rounding != Rounding::None && in.rounding != Rounding::Rn) {
    return reject(why, in, "only rounding .rn is defined for half precision");
  }
  switch (in.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
      if (!operands_are(in, 1, 2, why) || !flags_allowed(in, kFtz | kSat, why)) return nullptr;
      return in.op == Op::Add   ? elementwise<HalfAdd>(in.type)
             : in.op == Op::Sub ? elementwise<HalfSub>(in.type)
                                : elementwise<HalfMul>(in.type);
    case Op::Fma:
      if (!operands_are(in, 1, 3, why) || !flags_allowed(in, kFtz | kSat | kRelu, why)) {
        return nullptr;
      }
      if ((in.flags & kSat) && (in.flags & kRelu)) {
        return reject(why, in, ".sat and .relu exclude each other");
      }
      return elementwise<HalfFma>(in.type);
    case Op::Neg:
    case Op::Abs:
      if (!operands_are(in, 1, 1, why) || !flags_allowed(in, kFtz, why)) return nullptr;
      return in.op == Op::Neg ? elementwise<HalfNeg>(in.type) : elementwise<HalfAbs>(in.type);
    case Op::Min:
    case Op::Max:
      if (!operands_are(in, 1, 2, why) ||
          !flags_allowed(in, kFtz | kNaN | kAbsInput | kXorSign, why)) {
        return nullptr;
      }
      if ((in.flags & kXorSign) && !(in.flags & kAbsInput)) {
        return reject(why, in, ".xorsign needs .abs");
      }
      return in.op == Op::Max ? elementwise<HalfMinMax<true>>(in.type)
                              : elementwise<HalfMinMax<false>>(in.type);
    default:
      return reject(why, in, "is not defined for half precision");
  }
}

}  // namespace gpusoc::ptx::sem
