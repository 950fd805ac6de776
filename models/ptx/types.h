// Scalar types and state spaces of PTX, shared by the parser's AST and the decoded IR.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpusoc::ptx {

enum class ScalarType : uint8_t {
  None,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
  Pred,
};

enum class StateSpace : uint8_t { None, Reg, Sreg, Const, Global, Local, Param, Shared, Tex, Generic };

/// Size in bytes (Pred counts as 1; None as 0).
constexpr unsigned type_size(ScalarType t) {
  switch (t) {
    case ScalarType::None:
      return 0;
    case ScalarType::B8:
    case ScalarType::U8:
    case ScalarType::S8:
    case ScalarType::Pred:
      return 1;
    case ScalarType::B16:
    case ScalarType::U16:
    case ScalarType::S16:
    case ScalarType::F16:
    case ScalarType::BF16:
      return 2;
    case ScalarType::B32:
    case ScalarType::U32:
    case ScalarType::S32:
    case ScalarType::F32:
    case ScalarType::F16x2:
    case ScalarType::BF16x2:
      return 4;
    case ScalarType::B64:
    case ScalarType::U64:
    case ScalarType::S64:
    case ScalarType::F64:
      return 8;
    case ScalarType::B128:
      return 16;
  }
  return 0;
}
bool is_signed(ScalarType t);
/// A value of type `t` whose bits are the low type_size(t) bytes of `raw` (the rest zero), as a
/// register holds it: sign-extended to 64 bits for signed types.
inline uint64_t extend_to_register(uint64_t raw, ScalarType t) {
  const unsigned bits = type_size(t) * 8;
  if (bits >= 64 || !is_signed(t)) return raw;
  const uint64_t sign = uint64_t(1) << (bits - 1);
  return (raw ^ sign) - sign;
}
bool is_float(ScalarType t);  // F16, F16x2, BF16, BF16x2, F32, F64
bool is_bits(ScalarType t);   // B8..B128
/// Parses ".u32", "u32" etc.; nullopt when the word is not a type.
std::optional<ScalarType> parse_scalar_type(std::string_view word);
std::optional<StateSpace> parse_state_space(std::string_view word);
std::string_view to_string(ScalarType t);
std::string_view to_string(StateSpace s);

}  // namespace gpusoc::ptx
