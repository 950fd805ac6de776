// Internal to semantics/: element-wise evaluation of f16/bf16 (scalar and x2) operations. Each
// element is widened exactly to double, the operation is evaluated there and the result rounded
// once to the half format. For + - * and fma of half operands the double result is exact or
// sufficiently precise (53 >= 2p + 2) that this equals a single correct rounding.
#pragma once

#include <cmath>

#include "models/ptx/semantics/fp.h"

namespace gpusoc::ptx::sem {

struct F16Format {
  using Bits = Binary16;
  static constexpr uint16_t kExpMask = 0x7c00;
  static double widen(uint16_t h) { return f16_to_float(h); }
  static uint16_t narrow(double x, RoundDir d) { return uint16_t(round_double<Bits>(x, d)); }
};
struct BF16Format {
  using Bits = BFloat16;
  static constexpr uint16_t kExpMask = 0x7f80;
  static double widen(uint16_t h) { return bf16_to_float(h); }
  static uint16_t narrow(double x, RoundDir d) { return uint16_t(round_double<Bits>(x, d)); }
};

/// The modifiers of a half-precision instruction, read once per warp instruction.
struct HalfMode {
  bool ftz, sat, relu, nan, abs, xorsign;
  explicit HalfMode(const Inst& in)
      : ftz(in.flags & kFtz),
        sat(in.flags & kSat),
        relu(in.flags & kRelu),
        nan(in.flags & kNaN),
        abs(in.flags & kAbsInput),
        xorsign(in.flags & kXorSign) {}
};

template <class H>
inline double half_in(uint16_t h, const HalfMode& m) {
  if (m.ftz && (h & H::kExpMask) == 0) h &= 0x8000;
  return H::widen(h);
}

/// Rounds a result to H under the result rules: canonical NaN, .sat to [0, 1] (NaN gives +0),
/// .relu to >= +0 (NaN stays NaN), .ftz flushes a subnormal result.
template <class H>
inline uint16_t half_out(double r, const HalfMode& m) {
  if (m.sat) r = r > 0 ? (r > 1 ? 1.0 : r) : 0.0;
  if (r != r) return uint16_t(H::Bits::kCanonicalNaN);
  if (m.relu && !(r > 0)) r = 0.0;
  const uint16_t h = H::narrow(r, RoundDir::Nearest);
  return m.ftz && (h & H::kExpMask) == 0 ? uint16_t(h & 0x8000) : h;
}

/// Applies HOp::apply(const double* sources, const HalfMode&) (HOp::kArity sources) to each
/// 16-bit element (kElements = 1 for .f16/.bf16, 2 for the x2 types).
template <class H, unsigned kElements, class HOp>
void half_elementwise(const Inst& in, ExecContext& ctx) {
  constexpr unsigned kN = HOp::kArity;
  const HalfMode m(in);
  const Dst d(ctx, in.dst(0));
  const Src ops[3] = {Src(ctx, in.src(0)), Src(ctx, in.src(kN > 1 ? 1 : 0)),
                      Src(ctx, in.src(kN > 2 ? 2 : 0))};
  for_each_lane(ctx.exec, [&](unsigned l) {
    uint64_t src[kN];
    for (unsigned i = 0; i < kN; ++i) src[i] = ops[i].bits(l);
    uint32_t r = 0;
    for (unsigned e = 0; e < kElements; ++e) {
      double v[kN];
      for (unsigned i = 0; i < kN; ++i) v[i] = half_in<H>(uint16_t(src[i] >> (16 * e)), m);
      r |= uint32_t(half_out<H>(HOp::apply(v, m), m)) << (16 * e);
    }
    d.put_bits(l, r);
  });
}

/// Calls f(Tag<H>{}, std::integral_constant<unsigned, elements>{}) for a half type.
template <class F>
inline ExecFn dispatch_half(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::F16:
      return f(Tag<F16Format>{}, std::integral_constant<unsigned, 1>{});
    case ScalarType::F16x2:
      return f(Tag<F16Format>{}, std::integral_constant<unsigned, 2>{});
    case ScalarType::BF16:
      return f(Tag<BF16Format>{}, std::integral_constant<unsigned, 1>{});
    case ScalarType::BF16x2:
      return f(Tag<BF16Format>{}, std::integral_constant<unsigned, 2>{});
    default:
      return nullptr;
  }
}

}  // namespace gpusoc::ptx::sem
