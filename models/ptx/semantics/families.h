// Internal to semantics/: the per-family handler selectors that select_handler() dispatches to,
// and the helpers they share for explaining a rejection.
#pragma once

#include <string>

#include "models/ptx/inst.h"

namespace gpusoc::ptx::sem {

ExecFn select_integer(const Inst& in, std::string& why);  // add..max, mul24, mad24, sad, div, rem
ExecFn select_float(const Inst& in, std::string& why);    // f32/f64 arithmetic, min/max
ExecFn select_half(const Inst& in, std::string& why);     // f16/bf16 (and x2) arithmetic
ExecFn select_sfu(const Inst& in, std::string& why);      // rcp..tanh, copysign, testp
ExecFn select_compare(const Inst& in, std::string& why);  // setp, set, selp, slct
ExecFn select_bits(const Inst& in, std::string& why);     // logic, shifts, bit fields, prmt, dp
ExecFn select_convert(const Inst& in, std::string& why);  // cvt, mov, pack, unpack
ExecFn select_warp_level(const Inst& in, std::string& why);  // shfl, vote, activemask, redux, match

/// "add.s32"-style spelling of the instruction's opcode and type, for messages.
std::string inst_name(const Inst& in);
/// Sets why = "<inst_name>: <reason>" and returns nullptr.
ExecFn reject(std::string& why, const Inst& in, const std::string& reason);
/// Rejects (returning false) when `in` carries a flag outside `allowed`, naming the modifier.
bool flags_allowed(const Inst& in, uint16_t allowed, std::string& why);
/// Rejects (returning false) unless `in` has `dst` register destinations and `src` sources.
bool operands_are(const Inst& in, unsigned dst, unsigned src, std::string& why);
/// Rejects (returning false) when `in` has a rounding modifier, which its op does not take.
bool no_rounding(const Inst& in, std::string& why);
/// Rejects (returning false) a rounding modifier other than .rn/.rz/.rm/.rp (none is allowed).
bool ieee_rounding(const Inst& in, std::string& why);
const char* type_suffix(ScalarType t);    // ".u32"
const char* rounding_suffix(Rounding r);  // ".rn"

}  // namespace gpusoc::ptx::sem
