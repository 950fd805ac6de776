// Logic, shifts and bit manipulation: and, or, xor, not, cnot, shl, shr, shf, bfe, bfi, bfind,
// bmsk, brev, clz, popc, prmt, and the byte dot products dp4a, dp2a, vabsdiff4.
#include <algorithm>

#include "models/ptx/semantics/families.h"
#include "models/ptx/semantics/lanes.h"

namespace gpusoc::ptx::sem {
namespace {

template <class T>
constexpr unsigned kWidth = 8 * sizeof(T);

/// k low bits set (k may equal the width).
template <class U>
inline U low_mask(unsigned k) {
  return k >= kWidth<U> ? U(~U(0)) : U((U(1) << k) - 1);
}

template <class T, Op O>
void logic(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T x = a.get<T>(l), y = b.get<T>(l);
    d.put(l, T(O == Op::And ? x & y : O == Op::Or ? x | y : x ^ y));
  });
}

template <class T, bool kCnot>
void not_cnot(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T x = a.get<T>(l);
    if constexpr (std::is_same_v<T, bool>) {
      d.put(l, !x);
    } else {
      d.put(l, kCnot ? T(x == 0) : T(~x));
    }
  });
}

// Shift amounts are unsigned 32-bit; at or beyond the width, shl and shr.u give 0 and shr.s
// fills with the sign.
template <class T, bool kLeft>
void shift(const Inst& in, ExecContext& ctx) {
  using U = UnsignedOf<T>;
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T x = a.get<T>(l);
    const uint32_t n = b.get<uint32_t>(l);
    T r;
    if (n >= kWidth<T>) {
      r = !kLeft && x < T(0) ? T(-1) : T(0);
    } else if constexpr (kLeft) {
      r = T(uint64_t(U(x)) << n);
    } else {
      r = T(x >> n);  // arithmetic for signed T
    }
    d.put(l, r);
  });
}

// shf: funnel shift of the 64-bit b:a by c, clamped to 32 or wrapped mod 32.
template <bool kLeft, bool kWrap>
void shf(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint64_t v = uint64_t(b.get<uint32_t>(l)) << 32 | a.get<uint32_t>(l);
    const uint32_t s = c.get<uint32_t>(l);
    const uint32_t n = kWrap ? s & 31 : std::min(s, 32u);
    d.put(l, uint32_t(kLeft ? (v << n) >> 32 : v >> n));
  });
}

/// Bits of a field at `pos` of length `len` that lie inside a `width`-bit value.
inline unsigned field_bits(unsigned pos, unsigned len, unsigned width) {
  return pos < width ? std::min(len, width - pos) : 0;
}

// bfe: pos and len are the low 8 bits of b and c; signed types fill with the field's top bit
// (bit min(pos + len - 1, msb) of a), unsigned types and len == 0 with zero.
template <class T>
void bfe(const Inst& in, ExecContext& ctx) {
  using U = UnsignedOf<T>;
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const U x = U(a.get<T>(l));
    const unsigned pos = b.get<uint32_t>(l) & 0xff, len = c.get<uint32_t>(l) & 0xff;
    const unsigned k = field_bits(pos, len, kWidth<T>);
    U r = k ? U(x >> pos) & low_mask<U>(k) : U(0);
    if (std::is_signed_v<T> && len != 0 &&
        ((x >> std::min(pos + len - 1, kWidth<T> - 1)) & 1) != 0) {
      r |= U(~low_mask<U>(k));
    }
    d.put(l, T(r));
  });
}

// bfi f, a, b, c, d: b with a's low bits inserted at pos c, length d (clipped at the msb).
template <class T>
void bfi(const Inst& in, ExecContext& ctx) {
  using U = UnsignedOf<T>;
  const Dst f(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2)), d(ctx, in.src(3));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const unsigned pos = c.get<uint32_t>(l) & 0xff, len = d.get<uint32_t>(l) & 0xff;
    const U base = U(b.get<T>(l));
    const unsigned k = field_bits(pos, len, kWidth<T>);
    if (k == 0) return f.put(l, T(base));
    const U mask = U(low_mask<U>(k) << pos);
    f.put(l, T((base & U(~mask)) | (U(U(a.get<T>(l)) << pos) & mask)));
  });
}

