// Internal to semantics/: typed register access, the lane loop and type dispatch shared by all
// handler families.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "models/ptx/inst.h"

namespace gpusoc::ptx::sem {

/// Runs f(lane) for every lane in `exec`; a full warp takes the branch-free path.
template <class F>
inline void for_each_lane(LaneMask exec, F&& f) {
  if (exec == kFullMask) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) f(lane);
  } else {
    for (LaneMask m = exec; m; m &= m - 1) f(unsigned(__builtin_ctz(m)));
  }
}

template <class T>
using UnsignedOf = std::make_unsigned_t<T>;

template <class T>
inline T from_bits(uint64_t v) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    const U u = U(v);
    T f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  } else {
    return T(v);  // integers: the low bits (modular narrowing)
  }
}

/// The register-value convention: signed values sign-extend, everything else zero-extends.
template <class T>
inline uint64_t to_bits(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> u;
    std::memcpy(&u, &v, sizeof u);
    return u;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? 1 : 0;
  } else if constexpr (std::is_signed_v<T>) {
    return uint64_t(int64_t(v));
  } else {
    return uint64_t(v);
  }
}

/// A source operand resolved once per warp instruction: a register row of the frame, or an
/// immediate that every lane reads (index mask 0), so the lane loop does no operand decoding.
class Src {
 public:
  Src(const ExecContext& c, const Operand& o)
      : p_(o.kind == Operand::Kind::Reg ? c.regs + size_t(o.reg) * kWarpSize : &o.imm),
        mask_(o.kind == Operand::Kind::Reg ? kWarpSize - 1 : 0),
        negate_(o.negate) {}
  Src(const ExecContext& c, uint32_t reg) : p_(c.regs + size_t(reg) * kWarpSize) {}

  uint64_t bits(unsigned lane) const { return p_[lane & mask_]; }
  /// The operand as T; a predicate (bool) honours `!p`.
  template <class T>
  T get(unsigned lane) const {
    if constexpr (std::is_same_v<T, bool>) {
      return ((bits(lane) & 1) != 0) != negate_;
    } else {
      return from_bits<T>(bits(lane));
    }
  }

 private:
  const uint64_t* p_;
  unsigned mask_ = kWarpSize - 1;
  bool negate_ = false;
};

/// A destination register row; put() applies the register-value convention.
class Dst {
 public:
  Dst(ExecContext& c, const Operand& o) : Dst(c, o.reg) {}
  Dst(ExecContext& c, uint32_t reg) : p_(c.regs + size_t(reg) * kWarpSize) {}

  template <class T>
  void put(unsigned lane, T v) const {
    p_[lane] = to_bits(v);
  }
  void put_bits(unsigned lane, uint64_t v) const { p_[lane] = v; }

 private:
  uint64_t* p_;
};

template <class T>
struct Tag {
  using type = T;
};

/// Calls f(Tag<T>{}) with the C++ type holding integer/bit type `t` and returns its handler;
/// nullptr for non-integer types.
template <class F>
inline ExecFn dispatch_int(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::B8:
    case ScalarType::U8:
      return f(Tag<uint8_t>{});
    case ScalarType::S8:
      return f(Tag<int8_t>{});
    case ScalarType::B16:
    case ScalarType::U16:
      return f(Tag<uint16_t>{});
    case ScalarType::S16:
      return f(Tag<int16_t>{});
    case ScalarType::B32:
    case ScalarType::U32:
      return f(Tag<uint32_t>{});
    case ScalarType::S32:
      return f(Tag<int32_t>{});
    case ScalarType::B64:
    case ScalarType::U64:
      return f(Tag<uint64_t>{});
    case ScalarType::S64:
      return f(Tag<int64_t>{});
    default:
      return nullptr;
  }
}

/// As dispatch_int, for .f32 and .f64.
template <class F>
inline ExecFn dispatch_float(ScalarType t, F&& f) {
  switch (t) {
    case ScalarType::F32:
      return f(Tag<float>{});
    case ScalarType::F64:
      return f(Tag<double>{});
    default:
      return nullptr;
  }
}

/// Turns a runtime enum value into a compile-time one: f(std::integral_constant<E, v>{}).
template <class E, E... kValues, class F>
inline ExecFn dispatch_enum(E v, F&& f) {
  ExecFn fn = nullptr;
  ((v == kValues ? (fn = f(std::integral_constant<E, kValues>{}), true) : false) || ...);
  return fn;
}

template <class F>
inline ExecFn dispatch_bool(bool b, F&& f) {
  return b ? f(std::true_type{}) : f(std::false_type{});
}

// Small type predicates (constexpr, so they also serve templates).
constexpr unsigned bit_width(ScalarType t) {
  return t == ScalarType::Pred ? 1 : type_size(t) * 8;
}
constexpr bool is_int_type(ScalarType t) {
  return t >= ScalarType::B8 && t <= ScalarType::S64 && t != ScalarType::B128;
}
constexpr bool is_signed_int(ScalarType t) {
  return t >= ScalarType::S8 && t <= ScalarType::S64;
}
constexpr bool is_half_type(ScalarType t) {
  return t == ScalarType::F16 || t == ScalarType::F16x2 || t == ScalarType::BF16 ||
         t == ScalarType::BF16x2;
}
constexpr bool is_float_type(ScalarType t) {
  return t == ScalarType::F32 || t == ScalarType::F64 || is_half_type(t);
}

}  // namespace gpusoc::ptx::sem
