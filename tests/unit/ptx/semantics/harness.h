// Test harness for the semantic handlers: a warp's register file, an Inst builder and helpers to
// evaluate one instruction on given operand values.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "models/ptx/inst.h"
#include "models/ptx/semantics/semantics.h"

namespace gpusoc::ptx::test {

constexpr unsigned kNumRegs = 16;
constexpr uint32_t kDst = 8, kDst2 = 9;  // destination registers used by the builder
constexpr uint64_t kPoison = 0xdeadbeefcafef00dull;

/// A warp's registers (every register of every lane starts as kPoison) and its masks.
struct Warp {
  std::vector<uint64_t> regs = std::vector<uint64_t>(kNumRegs * kWarpSize, kPoison);
  ExecContext ctx{regs.data(), kFullMask, kFullMask};

  uint64_t& at(uint32_t reg, unsigned lane) { return regs[reg * kWarpSize + lane]; }
  template <class F>
  void set(uint32_t reg, F&& value_of_lane) {
    for (unsigned l = 0; l < kWarpSize; ++l) at(reg, l) = uint64_t(value_of_lane(l));
  }
  void set_all(uint32_t reg, uint64_t v) {
    set(reg, [v](unsigned) { return v; });
  }
};

/// Builds an Inst: destinations are registers kDst, kDst2 (or a sink); sources are registers
/// 1, 2, ... in order unless given as immediates.
class I {
 public:
  explicit I(Op op, ScalarType type = ScalarType::None) {
    in_.op = op;
    in_.type = type;
  }
  I& type2(ScalarType t) { return in_.type2 = t, *this; }
  I& sub(uint8_t s) { return in_.sub = s, *this; }
  template <class E>
  I& mode(E e) {
    return in_.sub = uint8_t(e), *this;
  }
  I& sub2(uint8_t s) { return in_.sub2 = s, *this; }
  I& rnd(Rounding r) { return in_.rounding = r, *this; }
  I& flags(uint16_t f) { return in_.flags |= f, *this; }
  I& dsts(unsigned n) {
    for (unsigned i = 0; i < n; ++i) dst_.push_back(reg(kDst + i));
    if (n == 2) in_.flags |= kPredOut;
    return *this;
  }
  I& dst_reg(uint32_t r) { return dst_.push_back(reg(r)), *this; }
  I& sink() { return dst_.push_back(Operand{}), *this; }
  /// n register sources: registers 1..n.
  I& srcs(unsigned n) {
    for (unsigned i = 0; i < n; ++i) src_.push_back(reg(uint32_t(src_.size() + 1)));
    return *this;
  }
  I& src_reg(uint32_t r, bool negate = false) {
    Operand o = reg(r);
    o.negate = negate;
    return src_.push_back(o), *this;
  }
  I& imm(uint64_t v) {
    Operand o;
    o.kind = Operand::Kind::Imm;
    o.imm = v;
    return src_.push_back(o), *this;
  }
  Inst build() const {
    Inst in = in_;
    in.num_dst = uint8_t(dst_.size());
    in.num_src = uint8_t(src_.size());
    unsigned k = 0;
    for (const Operand& o : dst_) in.ops[k++] = o;
    for (const Operand& o : src_) in.ops[k++] = o;
    return in;
  }
  operator Inst() const { return build(); }

 private:
  static Operand reg(uint32_t r) {
    Operand o;
    o.kind = Operand::Kind::Reg;
    o.reg = r;
    return o;
  }
  Inst in_;
  std::vector<Operand> dst_, src_;
};

/// The handler for `in`; fails the test (naming select_handler's reason) when there is none.
inline ExecFn handler(const Inst& in) {
  std::string why;
  ExecFn fn = select_handler(in, why);
  EXPECT_NE(fn, nullptr) << why;
  EXPECT_TRUE(fn == nullptr || why.empty()) << why;
  return fn;
}

/// Why select_handler rejects `in` (empty when it accepts it).
inline std::string rejection(const Inst& in) {
  std::string why;
  const ExecFn fn = select_handler(in, why);
  EXPECT_EQ(fn, nullptr) << "accepted";
  return why;
}

inline void run(const Inst& in, Warp& w) {
  if (ExecFn fn = handler(in)) fn(in, w.ctx);
}

/// Runs `in` with register source i + 1 holding srcs[i] in every lane; returns destination
/// `which` of lane 0 after checking that every lane computed the same.
inline uint64_t eval(const Inst& in, std::initializer_list<uint64_t> srcs, unsigned which = 0) {
  Warp w;
  uint32_t r = 1;
  for (uint64_t v : srcs) w.set_all(r++, v);
  run(in, w);
  const uint32_t d = in.ops[which].reg;
  for (unsigned l = 1; l < kWarpSize; ++l) EXPECT_EQ(w.at(d, l), w.at(d, 0)) << "lane " << l;
  return w.at(d, 0);
}

inline uint64_t f32(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}
inline uint64_t f64(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}
inline float as_f32(uint64_t b) {
  const uint32_t u = uint32_t(b);
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
inline double as_f64(uint64_t b) {
  double x;
  std::memcpy(&x, &b, 8);
  return x;
}
/// Register value of a signed 32-bit result (sign-extended).
inline uint64_t s32(int32_t v) {
  return uint64_t(int64_t(v));
}
inline uint64_t s64(int64_t v) {
  return uint64_t(v);
}

/// A deterministic 64-bit generator (splitmix64) for sweeps.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

constexpr uint64_t kCanonNaN32 = 0x7fffffff;

}  // namespace gpusoc::ptx::test