/// Index of the most significant set bit; -1 for 0.
template <class U>
inline int msb_index(U x) {
  return x == 0 ? -1 : 63 - __builtin_clzll(uint64_t(x));
}

// bfind: position of the most significant non-sign bit, 0xffffffff when there is none;
// .shiftamt gives the left shift that brings it to the msb instead.
template <class T, bool kShiftAmount>
void bfind(const Inst& in, ExecContext& ctx) {
  using U = UnsignedOf<T>;
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const T v = a.get<T>(l);
    const int i = msb_index(U(v < T(0) ? ~U(v) : U(v)));
    uint32_t r = 0xffffffffu;
    if (i >= 0) r = kShiftAmount ? kWidth<T> - 1 - unsigned(i) : unsigned(i);
    d.put(l, r);
  });
}

// bmsk: a mask of b bits starting at bit a (PTX pseudo-code: .clamp zeroes out-of-range
// positions and widths, .wrap takes both mod 32).
template <bool kWrap>
void bmsk(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint32_t pos = a.get<uint32_t>(l), width = b.get<uint32_t>(l);
    const uint32_t p = pos & 31, w = width & 31;
    const bool overflow = p + w >= 32 || (!kWrap && (pos >= 32 || width >= 32));
    const uint32_t mask0 = !kWrap && pos >= 32 ? 0 : ~0u << p;
    const uint32_t mask1 = overflow ? 0 : w == 0 ? ~0u : ~0u << (p + w);
    d.put(l, mask0 & ~mask1);
  });
}

enum class BitCount : uint8_t { Brev, Clz, Popc };

template <class T, BitCount K>
void bit_count(const Inst& in, ExecContext& ctx) {
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint64_t x = uint64_t(UnsignedOf<T>(a.get<T>(l)));
    if constexpr (K == BitCount::Popc) {
      d.put(l, uint32_t(__builtin_popcountll(x)));
    } else if constexpr (K == BitCount::Clz) {
      d.put(l, uint32_t(kWidth<T> - 1 - msb_index(x)));
    } else {
      uint64_t r = 0;
      for (unsigned i = 0; i < kWidth<T>; ++i) r |= ((x >> i) & 1) << (kWidth<T> - 1 - i);
      d.put(l, T(r));
    }
  });
}

// Byte selectors of the prmt modes (PTX ISA tables), one nibble per destination byte, indexed
// by mode and c[1:0]; the generic form reads the four nibbles from c[15:0].
constexpr uint16_t kPrmtSelectors[6][4] = {
    {0x3210, 0x4321, 0x5432, 0x6543},  // .f4e: forward 4 extract
    {0x5670, 0x6701, 0x7012, 0x0123},  // .b4e: backward 4 extract
    {0x0000, 0x1111, 0x2222, 0x3333},  // .rc8: replicate 8
    {0x3210, 0x3211, 0x3222, 0x3333},  // .ecl: edge clamp left
    {0x0000, 0x1110, 0x2210, 0x3210},  // .ecr: edge clamp right
    {0x1010, 0x3232, 0x1010, 0x3232},  // .rc16: replicate 16
};

void prmt(const Inst& in, ExecContext& ctx) {
  const auto mode = PrmtMode(in.sub);
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint64_t bytes = uint64_t(b.get<uint32_t>(l)) << 32 | a.get<uint32_t>(l);
    const uint32_t sel = c.get<uint32_t>(l);
    const uint32_t ctl = mode == PrmtMode::None ? sel : kPrmtSelectors[int(mode) - 1][sel & 3];
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned s = (ctl >> (4 * i)) & 0xf;
      uint32_t byte = uint32_t(bytes >> (8 * (s & 7))) & 0xff;
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;  // sign replication (generic form only)
      r |= byte << (8 * i);
    }
    d.put(l, r);
  });
}

