// Problems found while parsing or loading a module: every one is kept, each with file, line and column.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpusoc::ptx {

struct SourceLoc {
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Diagnostic {
  std::string file;
  SourceLoc loc;
  std::string message;
  /// "file:line:column: error: message"
  std::string to_string() const;
};

class Diagnostics {
 public:
  explicit Diagnostics(std::string file) : file_(std::move(file)) {}
  void error(SourceLoc loc, std::string message);
  /// A problem in another file (a module's ptxas report, say).
  void add(Diagnostic d) { list_.push_back(std::move(d)); }
  bool empty() const { return list_.empty(); }
  const std::vector<Diagnostic>& list() const { return list_; }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<Diagnostic> list_;
};

/// Thrown when a module fails to parse or load; what() lists every diagnostic, one per line.
class ModuleLoadError : public std::runtime_error {
 public:
  explicit ModuleLoadError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace gpusoc::ptx
