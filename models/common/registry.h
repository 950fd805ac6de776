// The implementations of one policy interface, by name: the factory that builds a policy from its
// configured name, the OneOf of the parameter that names it, and the parameter documentation all
// read the same table, so a name, its description and its parameters are written once, beside the
// implementation.
//
// An implementation's file declares its own parameters (Param<T>, param.h) and its Entry (a
// constant: name, one-line description, factory, and pointers to those parameters). The factory
// gets a PolicySettings (policy_choice.h) from which it reads them, so the block that uses the
// policy never names them. The interface's catalog function lists gpusoc's own entries, one line
// each, in a function-local static: that line and the file are the whole cost of adding a policy.
//
//   // two_level_scheduler.cpp
//   const Param<uint32_t> kActiveWarps{"sm.two_level_active_warps", 8, "warps", "...",
//                                      Range::at_least(1)};
//   constexpr WarpSchedulerRegistry::Entry kTwoLevelScheduler{
//       "two_level", "round-robin within an active set",
//       [](const PolicySettings& s) -> std::unique_ptr<WarpScheduler> {
//         return std::make_unique<TwoLevelScheduler>(s.get(kActiveWarps));
//       },
//       {&kActiveWarps}};
//   // warp_scheduler.cpp
//   WarpSchedulerRegistry& warp_schedulers() {
//     static WarpSchedulerRegistry r("sm.scheduler", "warp scheduler",
//                                    {kLrrScheduler, kGtoScheduler, kTwoLevelScheduler});
//     return r;
//   }
//
// Code outside gpusoc (a platform, a user's own policy) registers itself instead, with a
// Registration object at namespace scope in one of its own object files (the naming parameter's
// OneOf accepts it; its one-line description joins the parameter's only if the registration ran
// before that parameter was declared):
//   const gpusoc::sm::WarpSchedulerRegistry::Registration kMine{gpusoc::sm::warp_schedulers(),
//                                                               kMyEntry};
// and is then chosen by name from configuration like the built-in ones. (gpusoc's own policies are
// listed rather than self-registered: its libraries are static archives, from which the linker
// leaves out an object file that nothing refers to, registration and all. A user's executable
// links its own object files whole. Entries are constants, initialized before any constructor
// runs, so a catalog may be built during static initialization.)
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/constraint.h"
#include "models/common/error.h"
#include "models/common/policy_choice.h"

namespace gpusoc {

template <typename Interface, typename... Args>
class Registry {
 public:
  using Factory = std::unique_ptr<Interface> (*)(const PolicySettings&, Args...);
  struct Entry {
    const char* name;
    const char* description;  // one line, for parameter docs
    Factory make;
    /// The parameters the implementation declares and reads from its PolicySettings.
    std::array<const ParamBase*, 4> params = {};
  };
  /// Registers `entry` in `registry` when constructed (at static initialization, for a
  /// Registration at namespace scope).
  struct Registration {
    Registration(Registry& registry, const Entry& entry) { registry.add(entry); }
  };

  /// `key`: the parameter that names the policy; `what`: the kind of policy, for errors.
  Registry(std::string key, std::string what, std::initializer_list<Entry> entries)
      : key_(std::move(key)), what_(std::move(what)) {
    for (const Entry& e : entries) add(e);
  }

  /// std::logic_error when the name is taken.
  void add(const Entry& entry) {
    if (find(entry.name))
      throw std::logic_error(what_ + " '" + entry.name + "' is registered twice");
    entries_.push_back(entry);
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
  /// The constraint of the parameter that names a policy: the names registered when a value is
  /// checked, later registrations included.
  OneOf choices() const {
    const Registry* self = this;  // catalogs are function-local statics: they outlive the OneOf
    return OneOf([self] { return self->names(); });
  }

  /// The policy `key` (this registry's key unless given: one registry may serve several
  /// parameters) names in `config`, with the values of the parameters it declares.
  PolicyChoice choose(const Config& config, const std::string& key = {}) const {
    const std::string& name_key = key.empty() ? key_ : key;
    PolicyChoice choice(config.value(name_key).template get<std::string>());
    for (const ParamBase* param : entry(choice.name, name_key).params)
      if (param) choice.settings.set(param->name(), config.value(param->name()), config.registry());
    return choice;
  }
  /// ConfigError naming the key and the known names for a name not registered, or naming a
  /// setting the policy does not declare (it would be ignored).
  std::unique_ptr<Interface> make(const PolicyChoice& choice, Args... args) const {
    const Entry& e = entry(choice.name, key_);
    for (const std::string& name : choice.settings.names()) {
      std::string own;
      bool declared = false;
      for (const ParamBase* param : e.params) {
        if (!param) continue;
        declared |= param->name() == name;
        own += (own.empty() ? "" : ", ") + param->name();
      }
      if (!declared)
        throw ConfigError(key_ + " = '" + choice.name + "': the " + what_ + " takes no " + name +
                          " (its parameters: " + (own.empty() ? "none" : own) + ")");
    }
    return e.make(choice.settings, args...);
  }

 private:
  const Entry& entry(const std::string& name, const std::string& key) const {
    if (const Entry* e = find(name)) return *e;
    std::string known;
    for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + std::string(e.name);
    throw ConfigError(key + " = '" + name + "': unknown " + what_ + " (known: " + known + ")");
  }

  std::string key_, what_;
  std::vector<Entry> entries_;
};

}  // namespace gpusoc
