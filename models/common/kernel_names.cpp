#include "models/common/kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace gpusoc {
namespace {

// The position of the bracket that opens the balanced group closing at `close` (a ')' or '>').
size_t opening_of(const std::string& s, size_t close) {
  const char c = s[close], o = c == ')' ? '(' : '<';
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (s[i] == c) ++depth;
    if (s[i] == o && --depth == 0) return i;
  }
  return std::string::npos;
}

// `s` without what follows the last top-level occurrence of `separator` (exclusive); the part
// after it.
std::string after_last_top_level(const std::string& s, const std::string& separator) {
  int depth = 0;
  size_t cut = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' || s[i] == '(') ++depth;
    if (s[i] == '>' || s[i] == ')') --depth;
    if (depth == 0 && s.compare(i, separator.size(), separator) == 0) cut = i + separator.size();
  }
  return s.substr(cut);
}

std::string listing(const std::vector<std::string>& names, const std::vector<size_t>& which) {
  std::string text;
  for (size_t i : which) {
    const std::string signature = demangle(names[i]);
    text += "\n  " + names[i] + (signature != names[i] ? " (" + signature + ")" : "");
  }
  return text;
}

}  // namespace

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

KernelNameForms kernel_name_forms(const std::string& mangled) {
  KernelNameForms f;
  f.mangled = mangled;
  f.signature = demangle(mangled);
  std::string name = f.signature;
  if (!name.empty() && name.back() == ')') {
    const size_t open = opening_of(name, name.size() - 1);
    if (open != std::string::npos) name = name.substr(0, open);
  }
  f.qualified = after_last_top_level(name, " ");  // a template's return type goes
  f.templated = after_last_top_level(f.qualified, "::");
  f.plain = f.templated;
  if (!f.plain.empty() && f.plain.back() == '>') {
    const size_t open = opening_of(f.plain, f.plain.size() - 1);
    if (open != std::string::npos) f.plain = f.plain.substr(0, open);
  }
  return f;
}

KernelLookup find_kernel(const std::vector<std::string>& mangled_names, std::string_view query,
                         const std::string& module) {
  std::vector<KernelNameForms> forms;
  for (const std::string& n : mangled_names) forms.push_back(kernel_name_forms(n));
  using Form = std::string KernelNameForms::*;
  for (Form form :
       {&KernelNameForms::mangled, &KernelNameForms::signature, &KernelNameForms::qualified,
        &KernelNameForms::templated, &KernelNameForms::plain}) {
    std::vector<size_t> matches;
    for (size_t i = 0; i < forms.size(); ++i)
      if (forms[i].*form == query) matches.push_back(i);
    if (matches.size() == 1) return KernelLookup{matches[0], ""};
    if (matches.size() > 1) {
      return KernelLookup{KernelLookup::kNotFound,
                          "kernel name '" + std::string(query) + "' is ambiguous in module " +
                              module + "; it names" + listing(mangled_names, matches)};
    }
  }
  std::vector<size_t> all(mangled_names.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return KernelLookup{KernelLookup::kNotFound, "module " + module + " has no kernel '" +
                                                   std::string(query) +
                                                   "'; its kernels:" + listing(mangled_names, all)};
}

}  // namespace gpusoc
