// The implementations of one policy interface, by name: the factory that builds a policy from its
// configured name and the OneOf of the parameter that names it read the same table, so a name and
// its description are written once, beside the implementation.
//
// Each implementation file defines its Entry (a constant: name, one-line description, factory);
// the interface's catalog function lists the entries, one line each, in a function-local static.
// That line is the whole cost of adding a policy. (Not registration by static constructors in
// each file: gpusoc's libraries are static archives, from which the linker leaves out an object
// file that nothing refers to, registration and all; and a parameter's OneOf, itself built during
// static initialization, could run before some of them.)
//
//   // gto_scheduler.cpp
//   extern const WarpSchedulerRegistry::Entry kGtoScheduler{
//       "gto", "greedy-then-oldest", [](const WarpSchedulerOptions&) { ... }};
//   // warp_scheduler.cpp
//   const WarpSchedulerRegistry& warp_schedulers() {
//     static const WarpSchedulerRegistry r("sm.scheduler", "warp scheduler",
//                                          {kLrrScheduler, kGtoScheduler, kTwoLevelScheduler});
//     return r;
//   }
#pragma once

#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/error.h"

namespace gpusoc {

template <typename Interface, typename... Args>
class Registry {
 public:
  using Factory = std::unique_ptr<Interface> (*)(Args...);
  struct Entry {
    const char* name;
    const char* description;  // one line, for parameter docs
    Factory make;
  };

  /// `key`: the parameter that names the policy; `what`: the kind of policy, for errors.
  Registry(std::string key, std::string what, std::initializer_list<Entry> entries)
      : key_(std::move(key)), what_(std::move(what)), entries_(entries) {
    for (size_t i = 0; i < entries_.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (std::string(entries_[i].name) == entries_[j].name)
          throw std::logic_error(what_ + " '" + entries_[i].name + "' is registered twice");
      }
    }
  }

  const std::string& key() const { return key_; }
  const std::vector<Entry>& entries() const { return entries_; }
  const Entry* find(const std::string& name) const {
    for (const Entry& e : entries_)
      if (name == e.name) return &e;
    return nullptr;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> all;
    for (const Entry& e : entries_) all.emplace_back(e.name);
    return all;
  }
  /// "lrr (loose round-robin), gto (greedy-then-oldest)": for the parameter's description.
  std::string describe() const {
    std::string text;
    for (const Entry& e : entries_)
      text += (text.empty() ? "" : ", ") + std::string(e.name) + " (" + e.description + ")";
    return text;
  }
  /// ConfigError naming the key and the known names for a name not registered.
  std::unique_ptr<Interface> make(const std::string& name, Args... args) const {
    if (const Entry* e = find(name)) return e->make(args...);
    std::string known;
    for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + std::string(e.name);
    throw ConfigError(key_ + " = '" + name + "': unknown " + what_ + " (known: " + known + ")");
  }

 private:
  std::string key_, what_;
  std::vector<Entry> entries_;
};

}  // namespace gpusoc
