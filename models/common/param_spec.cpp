#include "models/common/param_spec.h"

#include <limits>

#include <fmt/format.h>

namespace gpusoc {
namespace {

// long double represents every int64 and uint64 exactly, so the bounds compare exactly.
template <typename T>
bool fits(const nlohmann::json& value) {
  const long double v = value.is_number_unsigned()
                            ? static_cast<long double>(value.get<std::uint64_t>())
                            : static_cast<long double>(value.get<std::int64_t>());
  return v >= static_cast<long double>(std::numeric_limits<T>::min()) &&
         v <= static_cast<long double>(std::numeric_limits<T>::max());
}

bool fits_type(ParamType type, const nlohmann::json& value) {
  switch (type) {
    case ParamType::kInt32:
      return fits<std::int32_t>(value);
    case ParamType::kUint32:
      return fits<std::uint32_t>(value);
    case ParamType::kInt64:
      return fits<std::int64_t>(value);
    case ParamType::kUint64:
      return fits<std::uint64_t>(value);
    default:
      return true;
  }
}

bool is_integer_type(ParamType type) {
  return type == ParamType::kInt32 || type == ParamType::kUint32 || type == ParamType::kInt64 ||
         type == ParamType::kUint64;
}

bool has_json_type(ParamType type, const nlohmann::json& value) {
  switch (type) {
    case ParamType::kBool:
      return value.is_boolean();
    case ParamType::kFloat:
      return value.is_number();
    case ParamType::kString:
      return value.is_string();
    default:
      return value.is_number_integer();
  }
}

// "string \"32\"", "number 32.5", "boolean true", "object", "null".
std::string describe_json(const nlohmann::json& value) {
  if (value.is_structured() || value.is_null()) return value.type_name();
  return fmt::format("{} {}", value.type_name(), value.dump());
}

}  // namespace

std::string_view type_name(ParamType type) {
  switch (type) {
    case ParamType::kBool:
      return "bool";
    case ParamType::kInt32:
      return "int32";
    case ParamType::kUint32:
      return "uint32";
    case ParamType::kInt64:
      return "int64";
    case ParamType::kUint64:
      return "uint64";
    case ParamType::kFloat:
      return "float";
    case ParamType::kString:
      return "string";
  }
  return "?";
}

std::optional<std::string> ParamSpec::violation(const nlohmann::json& value) const {
  if (!has_json_type(type, value)) {
    return fmt::format("{}: expected {}, got {}", name, type_name(type), describe_json(value));
  }
  if (!fits_type(type, value)) {
    return fmt::format("{} = {} does not fit in {}", name, value.dump(), type_name(type));
  }
  return constraint.violation(name, normalized(value));
}

nlohmann::json ParamSpec::normalized(const nlohmann::json& value) const {
  if (type == ParamType::kFloat) return value.get<double>();
  if (is_integer_type(type) && value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (is_integer_type(type)) return value.get<std::int64_t>();
  return value;
}

}  // namespace gpusoc
