// cvt between all integer and floating-point types (including f16/bf16 and the packed
// .f16x2/.bf16x2 from two f32), and mov with its pack/unpack forms.
//
// Every source value is exact as an integer or a double; floating-point results round it once to
// the destination format (float16.h, or the host's conversion where it rounds to nearest).
#include <cmath>
#include <limits>

#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/half.h"

namespace gpusoc::ptx::sem {
namespace {

template <class T>
constexpr bool kIsHalf = std::is_same_v<T, F16Format> || std::is_same_v<T, BF16Format>;
template <class T>
constexpr bool kIsFloat = std::is_floating_point_v<T> || kIsHalf<T>;

template <class T>
struct FormatOf {
  using type = typename T::Bits;  // F16Format, BF16Format
};
template <>
struct FormatOf<float> {
  using type = Binary32;
};
template <>
struct FormatOf<double> {
  using type = Binary64;
};

struct CvtMode {
  RoundDir dir;
  bool integral, sat, relu, ftz;
  CvtMode(const Inst& in, bool float_to_int)
      : dir(float_to_int && in.rounding == Rounding::None ? RoundDir::Zero : dir_of(in.rounding)),
        integral(in.rounding >= Rounding::Rni && in.rounding <= Rounding::Rpi),
        sat(in.flags & kSat),
        relu(in.flags & kRelu),
        ftz(in.flags & kFtz) {}
};

/// A source operand as an integer of type S or, for floating-point S, its exact value.
template <class S>
inline auto source(uint64_t raw, const CvtMode& m) {
  if constexpr (kIsHalf<S>) {
    return S::widen(uint16_t(raw));
  } else if constexpr (std::is_same_v<S, float>) {
    return double(m.ftz ? flush(from_bits<float>(raw)) : from_bits<float>(raw));
  } else {
    return from_bits<S>(raw);
  }
}

inline double round_integral(double x, RoundDir d) {
  switch (d) {
    case RoundDir::Nearest:
      return std::nearbyint(x);  // ties to even in the default mode
    case RoundDir::Zero:
      return std::trunc(x);
    case RoundDir::Down:
      return std::floor(x);
    default:
      return std::ceil(x);
  }
}

// Float to integer always saturates; NaN gives 0.
template <class D>
inline D float_to_int(double x, RoundDir dir) {
  if (x != x) return 0;
  const double r = round_integral(x, dir);
  constexpr double kLo = double(std::numeric_limits<D>::min());
  constexpr double kHiExclusive = 2.0 * double(std::numeric_limits<D>::max() / 2 + 1);
  if (r <= kLo) return std::numeric_limits<D>::min();
  if (r >= kHiExclusive) return std::numeric_limits<D>::max();
  return D(r);
}

template <class D, class S>
inline D int_to_int(S v, bool sat) {
  if (!sat) return D(v);  // truncate, or extend per S's signedness
  const __int128 w = v;
  if (w < std::numeric_limits<D>::min()) return std::numeric_limits<D>::min();
  if (w > std::numeric_limits<D>::max()) return std::numeric_limits<D>::max();
  return D(v);
}

/// An integer rounded to floating-point D: .sat clamps to [0, 1], .relu at 0.
template <class D, class S>
inline uint64_t int_to_float(S v, const CvtMode& m) {
  if ((m.sat || m.relu) && v < S(0)) v = 0;
  if (m.sat && v > S(1)) v = 1;
  if constexpr (std::is_floating_point_v<D>) {
    if (m.dir == RoundDir::Nearest) return to_bits(D(v));  // the host rounds to nearest
  }
  return round_integer<typename FormatOf<D>::type>(v, m.dir);
}

/// The value x (exact in double) rounded to floating-point D in direction dir, after .sat
/// ([0, 1], NaN to +0) and .relu (at +0, NaN stays); NaN is canonical, .ftz flushes f32.
template <class D>
inline uint64_t float_to_float(double x, RoundDir dir, const CvtMode& m) {
  using Fmt = typename FormatOf<D>::type;
  if (m.sat) x = x > 0 ? (x > 1 ? 1.0 : x) : 0.0;
  if (m.relu && !(x > 0) && x == x) x = 0.0;
  if (x != x) return Fmt::kCanonicalNaN;
  if constexpr (std::is_same_v<D, double>) {
    return to_bits(x);  // every source value is a double
  } else if constexpr (std::is_same_v<D, float>) {
    const float f =
        dir == RoundDir::Nearest ? float(x) : from_bits<float>(round_double<Fmt>(x, dir));
    return to_bits(m.ftz ? flush(f) : f);
  } else {
    return round_double<Fmt>(x, dir);
  }
}

template <class S, class D>
inline uint64_t convert(uint64_t raw, const CvtMode& m) {
  if constexpr (!kIsFloat<D>) {
    if constexpr (kIsFloat<S>) {
      return to_bits(float_to_int<D>(source<S>(raw, m), m.dir));
    } else {
      return to_bits(int_to_int<D>(S(raw), m.sat));
    }
  } else if constexpr (!kIsFloat<S>) {
    return int_to_float<D>(S(raw), m);
  } else if constexpr (std::is_same_v<S, D>) {
    const double x = source<S>(raw, m);
    return float_to_float<D>(m.integral ? round_integral(x, m.dir) : x, RoundDir::Nearest, m);
  } else {
    return float_to_float<D>(source<S>(raw, m), m.dir, m);  // exact when widening
  }
}

template <class S, class D>
void cvt(const Inst& in, ExecContext& ctx) {
  const CvtMode m(in, kIsFloat<S> && !kIsFloat<D>);
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) { d.put_bits(l, convert<S, D>(a.bits(l), m)); });
}