/// Element i of a packed 32-bit value, as the signed or unsigned E.
template <class E>
inline int32_t element(uint32_t v, unsigned i) {
  return E(v >> (8 * sizeof(E) * i));
}

// dp4a / dp2a (`type` is a's type, `type2` b's): c plus the dot product of a's and b's packed
// elements, mod 2^32. dp2a takes a's two 16-bit elements against bytes 0-1 (.lo) or 2-3 (.hi) of b.
template <class A, class B, unsigned kBOffset>
void dot(const Inst& in, ExecContext& ctx) {
  constexpr unsigned kN = 4 / sizeof(A);
  constexpr bool kSigned = std::is_signed_v<A> || std::is_signed_v<B>;
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint32_t x = a.get<uint32_t>(l), y = b.get<uint32_t>(l);
    uint32_t r = c.get<uint32_t>(l);
    for (unsigned i = 0; i < kN; ++i) {
      r += uint32_t(int64_t(element<A>(x, i)) * element<B>(y, i + kBOffset));
    }
    if constexpr (kSigned) {
      d.put(l, int32_t(r));
    } else {
      d.put(l, r);
    }
  });
}

// vabsdiff4: per-byte |a - b|; with .add, their sum plus c, otherwise packed into d. `type` is
// the destination type and `type2` the source type (a and b alike).
template <class E, bool kAdd>
void vabsdiff4(const Inst& in, ExecContext& ctx) {
  const bool signed_d = in.type == ScalarType::S32;
  const Dst d(ctx, in.dst(0));
  const Src a(ctx, in.src(0)), b(ctx, in.src(1)), c(ctx, in.src(2));
  for_each_lane(ctx.exec, [&](unsigned l) {
    const uint32_t x = a.get<uint32_t>(l), y = b.get<uint32_t>(l);
    uint32_t r = kAdd ? c.get<uint32_t>(l) : 0;
    for (unsigned i = 0; i < 4; ++i) {
      const int32_t diff = element<E>(x, i) - element<E>(y, i);
      const uint32_t v = uint32_t(diff < 0 ? -diff : diff);
      r += kAdd ? v : (v & 0xff) << (8 * i);
    }
    d.put_bits(l, signed_d ? uint64_t(int64_t(int32_t(r))) : r);
  });
}

ExecFn select_dot(const Inst& in, std::string& why) {
  const auto is32 = [](ScalarType t) { return t == ScalarType::U32 || t == ScalarType::S32; };
  if (!is32(in.type) || !is32(in.type2)) return reject(why, in, "types must be .u32 or .s32");
  const bool sa = in.type == ScalarType::S32, sb = in.type2 == ScalarType::S32;
  if (in.op == Op::Vabsdiff4) {
    if (in.sub > 1) return reject(why, in, "unknown mode");
    if (in.sub) return sb ? &vabsdiff4<int8_t, true> : &vabsdiff4<uint8_t, true>;
    return sb ? &vabsdiff4<int8_t, false> : &vabsdiff4<uint8_t, false>;
  }
  if (in.op == Op::Dp4a) {
    if (sa) return sb ? &dot<int8_t, int8_t, 0> : &dot<int8_t, uint8_t, 0>;
    return sb ? &dot<uint8_t, int8_t, 0> : &dot<uint8_t, uint8_t, 0>;
  }
  const auto mode = MulMode(in.sub);
  if (mode != MulMode::Lo && mode != MulMode::Hi) return reject(why, in, "needs .lo or .hi");
  if (mode == MulMode::Hi) {
    if (sa) return sb ? &dot<int16_t, int8_t, 2> : &dot<int16_t, uint8_t, 2>;
    return sb ? &dot<uint16_t, int8_t, 2> : &dot<uint16_t, uint8_t, 2>;
  }
  if (sa) return sb ? &dot<int16_t, int8_t, 0> : &dot<int16_t, uint8_t, 0>;
  return sb ? &dot<uint16_t, int8_t, 0> : &dot<uint16_t, uint8_t, 0>;
}

}  // namespace

