// The exceptions gpusoc reports to the user. The CLI catches them all and prints
// one line, "gpusoc: error: <what()>"; see platform/cli.h for the exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace gpusoc {

// Base of every error meant for the user rather than the developer.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A configuration file, --set or a parameter value is wrong. The message names the
// key and where it came from (file or "--set").
class ConfigError : public Error {
 public:
  using Error::Error;
};

/// `config` when its problem(prefix) is empty, else a ConfigError with that problem: checks a
/// config in a constructor's initializer list, before any member (a statistics group) is built.
template <typename Config>
const Config& checked_config(const Config& config, const std::string& prefix) {
  if (std::string why = config.problem(prefix); !why.empty()) throw ConfigError(why);
  return config;
}

// The command line is malformed (unknown command or option, missing value).
class UsageError : public Error {
 public:
  using Error::Error;
};

// A model found itself in a state it cannot simulate; the message starts with the
// module's hierarchical name so the user knows which block complained.
class ModelError : public Error {
 public:
  ModelError(const std::string& module, const std::string& message)
      : Error(module + ": " + message), module_(module) {}
  const std::string& module() const { return module_; }

 private:
  std::string module_;
};

}  // namespace gpusoc