// cvt.f16x2.f32 / cvt.bf16x2.f32 d, a, b: a converted into the upper half, b into the lower.
template <class H>
void cvt_pack(const Inst& in, ExecContext& ctx) {
  const CvtMode m(in, false);
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    d.put_bits(l, convert<float, H>(a.bits(l), m) << 16 | convert<float, H>(b.bits(l), m));
  });
}

/// Calls f(Tag<T>{}) for any cvt operand type: integers, F16Format, BF16Format, float, double.
template <class F>
ExecFn dispatch_cvt_type(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::F16:
      return f(Tag<F16Format>{});
    case ScalarType::BF16:
      return f(Tag<BF16Format>{});
    case ScalarType::F32:
      return f(Tag<float>{});
    case ScalarType::F64:
      return f(Tag<double>{});
    default:
      return dispatch_int(t, f);
  }
}

/// Whether every value of floating-point type s is exactly a value of d.
bool widens(ScalarType s, ScalarType d) {
  const bool half = s == ScalarType::F16 || s == ScalarType::BF16;
  return (half && (d == ScalarType::F32 || d == ScalarType::F64)) ||
         (s == ScalarType::F32 && d == ScalarType::F64);
}

/// What is wrong with the rounding modifier of a cvt from st to dt, or nullptr.
const char* rounding_problem(ScalarType dt, ScalarType st, Rounding r) {
  const bool df = is_float_type(dt), sf = is_float_type(st);
  const bool irnd = r >= Rounding::Rni && r <= Rounding::Rpi;
  const bool frnd = r >= Rounding::Rn && r <= Rounding::Rp;
  if (r == Rounding::Rna) return "rounding .rna is only defined for .tf32";
  if (!df && !sf) return r != Rounding::None ? "integer conversions take no rounding" : nullptr;
  if (!df) return frnd ? "float-to-integer conversions round with .rni/.rzi/.rmi/.rpi" : nullptr;
  if (!sf) return irnd ? "integer-to-float conversions round with .rn/.rz/.rm/.rp" : nullptr;
  if (dt == st) return frnd ? "same-type conversions only round to integers" : nullptr;
  if (widens(st, dt)) {
    return r != Rounding::None ? "a widening conversion is exact and takes no rounding" : nullptr;
  }
  return irnd ? "narrowing conversions round with .rn/.rz/.rm/.rp" : nullptr;
}

