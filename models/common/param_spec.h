// The type-erased declaration of one parameter, as the registry keeps it. Models do
// not build these by hand: they declare a Param<T> (param.h), which makes one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "models/common/constraint.h"

namespace gpusoc {

enum class ParamType { kBool, kInt32, kUint32, kInt64, kUint64, kFloat, kString };

// "bool", "int32", "uint32", "int64", "uint64", "float", "string".
std::string_view type_name(ParamType type);

// The ParamType of a C++ type; only the types above are parameters.
template <typename T>
constexpr ParamType param_type_of() {
  if constexpr (std::is_same_v<T, bool>)
    return ParamType::kBool;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return ParamType::kInt32;
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return ParamType::kUint32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return ParamType::kInt64;
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return ParamType::kUint64;
  else if constexpr (std::is_same_v<T, double>)
    return ParamType::kFloat;
  else {
    static_assert(std::is_same_v<T, std::string>,
                  "parameters are bool, (u)int32_t, (u)int64_t, double or std::string");
    return ParamType::kString;
  }
}

struct ParamSpec {
  std::string name;  // hierarchical, dotted: "mempart.dram.tRCD"
  ParamType type;
  nlohmann::json default_value;
  std::string unit;  // "" when dimensionless
  std::string description;
  Constraint constraint;

  // Why `value` is unacceptable: wrong JSON type, does not fit the C++ type, or breaks
  // the constraint. A sentence naming the parameter; nullopt when acceptable.
  std::optional<std::string> violation(const nlohmann::json& value) const;

  // `value` (acceptable) in the one JSON form stored for this type, so that 1350 and
  // 1350.0 for a float parameter dump alike.
  nlohmann::json normalized(const nlohmann::json& value) const;
};

}  // namespace gpusoc