ExecFn select_bits(const Inst& in, std::string& why) {
  const ScalarType t = in.type;
  const Op op = in.op;
  const unsigned nsrc = op == Op::Bfi ? 4
                        : (op == Op::Shf || op == Op::Bfe || op == Op::Prmt || op == Op::Dp4a ||
                           op == Op::Dp2a || op == Op::Vabsdiff4)
                            ? 3
                        : (op == Op::Not || op == Op::Cnot || op == Op::Bfind || op == Op::Brev ||
                           op == Op::Clz || op == Op::Popc)
                            ? 1
                            : 2;
  if (!operands_are(in, 1, nsrc, why) || !no_rounding(in, why) ||
      !flags_allowed(in, op == Op::Bfind ? kShiftAmount : 0, why)) {
    return nullptr;
  }
  if (op == Op::Dp4a || op == Op::Dp2a || op == Op::Vabsdiff4) return select_dot(in, why);
  const bool pred = t == ScalarType::Pred;
  if (pred && (op == Op::And || op == Op::Or || op == Op::Xor || op == Op::Not)) {
    if (op == Op::Not) return &not_cnot<bool, false>;
    return op == Op::And  ? &logic<bool, Op::And>
           : op == Op::Or ? &logic<bool, Op::Or>
                          : &logic<bool, Op::Xor>;
  }
  const unsigned w = bit_width(t);
  if (!is_int_type(t) || w < 16) return reject(why, in, "needs a 16-, 32- or 64-bit type");
  const bool w32 = w == 32, w3264 = w >= 32;
  switch (op) {
    case Op::Shf:
    case Op::Bmsk:
    case Op::Prmt:
      if (!w32) return reject(why, in, "only .b32 is defined");
      if (op == Op::Bmsk) return in.sub ? &bmsk<true> : &bmsk<false>;
      if (op == Op::Prmt) {
        if (in.sub > uint8_t(PrmtMode::Rc16)) return reject(why, in, "unknown mode");
        return &prmt;
      }
      if (in.sub & kShfLeft) return in.sub & kShfWrap ? &shf<true, true> : &shf<true, false>;
      return in.sub & kShfWrap ? &shf<false, true> : &shf<false, false>;
    case Op::Bfe:
    case Op::Bfi:
    case Op::Bfind:
    case Op::Brev:
    case Op::Clz:
    case Op::Popc:
      if (!w3264) return reject(why, in, "only 32- and 64-bit types are defined");
      break;
    default:
      break;
  }
  const bool shamt = in.flags & kShiftAmount;
  return dispatch_int(t, [&](auto tag) -> ExecFn {
    using T = typename decltype(tag)::type;
    switch (op) {
      case Op::And:
        return &logic<T, Op::And>;
      case Op::Or:
        return &logic<T, Op::Or>;
      case Op::Xor:
        return &logic<T, Op::Xor>;
      case Op::Not:
        return &not_cnot<T, false>;
      case Op::Cnot:
        return &not_cnot<T, true>;
      case Op::Shl:
        return &shift<T, true>;
      case Op::Shr:
        return &shift<T, false>;
      case Op::Bfe:
        return &bfe<T>;
      case Op::Bfi:
        return &bfi<T>;
      case Op::Bfind:
        return shamt ? &bfind<T, true> : &bfind<T, false>;
      case Op::Brev:
        return &bit_count<T, BitCount::Brev>;
      case Op::Clz:
        return &bit_count<T, BitCount::Clz>;
      case Op::Popc:
        return &bit_count<T, BitCount::Popc>;
      default:
        return nullptr;
    }
  });
}

}  // namespace gpusoc::ptx::sem