ExecFn select_cvt(const Inst& in, std::string& why) {
  const ScalarType dt = in.type, st = in.type2;
  const bool packed = dt == ScalarType::F16x2 || dt == ScalarType::BF16x2;
  if (!operands_are(in, 1, packed ? 2 : 1, why) || !flags_allowed(in, kSat | kFtz | kRelu, why)) {
    return nullptr;
  }
  const auto scalar = [](ScalarType t) {
    return is_int_type(t) || t == ScalarType::F16 || t == ScalarType::BF16 ||
           t == ScalarType::F32 || t == ScalarType::F64;
  };
  if (packed ? st != ScalarType::F32 : !scalar(dt) || !scalar(st)) {
    return reject(why, in, packed ? "the x2 forms convert from .f32" : "unsupported types");
  }
  if (const char* problem = rounding_problem(packed ? ScalarType::F16 : dt, st, in.rounding)) {
    return reject(why, in, std::string(problem) + " (got " + rounding_suffix(in.rounding) + ")");
  }
  if ((in.flags & kFtz) && dt != ScalarType::F32 && st != ScalarType::F32) {
    return reject(why, in, ".ftz needs an .f32 source or destination");
  }
  if ((in.flags & kRelu) && !is_half_type(dt)) {
    return reject(why, in, ".relu needs an f16 or bf16 destination");
  }
  if (packed) return dt == ScalarType::F16x2 ? &cvt_pack<F16Format> : &cvt_pack<BF16Format>;
  return dispatch_cvt_type(st, [&](auto s) {
    return dispatch_cvt_type(dt, [&](auto d) -> ExecFn {
      return &cvt<typename decltype(s)::type, typename decltype(d)::type>;
    });
  });
}

template <class T>
void mov(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) { d.put(l, a.get<T>(l)); });
}

// mov d, {a, b, ...}: element i in bits [i*w, (i+1)*w) of d (little-endian).
void pack(const Inst& in, ExecContext& ctx) {
  const unsigned n = in.num_src, w = bit_width(in.type2);
  const uint64_t mask = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
  const Dst d(ctx, in.dst(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    uint64_t r = 0;
    for (unsigned i = 0; i < n; ++i) r |= (Src(ctx, in.src(i)).bits(l) & mask) << (w * i);
    d.put_bits(l, r);
  });
}

// mov {a, b, ...}, d: the inverse of pack; a sink `_` (kind None) is skipped.
void unpack(const Inst& in, ExecContext& ctx) {
  const unsigned n = in.num_dst, w = bit_width(in.type2);
  const uint64_t mask = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint64_t v = a.bits(l);  // read before any destination is written
    for (unsigned i = 0; i < n; ++i) {
      if (in.dst(i).kind == Operand::Kind::Reg) {
        Dst(ctx, in.dst(i)).put_bits(l, (v >> (w * i)) & mask);
      }
    }
  });
}

ExecFn select_mov(const Inst& in, std::string& why) {
  if (!no_rounding(in, why) || !flags_allowed(in, 0, why)) return nullptr;
  const bool is_pack = in.op == Op::Pack || (in.op == Op::Mov && in.num_src > 1);
  const bool is_unpack = in.op == Op::Unpack || (in.op == Op::Mov && in.num_dst > 1);
  if (is_pack || is_unpack) {
    const unsigned n = is_pack ? in.num_src : in.num_dst;
    const unsigned whole = bit_width(in.type), part = bit_width(in.type2);
    if (whole > 64 || n < 2 || part * n != whole) {
      return reject(
          why, in,
          "cannot be split into " + std::to_string(n) + " elements of " + type_suffix(in.type2));
    }
    if (is_pack) return operands_are(in, 1, n, why) ? &pack : nullptr;
    for (unsigned i = 0; i < n; ++i) {
      if (in.dst(i).kind != Operand::Kind::Reg && in.dst(i).kind != Operand::Kind::None) {
        return reject(why, in, "unpack destinations must be registers or _");
      }
    }
    if (in.num_src != 1) return reject(why, in, "unpack takes one source");
    return &unpack;
  }
  if (!operands_are(in, 1, 1, why)) return nullptr;
  switch (in.type) {
    case ScalarType::Pred:
      return &mov<bool>;
    case ScalarType::F16:
    case ScalarType::BF16:
      return &mov<uint16_t>;
    case ScalarType::F32:
    case ScalarType::F16x2:
    case ScalarType::BF16x2:
      return &mov<uint32_t>;
    case ScalarType::F64:
      return &mov<uint64_t>;
    default:
      break;
  }
  if (bit_width(in.type) < 16 || bit_width(in.type) > 64) {
    return reject(why, in, "unsupported type");
  }
  return dispatch_int(in.type,
                      [](auto tag) -> ExecFn { return &mov<typename decltype(tag)::type>; });
}

}  // namespace

ExecFn select_convert(const Inst& in, std::string& why) {
  return in.op == Op::Cvt ? select_cvt(in, why) : select_mov(in, why);
}

}  // namespace gpusoc::ptx::sem
