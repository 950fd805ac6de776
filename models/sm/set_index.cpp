#include "models/sm/set_index.h"

#include <map>

namespace gpusoc::sm {
namespace {

std::map<std::string, SetIndexFunction>& registry() {
  static std::map<std::string, SetIndexFunction> functions;
  return functions;
}

// The line number modulo the sets: lines a power-of-two stride apart share few sets (rows 4 KB
// apart fall into 4 of 128 sets of 128-byte lines).
uint32_t modulo(uint64_t line, uint32_t sets) {
  return uint32_t(line % sets);
}

// The line number's higher bits folded onto the index bits by XOR, then modulo the sets: strides
// of any power of two spread over every set, while consecutive lines still take consecutive
// sets. GPU caches hash their set index in some such way; the exact functions are not published.
uint32_t xor_fold(uint64_t line, uint32_t sets) {
  const unsigned bits = sets > 1 ? 64 - unsigned(__builtin_clzll(sets - 1)) : 1;
  uint64_t folded = 0;
  for (uint64_t rest = line; rest != 0; rest >>= bits) folded ^= rest;
  return uint32_t(folded % sets);
}

const SetIndexRegistration kModulo{"modulo", modulo};
const SetIndexRegistration kXor{"xor", xor_fold};

}  // namespace

SetIndexRegistration::SetIndexRegistration(const char* name, SetIndexFunction function) {
  registry()[name] = function;
}

SetIndexFunction find_set_index(const std::string& name) {
  const auto it = registry().find(name);
  return it == registry().end() ? nullptr : it->second;
}

std::vector<std::string> set_index_names() {
  std::vector<std::string> names;
  for (const auto& [name, function] : registry()) names.push_back(name);
  return names;
}

}  // namespace gpusoc::sm
