#include "models/ptx/types.h"

#include <array>
#include <utility>

namespace gpusoc::ptx {
namespace {

constexpr std::array<std::pair<std::string_view, ScalarType>, 20> kTypeNames{{
    {"b8", ScalarType::B8},     {"b16", ScalarType::B16},       {"b32", ScalarType::B32},
    {"b64", ScalarType::B64},   {"b128", ScalarType::B128},     {"u8", ScalarType::U8},
    {"u16", ScalarType::U16},   {"u32", ScalarType::U32},       {"u64", ScalarType::U64},
    {"s8", ScalarType::S8},     {"s16", ScalarType::S16},       {"s32", ScalarType::S32},
    {"s64", ScalarType::S64},   {"f16", ScalarType::F16},       {"f16x2", ScalarType::F16x2},
    {"bf16", ScalarType::BF16}, {"bf16x2", ScalarType::BF16x2}, {"f32", ScalarType::F32},
    {"f64", ScalarType::F64},   {"pred", ScalarType::Pred},
}};

constexpr std::array<std::pair<std::string_view, StateSpace>, 9> kSpaceNames{{
    {"reg", StateSpace::Reg},
    {"sreg", StateSpace::Sreg},
    {"const", StateSpace::Const},
    {"global", StateSpace::Global},
    {"local", StateSpace::Local},
    {"param", StateSpace::Param},
    {"shared", StateSpace::Shared},
    {"tex", StateSpace::Tex},
    {"generic", StateSpace::Generic},
}};

std::string_view strip_dot(std::string_view word) {
  if (!word.empty() && word.front() == '.') word.remove_prefix(1);
  return word;
}

}  // namespace


bool is_signed(ScalarType t) {
  return t == ScalarType::S8 || t == ScalarType::S16 || t == ScalarType::S32 ||
         t == ScalarType::S64;
}

bool is_float(ScalarType t) {
  return t == ScalarType::F16 || t == ScalarType::F16x2 || t == ScalarType::BF16 ||
         t == ScalarType::BF16x2 || t == ScalarType::F32 || t == ScalarType::F64;
}

bool is_bits(ScalarType t) {
  return t == ScalarType::B8 || t == ScalarType::B16 || t == ScalarType::B32 ||
         t == ScalarType::B64 || t == ScalarType::B128;
}

std::optional<ScalarType> parse_scalar_type(std::string_view word) {
  word = strip_dot(word);
  for (const auto& [name, type] : kTypeNames) {
    if (name == word) return type;
  }
  return std::nullopt;
}

std::optional<StateSpace> parse_state_space(std::string_view word) {
  word = strip_dot(word);
  // The explicit CTA window of .shared is the plain .shared space.
  if (word == "shared::cta") return StateSpace::Shared;
  for (const auto& [name, space] : kSpaceNames) {
    if (name == word) return space;
  }
  return std::nullopt;
}

std::string_view to_string(ScalarType t) {
  for (const auto& [name, type] : kTypeNames) {
    if (type == t) return name;
  }
  return "none";
}

std::string_view to_string(StateSpace s) {
  for (const auto& [name, space] : kSpaceNames) {
    if (space == s) return name;
  }
  return "none";
}

}  // namespace gpusoc::ptx
