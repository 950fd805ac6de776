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
unsigned type_size(ScalarType t);
bool is_signed(ScalarType t);
bool is_float(ScalarType t);  // F16, F16x2, BF16, BF16x2, F32, F64
bool is_bits(ScalarType t);   // B8..B128
/// Parses ".u32", "u32" etc.; nullopt when the word is not a type.
std::optional<ScalarType> parse_scalar_type(std::string_view word);
std::optional<StateSpace> parse_state_space(std::string_view word);
std::string_view to_string(ScalarType t);
std::string_view to_string(StateSpace s);

}  // namespace gpusoc::ptx
